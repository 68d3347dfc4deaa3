package chunk

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The tree-sitter API this file calls, declared as tree-sitter's api.h
// does (the runtime is compiled and linked by github.com/smacker/go-tree-sitter).
typedef struct TSTree TSTree;
typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;
typedef struct TSNode {
	uint32_t context[4];
	const void *id;
	const TSTree *tree;
} TSNode;
typedef struct TSQueryCapture {
	TSNode node;
	uint32_t index;
} TSQueryCapture;
typedef struct TSQueryMatch {
	uint32_t id;
	uint16_t pattern_index;
	uint16_t capture_count;
	const TSQueryCapture *captures;
} TSQueryMatch;

TSQueryCursor *ts_query_cursor_new(void);
void ts_query_cursor_delete(TSQueryCursor *self);
void ts_query_cursor_exec(TSQueryCursor *self, const TSQuery *query, TSNode node);
bool ts_query_cursor_next_match(TSQueryCursor *self, TSQueryMatch *match);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_named(TSNode self);
typedef struct TSTreeCursor {
	const void *tree;
	const void *id;
	uint32_t context[3];
} TSTreeCursor;
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);

// lore_children writes the children of node in order (only the named
// ones when named is set) into out, at most cap of them, and returns how
// many there are.
static uint32_t lore_children(TSNode node, bool named, TSNode *out, uint32_t cap) {
	TSTreeCursor c = ts_tree_cursor_new(node);
	uint32_t n = 0;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			TSNode child = ts_tree_cursor_current_node(&c);
			if (named && !ts_node_is_named(child)) continue;
			if (n < cap) out[n] = child;
			n++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return n;
}

// lore_capture is one capture of a match: the match's pattern, whether the
// capture opens a new match, the capture's index in the query, its bytes
// and its node.
typedef struct lore_capture {
	uint16_t pattern;
	uint16_t first;
	uint32_t index;
	uint32_t start, end;
	TSNode node;
} lore_capture;

// lore_matches runs query over node and returns every capture of every
// match in one array (malloc'ed; the caller frees it), its length in *n;
// NULL with *n = 0 when there is none, or when memory runs out.
static lore_capture *lore_matches(const TSQuery *query, TSNode node, size_t *n) {
	TSQueryCursor *cursor = ts_query_cursor_new();
	ts_query_cursor_exec(cursor, query, node);
	size_t len = 0, cap = 0;
	lore_capture *out = NULL;
	TSQueryMatch m;
	while (ts_query_cursor_next_match(cursor, &m)) {
		if (len + m.capture_count > cap) {
			size_t grown = cap ? 2 * cap : 256;
			while (grown < len + m.capture_count) grown *= 2;
			lore_capture *more = realloc(out, grown * sizeof *out);
			if (!more) {
				free(out);
				ts_query_cursor_delete(cursor);
				*n = 0;
				return NULL;
			}
			out = more, cap = grown;
		}
		for (uint16_t i = 0; i < m.capture_count; i++) {
			const TSQueryCapture *c = &m.captures[i];
			lore_capture *o = &out[len++];
			o->pattern = m.pattern_index;
			o->first = i == 0;
			o->index = c->index;
			o->start = ts_node_start_byte(c->node);
			o->end = ts_node_end_byte(c->node);
			o->node = c->node;
		}
	}
	ts_query_cursor_delete(cursor);
	*n = len;
	return out;
}
*/
import "C"

import (
	"runtime"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// The binding reads a query's matches one cgo call at a time and wraps
// every captured node in a cached Go object; on a whole repository that
// costs about as much as the tree-sitter query itself. matches reads all
// the matches of a file in one call instead, as byte spans, and makes Go
// nodes only for the few captures that need one (definitions, whose
// signature is read off the syntax tree).
//
// The binding keeps the C handles of a Query and a Node in unexported
// fields, so they are read here through unsafe; TestRawMatches checks
// this file against the binding's own NextMatch on every fixture, and
// fails if the binding's layout changes under an upgrade.

// tsNode is a node of a syntax tree as tree-sitter's C API hands it out.
type tsNode = C.TSNode

// rawCapture is one capture of a query match.
type rawCapture struct {
	pattern uint16
	first   bool // the first capture of its match
	index   uint32
	at      byteSpan
	node    tsNode
}

// bindingNode mirrors the layout of sitter.Node: the C node, then the tree.
type bindingNode struct {
	c C.TSNode
	t unsafe.Pointer
}

// bindingQuery mirrors the first field of sitter.Query: the C query.
type bindingQuery struct {
	c *C.TSQuery
}

// matches appends to dst the captures of every match of q over the tree
// under root, in the order the query cursor reports them.
func matches(q *sitter.Query, root *sitter.Node, dst []rawCapture) []rawCapture {
	cq := (*bindingQuery)(unsafe.Pointer(q)).c
	cn := (*bindingNode)(unsafe.Pointer(root)).c
	var n C.size_t
	out := C.lore_matches(cq, cn, &n)
	runtime.KeepAlive(q)
	runtime.KeepAlive(root)
	if out == nil {
		return dst
	}
	defer C.free(unsafe.Pointer(out))
	raw := unsafe.Slice(out, int(n))
	for i := range raw {
		r := &raw[i]
		dst = append(dst, rawCapture{
			pattern: uint16(r.pattern),
			first:   r.first != 0,
			index:   uint32(r.index),
			at:      byteSpan{uint32(r.start), uint32(r.end)},
			node:    r.node,
		})
	}
	return dst
}

// nodeOf returns the binding's node for a captured C node of the tree
// that root belongs to.
func nodeOf(root *sitter.Node, c tsNode) *sitter.Node {
	n := *root // the same tree
	(*bindingNode)(unsafe.Pointer(&n)).c = c
	return &n
}

// The binding reads a node's children a cgo call per step and per
// property, and files every node it hands out in its tree's cache (a map
// keyed by the C node); the chunker and the Rust macro scan list the
// children of most nodes they visit. childNodes lists them in one call
// instead and makes the Go nodes directly, all in one allocation. The
// nodes are the binding's as far as any method can tell, except that
// they are not the cached pointers: nodes are compared with sameNode,
// never by pointer.

// childNodes returns the children of n in order, only the named ones
// when named is set; nil when there are none.
func childNodes(n *sitter.Node, named bool) []*sitter.Node {
	if n == nil {
		return nil
	}
	cn := (*bindingNode)(unsafe.Pointer(n)).c
	var small [16]C.TSNode
	buf := small[:]
	count := int(C.lore_children(cn, C.bool(named), &buf[0], C.uint32_t(len(buf))))
	if count > len(buf) {
		buf = make([]C.TSNode, count)
		count = int(C.lore_children(cn, C.bool(named), &buf[0], C.uint32_t(len(buf))))
	}
	runtime.KeepAlive(n)
	if count == 0 {
		return nil
	}
	nodes := make([]sitter.Node, count)
	out := make([]*sitter.Node, count)
	for i := range nodes {
		nodes[i] = *n // the same tree
		(*bindingNode)(unsafe.Pointer(&nodes[i])).c = buf[i]
		out[i] = &nodes[i]
	}
	return out
}

// sameNode reports whether a and b are the same node of the same tree
// (both nil counts as the same): childNodes's nodes are equal to the
// binding's by value, not by pointer.
func sameNode(a, b *sitter.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	ca, cb := (*bindingNode)(unsafe.Pointer(a)).c, (*bindingNode)(unsafe.Pointer(b)).c
	return ca.id == cb.id && ca.tree == cb.tree
}
