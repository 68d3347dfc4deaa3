package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/mcp"
)

// mcpSession serves lore's MCP server over a pipe, as on stdio, with the
// services given, and connects the SDK's client to it.
func mcpSession(t *testing.T, root string, services *svc.App) *sdk.ClientSession {
	t.Helper()
	r, err := fsroot.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcp.New(mcp.Options{Root: r.Path(), CodeRoot: r, DocsRoot: r, App: services})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	client := sdk.NewClient(&sdk.Implementation{Name: "cli-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		<-served
		srv.Close()
		cancel()
	})
	return cs
}

// callStructured calls a tool and returns its structured content as
// decoded JSON.
func callStructured(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s failed: %+v", tool, res.Content)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCLIPolish: how lore answers mistakes and -h, command by command.
func TestCLIPolish(t *testing.T) {
	cache, root := t.TempDir(), cliRepo(t)
	tests := []struct {
		name       string
		args       []string
		code       int
		stderrHead string   // how stderr starts
		stderr     []string // and what it says after, in order
		stdout     []string
	}{
		{name: "search without query", args: []string{"search", "--root", root}, code: exitUsage,
			stderrHead: "lore: search needs a QUERY\n", stderr: []string{"Usage: lore search [flags] QUERY", "-limit"}},
		{name: "search blank query", args: []string{"search", "--root", root, " "}, code: exitUsage, stderrHead: "lore: Query cannot be empty\n"},
		{name: "specs search without query", args: []string{"specs", "search", "--root", root}, code: exitUsage,
			stderrHead: "lore: usage: lore specs search QUERY"},
		{name: "packages search without query", args: []string{"packages", "search", "--root", root}, code: exitUsage,
			stderrHead: "lore: usage: lore packages search QUERY"},
		{name: "unknown flag", args: []string{"search", "--bogus", "x"}, code: exitUsage,
			stderrHead: "lore: search: flag provided but not defined: -bogus\n", stderr: []string{"\nUsage: lore search [flags] QUERY", "-semantic-weight"}},
		{name: "unknown flag of index", args: []string{"index", "--frobnicate"}, code: exitUsage,
			stderrHead: "lore: index: flag provided but not defined: -frobnicate\n", stderr: []string{"Usage: lore index"}},
		{name: "bad flag value", args: []string{"search", "--limit", "many", "x"}, code: exitUsage,
			stderrHead: `lore: search: invalid value "many" for flag -limit`},
		{name: "unknown flag of a subcommand", args: []string{"specs", "list", "--bogus"}, code: exitUsage,
			stderrHead: "lore: specs list: flag provided but not defined: -bogus\n", stderr: []string{"Usage: lore specs list"}},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage,
			stderrHead: "lore: unknown command \"frobnicate\"\n", stderr: []string{"Usage: lore [--index FILE] <command>"}},
		{name: "unknown specs command", args: []string{"specs", "grep"}, code: exitUsage,
			stderrHead: "lore: unknown specs command \"grep\"\n", stderr: []string{"Usage: lore specs <command>"}},
		{name: "packages without command", args: []string{"packages"}, code: exitUsage,
			stderrHead: "lore: packages needs a command\n", stderr: []string{"Usage: lore packages <command>"}},
		{name: "completion without shell", args: []string{"completion"}, code: exitUsage,
			stderrHead: "lore: completion needs one shell: bash, zsh or fish\n", stderr: []string{"Usage: lore completion"}},
		// --format is checked before the index is looked for: the folder has none.
		{name: "status bad format", args: []string{"status", "--root", root, "--format", "xml"}, code: exitUsage,
			stderrHead: `lore: --format must be human or json, got "xml"`},
		{name: "status json without index", args: []string{"status", "--root", root, "--format", "json"}, code: exitNoIndex,
			stderrHead: "lore: no index for "},
		{name: "semantic weight out of range", args: []string{"search", "--root", root, "--semantic-weight", "1.5", "x"}, code: exitUsage,
			stderrHead: "lore: --semantic-weight must be between 0 and 1, got 1.5"},
		{name: "semantic weight NaN", args: []string{"search", "--root", root, "--semantic-weight", "NaN", "x"}, code: exitUsage,
			stderrHead: "lore: --semantic-weight must be between 0 and 1, got NaN"},
		{name: "search help", args: []string{"search", "-h"}, code: exitOK,
			stdout: []string{"Usage: lore search [flags] QUERY", "-semantic-weight float", "(default 0.7)"}},
		{name: "status help", args: []string{"status", "--help"}, code: exitOK, stdout: []string{"Usage: lore status [--root PATH] [--format human|json]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runLore(t, cache, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.HasPrefix(stderr, tt.stderrHead) {
				t.Errorf("stderr starts %q, want %q", head(stderr), tt.stderrHead)
			}
			rest := stderr
			for _, want := range tt.stderr {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stderr lacks %q (in order):\n%s", want, stderr)
				}
				rest = rest[i+len(want):]
			}
			rest = stdout
			for _, want := range tt.stdout {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order):\n%s", want, stdout)
				}
				rest = rest[i+len(want):]
			}
			if tt.code != exitOK && stdout != "" {
				t.Errorf("a failed command printed on stdout: %q", stdout)
			}
			// A usage is printed once, wherever it goes.
			if n := strings.Count(stdout+stderr, "Usage:"); n > 1 {
				t.Errorf("the usage is printed %d times:\n%s%s", n, stdout, stderr)
			}
			// --semantic-weight shows one default.
			if strings.Contains(stdout+stderr, "semantic-weight float") && (strings.Count(stdout+stderr, "0.7") != 1 || strings.Contains(stdout+stderr, "-1")) {
				t.Errorf("--semantic-weight shows its default %d times:\n%s%s", strings.Count(stdout+stderr, "0.7"), stdout, stderr)
			}
		})
	}
}

// TestEveryHelpOnce: every command's -h prints its usage once, on stdout,
// and exits 0.
func TestEveryHelpOnce(t *testing.T) {
	cache := t.TempDir()
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		code, stdout, stderr := runLore(t, cache, name, "-h")
		if code != exitOK || strings.Count(stdout, "Usage:") != 1 || stderr != "" {
			t.Errorf("lore %s -h: exit %d, %d usages on stdout, stderr %q\n%s", name, code, strings.Count(stdout, "Usage:"), stderr, stdout)
		}
	}
}

func head(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}

// TestSpecsSearchJSONIsTheToolsObject: lore specs search --format json
// prints exactly the structured content of the search_specs tool.
func TestSpecsSearchJSONIsTheToolsObject(t *testing.T) {
	f := newFactsFixture(t)
	root := realPath(t, f.root)
	services := svc.New(svc.Options{IndexFor: svc.ServeIndexFor(root, f.index)})
	t.Cleanup(func() { services.Close() })
	cs := mcpSession(t, root, services)
	for _, tt := range []struct {
		query string
		limit int
	}{{"password login", 10}, {"password", 2}, {"quantum chromodynamics", 5}} {
		var stdout, stderr bytes.Buffer
		args := []string{"--index", f.index, "specs", "search", "--root", f.root, "--format", "json", "--limit", jsonNumber(tt.limit), tt.query}
		if code := runMain(context.Background(), args, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("lore %v: exit %d: %s", args, code, stderr.String())
		}
		var cli map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &cli); err != nil {
			t.Fatalf("%v\n%s", err, stdout.String())
		}
		tool := callStructured(t, cs, "search_specs", map[string]any{"query": tt.query, "limit": tt.limit})
		if !reflect.DeepEqual(cli, tool) {
			t.Errorf("%q: lore specs search --format json printed\n%s\nsearch_specs answered\n%v", tt.query, stdout.String(), tool)
		}
		if results, _ := cli["results"].([]any); tt.query != "quantum chromodynamics" && len(results) == 0 {
			t.Errorf("%q: no results: %s", tt.query, stdout.String())
		}
	}
}

func jsonNumber(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
