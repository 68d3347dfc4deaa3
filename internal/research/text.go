package research

import (
	"fmt"
	"strings"
)

// Text renders a result for a person: the summary, the chains by name,
// the nodes by depth, the edges, the ambiguous references and the search
// results. The CLI's and the MCP tool's human format.
func (r *Result) Text() string {
	var b strings.Builder
	b.WriteString(r.Summary)
	b.WriteString("\n")
	nodes, edges, chains, cands, findings := r.Nodes, r.Edges, r.Chains, r.Candidates, r.Findings
	byID := map[string]Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	where := func(n Node) string {
		switch {
		case n.Path == "":
			return n.Kind
		case n.StartLine > 0:
			return fmt.Sprintf("%s:%d", n.Path, n.StartLine)
		}
		return n.Path
	}
	if len(chains) > 0 {
		b.WriteString("\nChains:\n")
		for _, c := range chains {
			var parts []string
			for _, id := range c {
				parts = append(parts, byID[id].Symbol)
			}
			fmt.Fprintf(&b, "  %s\n", strings.Join(parts, " → "))
		}
	}
	if len(nodes) > 0 {
		b.WriteString("\nNodes:\n")
		for _, n := range nodes {
			fmt.Fprintf(&b, "  %s%s %s  %s", strings.Repeat("  ", n.Depth), n.Kind, n.Symbol, where(n))
			if n.Role != "" {
				fmt.Fprintf(&b, "  [%s]", n.Role)
			}
			b.WriteString("\n")
			if n.Signature != "" {
				fmt.Fprintf(&b, "  %s    %s\n", strings.Repeat("  ", n.Depth), n.Signature)
			}
		}
	}
	if len(edges) > 0 {
		b.WriteString("\nEdges:\n")
		for _, e := range edges {
			amb := ""
			if e.Ambiguous {
				amb = "  (ambiguous)"
			}
			loc := e.Path
			if e.Line > 0 {
				loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
			}
			if loc != "" {
				loc = "  at " + loc
			}
			fmt.Fprintf(&b, "  %s -%s-> %s%s%s\n", byID[e.From].Symbol, e.Kind, byID[e.To].Symbol, loc, amb)
		}
	}
	if len(cands) > 0 {
		b.WriteString("\nAmbiguous references:\n")
		for _, c := range cands {
			var defs []string
			for _, d := range c.Definitions {
				defs = append(defs, fmt.Sprintf("%s (%s:%d)", d.Symbol, d.Path, d.Line))
			}
			fmt.Fprintf(&b, "  %s at %s:%d may be %s\n", c.Symbol, c.Path, c.Line, strings.Join(defs, ", "))
		}
	}
	if len(findings) > 0 {
		b.WriteString("\nSearch results:\n")
		for i, f := range findings {
			fmt.Fprintf(&b, "  %d. %s:%d-%d  %s %s  (%d%%)\n", i+1, f.Path, f.StartLine, f.EndLine, f.Kind,
				strings.Join(f.Symbols, ", "), f.RelevancePercent)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
