package mcp

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's JSON-RPC layer marshals a result into a json.RawMessage, then
// marshals the message that holds it, and encoding/json compacts every
// json.Marshaler's output: a search_code answer (~70 KB) is scanned byte by
// byte once more after lore encoded it, a sixth of the server's CPU at
// 100 clients. Over HTTP the answer to a POST of one request goes out
// through lore's own response writer (rpcErrorWriter), so lore can write
// the result's bytes there itself: the result the SDK marshals is a
// short placeholder, the bytes lore encoded wait in the request's
// resultSlot, and the writer puts them where the placeholder is. The
// client receives the same bytes the SDK would have written, less the
// whitespace a compaction drops (lore encodes none).
//
// The slot reaches the tools/call middleware through the request's
// header, which the SDK hands every request as RequestExtra.Header: the
// HTTP handler sets resultSlotHeader to the slot's number, after removing
// whatever a client sent under that name, so a client can only ever name
// the slot of its own request. A slot lives as long as its HTTP request:
// a result never written (the client gone) is dropped with it.

// resultSlotHeader is the request header that names a POST's resultSlot.
const resultSlotHeader = "Lore-Internal-Result-Slot"

// resultPlaceholder is the JSON the SDK marshals for a spliced result: a
// JSON string, so that it passes the SDK's compactions unchanged.
const resultPlaceholder = `"lore:result-in-slot"`

// resultSlot holds a tools/call result's JSON between its encoding (on the
// JSON-RPC goroutine) and its writing by rpcErrorWriter.
type resultSlot struct {
	body atomic.Pointer[bytes.Buffer]
}

// bodyPool keeps the buffers results are encoded into: a buffer is free
// again once rpcErrorWriter wrote it (the HTTP server copies or sends what
// it is given before Write returns), so an answer of 70 KB does not cost
// an allocation of that size, zeroed, each time.
var bodyPool sync.Pool // of *bytes.Buffer

// maxPooledBody is the largest buffer kept for the next answer.
const maxPooledBody = 1 << 20

// getBody returns an empty buffer.
func getBody() *bytes.Buffer {
	if b, ok := bodyPool.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

// putBody keeps b for another answer; b must not be used after.
func putBody(b *bytes.Buffer) {
	if b.Cap() > maxPooledBody {
		return
	}
	b.Reset()
	bodyPool.Put(b)
}

// resultSlots are the open slots by number: one per HTTP POST of a single
// message while it is served. They sit in shards by number, each under
// its own lock, so that the requests of many clients do not wait on one.
type resultSlots struct {
	next   atomic.Uint64
	shards [slotShards]slotShard
}

// slotShards is the number of shards of resultSlots.
const slotShards = 16

// slotShard is the slots of one shard.
type slotShard struct {
	mu    sync.Mutex
	slots map[uint64]*resultSlot
}

// open makes a slot for an HTTP request and names it in the request's
// header; close must follow once the request is answered.
func (rs *resultSlots) open(h http.Header) (n uint64, slot *resultSlot) {
	n = rs.next.Add(1)
	slot = &resultSlot{}
	sh := &rs.shards[n%slotShards]
	sh.mu.Lock()
	if sh.slots == nil {
		sh.slots = make(map[uint64]*resultSlot)
	}
	sh.slots[n] = slot
	sh.mu.Unlock()
	h[resultSlotHeader] = []string{strconv.FormatUint(n, 10)}
	return n, slot
}

// close forgets a slot.
func (rs *resultSlots) close(n uint64) {
	sh := &rs.shards[n%slotShards]
	sh.mu.Lock()
	delete(sh.slots, n)
	sh.mu.Unlock()
}

// of returns the slot a request's header names, or nil (stdio, a batch,
// a request of another kind).
func (rs *resultSlots) of(req sdk.Request) *resultSlot {
	if req == nil {
		return nil
	}
	extra := req.GetExtra()
	if extra == nil || extra.Header == nil {
		return nil
	}
	names := extra.Header[resultSlotHeader]
	if len(names) != 1 {
		return nil
	}
	n, err := strconv.ParseUint(names[0], 10, 64)
	if err != nil {
		return nil
	}
	sh := &rs.shards[n%slotShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.slots[n]
}

// splicedCall is a tools/call result whose JSON rpcErrorWriter writes: it
// marshals to resultPlaceholder and leaves its JSON (encodedCall's, with
// the _meta the SDK added after the middleware) in the slot.
type splicedCall struct {
	encodedCall
	slot *resultSlot
}

// MarshalJSON implements json.Marshaler.
func (c *splicedCall) MarshalJSON() ([]byte, error) {
	body := getBody()
	if err := c.encodedCall.writeTo(body); err != nil {
		putBody(body)
		return nil, err
	}
	c.slot.body.Store(body)
	return []byte(resultPlaceholder), nil
}

// spliceResult returns what to write for p, an SSE event or a JSON body
// written to the slot's request, in three parts: the head up to the
// placeholder, the result's JSON, and the rest. ok is false when p is not
// the JSON-RPC response whose result is the placeholder (its last member,
// as the SDK encodes a response), or the slot holds nothing. The slot is
// then empty; body goes back to bodyPool once written.
func (slot *resultSlot) spliceResult(p []byte) (head []byte, body *bytes.Buffer, tail []byte, ok bool) {
	stored := slot.body.Load()
	if stored == nil {
		return nil, nil, nil, false
	}
	end := bytes.TrimRight(p, "\n")
	const member = `"result":` + resultPlaceholder + `}`
	if !bytes.HasSuffix(end, []byte(member)) {
		return nil, nil, nil, false
	}
	at := len(end) - len(resultPlaceholder) - 1
	slot.body.Store(nil)
	return p[:at], stored, p[at+len(resultPlaceholder):], true
}
