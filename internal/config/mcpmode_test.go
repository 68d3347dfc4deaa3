package config

import (
	"strings"
	"testing"
)

func TestMCPMode(t *testing.T) {
	tests := []struct {
		name      string
		flag      string
		enabled   string
		transport string
		http      bool
		want      string // "" means an error containing wantErr
		wantErr   string
	}{
		{name: "unset, no http: stdio as always", want: MCPStdio},
		{name: "unset, http: /mcp as always", http: true, want: MCPHTTP},
		{name: "disabled with http: REST only", enabled: "false", http: true, want: MCPOff},
		{name: "disabled without http: nothing to serve", enabled: "false", wantErr: "nothing to serve"},
		{name: "enabled: stdio by default, beside http", enabled: "true", http: true, want: MCPStdio},
		{name: "enabled, no http", enabled: "1", want: MCPStdio},
		{name: "enabled, stdio", enabled: "TRUE", transport: "stdio", http: true, want: MCPStdio},
		{name: "enabled, http", enabled: "true", transport: "http", http: true, want: MCPHTTP},
		{name: "http transport needs --http", enabled: "true", transport: "HTTP", wantErr: "MCP_TRANSPORT=http serves MCP over HTTP, which needs --http"},
		{name: "transport alone turns MCP on", transport: "http", http: true, want: MCPHTTP},
		{name: "disabled wins over a transport", enabled: "false", transport: "http", http: true, want: MCPOff},
		{name: "bad enabled", enabled: "maybe", wantErr: `MCP_ENABLED="maybe": want true or false`},
		{name: "bad transport", enabled: "true", transport: "sse", wantErr: `MCP_TRANSPORT="sse": want stdio or http`},
		{name: "flag wins over variables", flag: "http", enabled: "false", http: true, want: MCPHTTP},
		{name: "flag off", flag: "off", http: true, want: MCPOff},
		{name: "flag off without http", flag: "off", wantErr: "--mcp off turns MCP off and there is no --http address"},
		{name: "flag stdio beside http", flag: "Stdio", transport: "http", http: true, want: MCPStdio},
		{name: "flag http without http", flag: "http", wantErr: "--mcp http serves MCP over HTTP, which needs --http"},
		{name: "bad flag", flag: "grpc", wantErr: `--mcp "grpc": want one of stdio, http, off`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{EnvMCPEnabled: tt.enabled, EnvMCPTransport: tt.transport}
			got, err := MCPMode(tt.flag, func(k string) string { return env[k] }, tt.http)
			if tt.want != "" {
				if err != nil || got != tt.want {
					t.Fatalf("MCPMode = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("MCPMode = %q, %v; want an error containing %q", got, err, tt.wantErr)
			}
		})
	}
}
