package install

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the unified diff (3 lines of context) that turns a
// into b, labelled with the two names; "" when they are equal. Lines are
// compared whole; a file without a final newline is marked as diff does.
func unifiedDiff(nameA, nameB string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := splitLines(string(a)), splitLines(string(b))
	ops := diffLines(al, bl)

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	const context = 3
	// Walk the edit script, cutting it into hunks around the changes.
	type line struct {
		op   byte
		text string
		ai   int // index in a of this line (or of the next, for '+')
		bi   int
	}
	var lines []line
	ai, bi := 0, 0
	for _, op := range ops {
		switch op {
		case '=':
			lines = append(lines, line{'=', al[ai], ai, bi})
			ai++
			bi++
		case '-':
			lines = append(lines, line{'-', al[ai], ai, bi})
			ai++
		case '+':
			lines = append(lines, line{'+', bl[bi], ai, bi})
			bi++
		}
	}
	for i := 0; i < len(lines); {
		if lines[i].op == '=' {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines
		// after the last change that is within 2*context of the next.
		start := max(0, i-context)
		end := i
		for j := i; j < len(lines); j++ {
			if lines[j].op != '=' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(len(lines), end+context+1)
		var aStart, bStart, aCount, bCount int
		aStart, bStart = lines[start].ai, lines[start].bi
		for _, l := range lines[start:stop] {
			if l.op != '+' {
				aCount++
			}
			if l.op != '-' {
				bCount++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aCount), hunkRange(bStart, bCount))
		for _, l := range lines[start:stop] {
			prefix := map[byte]string{'=': " ", '-': "-", '+': "+"}[l.op]
			text, hasNL := strings.CutSuffix(l.text, "\n")
			out.WriteString(prefix + text + "\n")
			if !hasNL {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

// hunkRange formats a hunk's start (0-based) and line count as diff does.
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

// splitLines splits s after each newline, keeping them.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns an edit script turning a into b: '=' keeps a line,
// '-' drops one of a, '+' adds one of b. The common head and tail are
// matched first; the middle, small for the edits lore makes, by a longest
// common subsequence, or replaced whole when it is too large for that.
func diffLines(a, b []string) []byte {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ops := make([]byte, 0, len(a)+len(b))
	for range head {
		ops = append(ops, '=')
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	if len(ma)*len(mb) > 4_000_000 {
		for range ma {
			ops = append(ops, '-')
		}
		for range mb {
			ops = append(ops, '+')
		}
	} else {
		ops = append(ops, lcsScript(ma, mb)...)
	}
	for range tail {
		ops = append(ops, '=')
	}
	return ops
}

// lcsScript is the edit script of a longest common subsequence of a and b.
func lcsScript(a, b []string) []byte {
	n, m := len(a), len(b)
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []byte
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, '=')
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			ops = append(ops, '-')
			i++
		default:
			ops = append(ops, '+')
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, '-')
	}
	for ; j < m; j++ {
		ops = append(ops, '+')
	}
	return ops
}
