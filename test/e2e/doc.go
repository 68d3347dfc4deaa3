// Package e2e holds the end-to-end test of lore serve: e2e_test.go builds
// lore and fixtures, then runs e2e.mjs, which drives the server with the
// official MCP TypeScript SDK client from npm over stdio and HTTP.
package e2e
