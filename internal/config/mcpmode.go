package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Environment variables that say whether and where lore serve speaks MCP
// (the code-indexing service's configuration; see MCPMode).
const (
	EnvMCPEnabled   = "MCP_ENABLED"   // true or false
	EnvMCPTransport = "MCP_TRANSPORT" // stdio or http
)

// Where lore serve speaks MCP.
const (
	MCPStdio = "stdio" // on stdin/stdout; HTTP, if any, serves the REST API only
	MCPHTTP  = "http"  // at /mcp of the HTTP server, beside the REST API
	MCPOff   = "off"   // nowhere: HTTP serves the REST API only
)

// MCPModes lists the values of --mcp.
var MCPModes = []string{MCPStdio, MCPHTTP, MCPOff}

// MCPMode decides where lore serve speaks MCP. The --mcp flag (flag, ""
// when not given) wins over the variables; with neither, lore does what it
// always did: MCP on stdio, or at /mcp when it serves HTTP (httpServed).
// With the variables:
//
//	MCP_ENABLED=false                     no MCP (needs HTTP: REST only)
//	MCP_ENABLED=true (or unset) and
//	  MCP_TRANSPORT=stdio (or unset)      MCP on stdio; HTTP serves REST
//	  MCP_TRANSPORT=http                  MCP at /mcp (needs HTTP)
//
// Unset, the service this follows defaults MCP_ENABLED to false; lore
// keeps MCP on, so that an agent that starts lore serve keeps working.
// A mode that leaves nothing to serve, or names HTTP without an address,
// is an error that says what to set.
func MCPMode(flag string, getenv func(string) string, httpServed bool) (string, error) {
	mode, origin, err := mcpModeFrom(flag, getenv, httpServed)
	if err != nil {
		return "", err
	}
	switch {
	case mode == MCPOff && !httpServed:
		return "", fmt.Errorf("%s turns MCP off and there is no --http address: nothing to serve "+
			"(add --http ADDR to serve the REST API, or turn MCP on)", origin)
	case mode == MCPHTTP && !httpServed:
		return "", fmt.Errorf("%s serves MCP over HTTP, which needs --http ADDR", origin)
	}
	return mode, nil
}

// mcpModeFrom reads the mode and says where it came from, for messages.
func mcpModeFrom(flag string, getenv func(string) string, httpServed bool) (mode, origin string, err error) {
	if flag != "" {
		mode = strings.ToLower(strings.TrimSpace(flag))
		for _, m := range MCPModes {
			if mode == m {
				return mode, "--mcp " + mode, nil
			}
		}
		return "", "", fmt.Errorf("--mcp %q: want one of %s", flag, strings.Join(MCPModes, ", "))
	}
	enabledVar := strings.TrimSpace(getenv(EnvMCPEnabled))
	transport := strings.ToLower(strings.TrimSpace(getenv(EnvMCPTransport)))
	if enabledVar == "" && transport == "" {
		if httpServed {
			return MCPHTTP, "", nil
		}
		return MCPStdio, "", nil
	}
	enabled := true
	if enabledVar != "" {
		if enabled, err = strconv.ParseBool(enabledVar); err != nil {
			return "", "", fmt.Errorf("%s=%q: want true or false", EnvMCPEnabled, enabledVar)
		}
	}
	if !enabled {
		return MCPOff, EnvMCPEnabled + "=" + enabledVar, nil
	}
	switch transport {
	case "", MCPStdio:
		return MCPStdio, EnvMCPTransport + "=" + MCPStdio, nil
	case MCPHTTP:
		return MCPHTTP, EnvMCPTransport + "=" + MCPHTTP, nil
	default:
		return "", "", fmt.Errorf("%s=%q: want stdio or http", EnvMCPTransport, transport)
	}
}
