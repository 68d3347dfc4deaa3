package install

import (
	"testing"
)

func testJSONEditor() *jsonEditor {
	return &jsonEditor{container: []string{"mcpServers"}, name: "lore", entry: fields{{"command", "/l"}, {"args", []string{"serve"}}}}
}

// TestInstallJSONRemove: uninstall removes lore's member wherever it is, with its
// lines and the right comma, keeping the file standard JSON when it was and
// the comments around it.
func TestInstallJSONRemove(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"first", "{\n  \"mcpServers\": {\n    \"lore\": {\"command\": \"x\"},\n    \"a\": {}\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"a\": {}\n  }\n}\n"},
		{"middle", "{\"mcpServers\": {\n  \"a\": 1,\n  \"lore\": 2,\n  \"b\": 3\n}}",
			"{\"mcpServers\": {\n  \"a\": 1,\n  \"b\": 3\n}}"},
		{"last, standard JSON", "{\"mcpServers\": {\n  \"a\": 1,\n  \"lore\": 2\n}}",
			"{\"mcpServers\": {\n  \"a\": 1\n}}"},
		{"last, comment after the comma before", "{\"mcpServers\": {\n  \"a\": 1, // about a\n  \"lore\": 2\n}}",
			"{\"mcpServers\": {\n  \"a\": 1 // about a\n}}"},
		{"last with a trailing comma", "{\"mcpServers\": {\n  \"a\": 1,\n  \"lore\": 2,\n}}",
			"{\"mcpServers\": {\n  \"a\": 1,\n}}"},
		{"one line, first", `{"mcpServers": {"lore": 2, "a": 1}}`, `{"mcpServers": {"a": 1}}`},
		{"one line", `{"mcpServers": {"a": 1, "lore": 2}, "b": 3}`,
			`{"mcpServers": {"a": 1}, "b": 3}`},
		{"sole, container goes", "{\n  \"theme\": 1,\n  \"mcpServers\": {\n    \"lore\": 2\n  }\n}",
			"{\n  \"theme\": 1\n}"},
		{"sole, container with a comment stays", "{\"mcpServers\": {\n  // mine\n  \"lore\": 2\n}}",
			"{\"mcpServers\": {\n  // mine\n}}"},
		{"CRLF", "{\r\n  \"mcpServers\": {\r\n    \"lore\": 1,\r\n    \"a\": 2\r\n  }\r\n}\r\n",
			"{\r\n  \"mcpServers\": {\r\n    \"a\": 2\r\n  }\r\n}\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, del, err := testJSONEditor().uninstall("f.json", []byte(tc.in), nil)
			if err != nil || del {
				t.Fatalf("err %v, del %v", err, del)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestInstallJSONInsert: install follows the file's indentation and line endings
// and writes standard JSON into standard JSON.
func TestInstallJSONInsert(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty file", "", "{\n  \"mcpServers\": {\n    \"lore\": {\n      \"command\": \"/l\",\n      \"args\": [\"serve\"]\n    }\n  }\n}\n"},
		{"empty object", "{}", "{\n  \"mcpServers\": {\n    \"lore\": {\n      \"command\": \"/l\",\n      \"args\": [\"serve\"]\n    }\n  }\n}"},
		{"tabs", "{\n\t\"a\": 1\n}\n", "{\n\t\"mcpServers\": {\n\t\t\"lore\": {\n\t\t\t\"command\": \"/l\",\n\t\t\t\"args\": [\"serve\"]\n\t\t}\n\t},\n\t\"a\": 1\n}\n"},
		{"CRLF", "{\r\n  \"mcpServers\": {}\r\n}\r\n", "{\r\n  \"mcpServers\": {\r\n    \"lore\": {\r\n      \"command\": \"/l\",\r\n      \"args\": [\"serve\"]\r\n    }\r\n  }\r\n}\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := testJSONEditor().install("f.json", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
	if got := quote("a<b>&c"); got != `"a<b>&c"` {
		t.Errorf("quote = %s", got)
	}
}

// TestInstallTOMLRemove: uninstall removes lore's table and sub-tables, and the
// blank line before them, and keeps the comment that introduces the next
// table.
func TestInstallTOMLRemove(t *testing.T) {
	ed := &tomlEditor{table: "mcp_servers", name: "lore"}
	cases := []struct{ name, in, want string }{
		{"end", "a = 1\n\n[mcp_servers.lore]\ncommand = \"x\"\n", "a = 1\n"},
		{"middle with sub-table", "a = 1\n\n[mcp_servers.lore]\ncommand = \"x\"\n[mcp_servers.lore.env]\nX = \"1\"\n\n# the next one\n[b]\nc = 2\n",
			"a = 1\n\n# the next one\n[b]\nc = 2\n"},
		{"multi-line array", "[mcp_servers.lore]\nargs = [\n  [\"x\"],\n  \"y\",\n]\n\n[b]\n", "[b]\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := ed.uninstall("c.toml", []byte(tc.in), nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestInstallTOMLString: values are written as TOML basic strings.
func TestInstallTOMLString(t *testing.T) {
	for in, want := range map[string]string{`C:\lore`: `"C:\\lore"`, `a"b`: `"a\"b"`, "tab\t": `"tab\t"`, "é": `"é"`} {
		if got := tomlString(in); got != want {
			t.Errorf("tomlString(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestInstallUnifiedDiff: the dry run's diff has diff's headers, hunk ranges and
// context.
func TestInstallUnifiedDiff(t *testing.T) {
	cases := []struct{ name, a, b, want string }{
		{"same", "x\n", "x\n", ""},
		{"new file", "", "a\nb\n", "--- A\n+++ B\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"deleted", "a\n", "", "--- A\n+++ B\n@@ -1 +0,0 @@\n-a\n"},
		{"insert with context", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nX\n5\n6\n7\n8\n",
			"--- A\n+++ B\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+X\n 5\n 6\n 7\n"},
		{"no final newline", "a", "a\nb\n", "--- A\n+++ B\n@@ -1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+b\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n",
			"--- A\n+++ B\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -10,3 +11,4 @@\n 10\n 11\n 12\n+13\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := unifiedDiff("A", "B", []byte(tc.a), []byte(tc.b)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
