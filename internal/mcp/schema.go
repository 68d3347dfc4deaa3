package mcp

import "maps"

// Small builders for the tools' output schemas (JSON Schema 2020-12).

func sType(typ, desc string) map[string]any {
	s := map[string]any{"type": typ}
	if desc != "" {
		s["description"] = desc
	}
	return s
}

func sString(desc string) map[string]any { return sType("string", desc) }
func sInt(desc string) map[string]any    { return sType("integer", desc) }
func sNumber(desc string) map[string]any { return sType("number", desc) }
func sBool(desc string) map[string]any   { return sType("boolean", desc) }
func sArray(items any) map[string]any    { return map[string]any{"type": "array", "items": items} }
func sStringArray(desc string) map[string]any {
	s := sArray(sString(""))
	if desc != "" {
		s["description"] = desc
	}
	return s
}

func sObject(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func sEnum(desc string, values ...string) map[string]any {
	s := sString(desc)
	s["enum"] = values
	return s
}

// errorSchema is the shape of every tool error: {"code", "message", "details"}.
var errorSchema = sObject(map[string]any{
	"code":    sString("stable machine-readable error code, e.g. PATH_OUTSIDE_ROOT"),
	"message": sString("what went wrong, naming the offending input"),
	"details": map[string]any{"type": "object", "description": "structured context (never file contents)"},
}, "code", "message", "details")

// outputSchema is a tool's output schema: the success object with its
// required fields, or {"error": …}. Both are described because clients
// validate structuredContent even on error results.
func outputSchema(props map[string]any, required ...string) map[string]any {
	p := maps.Clone(props)
	p["error"] = errorSchema
	return map[string]any{
		"type":       "object",
		"properties": p,
		"anyOf": []any{
			map[string]any{"required": required},
			map[string]any{"required": []string{"error"}},
		},
	}
}
