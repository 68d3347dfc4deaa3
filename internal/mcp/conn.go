package mcp

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMessageBytes bounds one JSON-RPC message (or batch) on every
// transport: a longer stdio line, or a longer HTTP POST body, is answered
// with a -32600 error (tooLongMessage) and skipped, never buffered whole.
const maxMessageBytes = 4 << 20

// tooLongMessage is the error message answering a message over
// maxMessageBytes, the same on stdio and HTTP.
var tooLongMessage = fmt.Sprintf("invalid request: the message is longer than %d bytes (4 MiB)", maxMessageBytes)

// batchesUntil is the first protocol version without JSON-RPC batches
// (2025-06-18 removed them). A batch is served in a session of an earlier
// version and refused with -32600 in later ones, on stdio and HTTP alike.
const batchesUntil = "2025-06-18"

// defaultVersion is the protocol version assumed before a session says
// otherwise (no initialize yet, no MCP-Protocol-Version header), as the
// streamable HTTP spec says.
const defaultVersion = "2025-03-26"

// metaProtocolVersion is the _meta key a 2026-07-28 request carries its
// protocol version in.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// lineTransport is an sdk.Transport over newline-delimited JSON, like the
// SDK's IOTransport, with differences lore needs:
//
//   - A line that is not a valid JSON-RPC message is answered with a
//     JSON-RPC error (-32700 parse error, -32600 invalid request, with the
//     message's id when it has a valid one) and the connection keeps going;
//     the SDK's transport closes the connection on the first bad line.
//   - A line over maxMessageBytes is answered with -32600 and skipped.
//   - JSON-RPC batches are served in sessions before protocol 2025-06-18
//     and refused with -32600 in later ones (see batchesUntil).
//   - The "task" parameter of tools/call (MCP 2025-11-25 Tasks) is kept: the
//     SDK's parameter type has no such field and would drop it, so it is
//     moved into params._meta where the tasks middleware finds it (see
//     moveTaskParam).
//   - An error response the SDK would send with code 0 (not a JSON-RPC
//     code) gets a defined one (see withDefinedCode).
type lineTransport struct {
	in      io.ReadCloser
	out     io.WriteCloser
	answers *inflight // counts the calls read and not yet answered
}

// lineTransport is the transport of one stdio-like session of s.
func (s *Server) lineTransport(in io.ReadCloser, out io.WriteCloser) *lineTransport {
	return &lineTransport{in: in, out: out, answers: &s.answers}
}

// Connect implements sdk.Transport.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{
		out:      t.out,
		in:       t.in,
		answers:  t.answers,
		incoming: make(chan lineOrErr),
		closed:   make(chan struct{}),
	}
	go c.readLoop()
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error // *lineTooLongError for a line over the limit
}

// lineConn is one newline-delimited JSON-RPC connection. It supports
// JSON-RPC batches (before 2025-06-18): the responses to a batch's calls
// are written together, as one array, once all of them are known.
type lineConn struct {
	in  io.ReadCloser
	out io.WriteCloser

	incoming chan lineOrErr
	queue    []jsonrpc.Message // decoded messages of the last batch not yet returned by Read
	version  string            // the session's protocol version, from its initialize; "" before (only Read touches it)

	writeMu sync.Mutex
	batchMu sync.Mutex
	batches map[jsonrpc.ID]*pendingBatch

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error

	// owed counts the calls Read returned whose response Write has not
	// yet written; each is also counted in answers (the server's count,
	// which Shutdown waits on) until written or the connection closes.
	owedMu  sync.Mutex
	owed    int
	answers *inflight
}

// owe counts msg in when it is a call, which the SDK answers with a
// response.
func (c *lineConn) owe(msg jsonrpc.Message) {
	if req, ok := msg.(*jsonrpc.Request); !ok || !req.IsCall() || c.answers == nil {
		return
	}
	c.owedMu.Lock()
	defer c.owedMu.Unlock()
	c.owed++
	c.answers.add()
}

// settle counts n responses out (all of them when n < 0).
func (c *lineConn) settle(n int) {
	if c.answers == nil {
		return
	}
	c.owedMu.Lock()
	defer c.owedMu.Unlock()
	if n < 0 || n > c.owed {
		n = c.owed
	}
	for range n {
		c.owed--
		c.answers.end()
	}
}

// pendingBatch collects the responses to one incoming batch.
type pendingBatch struct {
	slots     map[jsonrpc.ID]int
	responses []json.RawMessage
	left      int
}

// readLoop reads lines until EOF or an error and hands them to Read. It runs
// in its own goroutine so Close can unblock a Read waiting for input.
func (c *lineConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, err := readLine(r, maxMessageBytes)
		select {
		case c.incoming <- lineOrErr{line: line, err: err}:
		case <-c.closed:
			return
		}
		var tooLong *lineTooLongError
		if err != nil && !errors.As(err, &tooLong) {
			return
		}
	}
}

// lineTooLongError reports a line over the limit, with its first and last
// bytes, where its id is.
type lineTooLongError struct {
	head, tail []byte
}

func (e *lineTooLongError) Error() string { return "message longer than the limit" }

// id is the too-long message's id when its head or tail shows one.
func (e *lineTooLongError) id() any {
	if id := idFromHead(e.head); id != nil {
		return id
	}
	return idFromTail(e.tail)
}

// Bytes readLine keeps of a too-long line, to find the message's id.
const (
	headBytes = 64 << 10
	tailBytes = 256
)

// readLine returns the next line without its line ending. A line longer than
// limit is consumed to its end and reported as a *lineTooLongError.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > limit {
			tooLong := &lineTooLongError{head: make([]byte, 0, headBytes)}
			tooLong.head = append(tooLong.head, buf[:min(len(buf), headBytes)]...)
			tooLong.head = append(tooLong.head, chunk[:min(len(chunk), headBytes-len(tooLong.head))]...)
			tooLong.tail = keepLast(buf, chunk, tailBytes)
			// Skip the rest of this line, then report it.
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = r.ReadSlice('\n')
				tooLong.tail = keepLast(tooLong.tail, chunk, tailBytes)
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, tooLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(bytes.TrimSpace(buf)) > 0:
			return buf, nil // a last message without a newline
		default:
			return nil, err
		}
	}
}

// keepLast returns the last n bytes of a followed by b, in a new slice.
func keepLast(a, b []byte, n int) []byte {
	if len(b) >= n {
		return bytes.Clone(b[len(b)-n:])
	}
	a = a[max(0, len(a)-(n-len(b))):]
	return append(bytes.Clone(a), b...)
}

// Read implements sdk.Connection: it returns the next valid message,
// answering invalid ones itself.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			msg := c.queue[0]
			c.queue = c.queue[1:]
			c.owe(msg)
			return msg, nil
		}
		var next lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case next = <-c.incoming:
		}
		var tooLong *lineTooLongError
		if errors.As(next.err, &tooLong) {
			c.writeRaw(errorResponse(tooLong.id(), jsonrpc.CodeInvalidRequest, tooLongMessage))
			continue
		}
		if next.err != nil {
			return nil, next.err
		}
		line := bytes.TrimSpace(next.line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '[' {
			c.queue = c.decodeBatch(line)
			continue
		}
		msg, errResp := decodeOne(line)
		if errResp != nil {
			c.writeRaw(errResp)
			continue
		}
		c.noteInitialize(msg)
		c.owe(msg)
		return msg, nil
	}
}

// noteInitialize records the session's protocol version from its first
// initialize request, for the batch rule.
func (c *lineConn) noteInitialize(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "initialize" || c.version != "" {
		return
	}
	var params struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(req.Params, &params)
	c.version = negotiatedVersion(params.ProtocolVersion)
}

// negotiatedVersion is the version a session runs at when its initialize
// asked for requested: the SDK keeps a legacy version lore serves and
// answers any other with 2025-11-25.
func negotiatedVersion(requested string) string {
	switch requested {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25":
		return requested
	}
	return "2025-11-25"
}

// decodeOne decodes one message; on failure it returns the error response
// to send instead.
func decodeOne(raw []byte) (jsonrpc.Message, []byte) {
	if bad := checkMessage(raw); bad != nil {
		return nil, bad.response()
	}
	msg, err := jsonrpc.DecodeMessage(moveTaskParam(raw))
	if err != nil {
		return nil, errorResponse(rawID(raw), jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
	}
	return msg, nil
}

// rpcError is a JSON-RPC error to answer a message with.
type rpcError struct {
	id      any // string, int64 or nil (null)
	code    int64
	message string
}

func (e *rpcError) response() []byte { return errorResponse(e.id, e.code, e.message) }

// checkMessage checks that raw is one JSON-RPC 2.0 message lore accepts
// (a request, a notification, or a response to one of its requests) and
// returns the error to answer it with when it is not, or nil. The messages
// name the rule broken, never a decoder's internals. Both transports use
// it, so the same message gets the same answer on stdio and HTTP.
func checkMessage(raw []byte) *rpcError {
	if !json.Valid(raw) {
		return &rpcError{nil, jsonrpc.CodeParseError, "parse error: the message is not valid JSON"}
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return &rpcError{nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object"}
	}
	id := idOf(fields["id"])
	if rawID, ok := fields["id"]; ok && id == nil && !isNull(rawID) {
		return &rpcError{nil, jsonrpc.CodeInvalidRequest, `invalid request: "id" must be a string or an integer`}
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return &rpcError{id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`}
	}
	if rawMethod, ok := fields["method"]; ok {
		var method string
		if json.Unmarshal(rawMethod, &method) != nil || method == "" {
			return &rpcError{id, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a non-empty string`}
		}
		if params, ok := fields["params"]; ok && !isNull(params) {
			if p := bytes.TrimSpace(params); p[0] != '{' && p[0] != '[' {
				return &rpcError{id, jsonrpc.CodeInvalidRequest, `invalid request: "params" must be an object or an array`}
			}
		}
		return nil
	}
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if id != nil && hasResult != hasError {
		return nil // a response
	}
	return &rpcError{id, jsonrpc.CodeInvalidRequest,
		`invalid request: no "method" (a request needs one; a response needs an "id" and either "result" or "error")`}
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// batchVersion is the protocol version a batch is judged by: the session's
// (defaultVersion when unknown), or a later one a member carries in
// params._meta (2026-07-28 requests name their version there).
func batchVersion(session string, members []json.RawMessage) string {
	version := cmp.Or(session, defaultVersion)
	for _, m := range members {
		var msg struct {
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(m, &msg) != nil {
			continue
		}
		if v, _ := msg.Params.Meta[metaProtocolVersion].(string); v > version {
			version = v
		}
	}
	return version
}

// batchRefusal is the -32600 message refusing a batch in a session of
// version.
func batchRefusal(version string) string {
	return fmt.Sprintf("invalid request: JSON-RPC batches are not supported in protocol version %s and later (this session: %s); send one message at a time",
		batchesUntil, version)
}

// decodeBatch decodes a JSON-RPC batch. Invalid members are answered in the
// batch's response array; the valid ones are returned for Read to hand out.
// In a session of 2025-06-18 or later the whole batch is refused.
func (c *lineConn) decodeBatch(line []byte) []jsonrpc.Message {
	var members []json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		c.writeRaw(errorResponse(nil, jsonrpc.CodeParseError, "parse error: the batch is not valid JSON"))
		return nil
	}
	if len(members) == 0 {
		c.writeRaw(errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch"))
		return nil
	}
	if v := batchVersion(c.version, members); v >= batchesUntil {
		c.writeRaw(errorResponse(nil, jsonrpc.CodeInvalidRequest, batchRefusal(v)))
		return nil
	}
	batch := &pendingBatch{slots: map[jsonrpc.ID]int{}}
	var msgs []jsonrpc.Message
	for _, raw := range members {
		msg, errResp := decodeOne(raw)
		if errResp == nil {
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if _, dup := batch.slots[req.ID]; dup {
					errResp = errorResponse(req.ID.Raw(), jsonrpc.CodeInvalidRequest, "invalid request: duplicate id in batch")
				} else {
					batch.slots[req.ID] = len(batch.responses)
					batch.responses = append(batch.responses, nil)
					batch.left++
				}
			}
		}
		if errResp != nil {
			batch.responses = append(batch.responses, errResp)
			continue
		}
		c.noteInitialize(msg)
		msgs = append(msgs, msg)
	}
	if batch.left == 0 {
		if len(batch.responses) > 0 {
			c.writeBatch(batch.responses)
		}
		return msgs
	}
	c.batchMu.Lock()
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*pendingBatch{}
	}
	for id := range batch.slots {
		c.batches[id] = batch
	}
	c.batchMu.Unlock()
	return msgs
}

// Write implements sdk.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if _, ok := msg.(*jsonrpc.Response); ok {
		defer c.settle(1) // written or not, this call is answered as far as it can be
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error != nil {
		msg = withDefinedCode(resp)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.batchMu.Lock()
		batch, inBatch := c.batches[resp.ID]
		var complete bool
		if inBatch {
			delete(c.batches, resp.ID)
			batch.responses[batch.slots[resp.ID]] = data
			batch.left--
			complete = batch.left == 0
		}
		c.batchMu.Unlock()
		if inBatch {
			if complete {
				return c.writeBatch(batch.responses)
			}
			return nil
		}
	}
	return c.writeRaw(data)
}

// withDefinedCode gives an error response a JSON-RPC code when the SDK has
// none for it (a plain Go error encodes as code 0): a method called before
// initialize, or a second initialize, is -32600 (Invalid Request), anything
// else -32603 (Internal error). The message stays.
func withDefinedCode(resp *jsonrpc.Response) *jsonrpc.Response {
	var wire *jsonrpc.Error
	if errors.As(resp.Error, &wire) && wire.Code != 0 {
		return resp
	}
	message := resp.Error.Error()
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(message, "during session initialization") || strings.Contains(message, `duplicate "initialize"`) {
		code = jsonrpc.CodeInvalidRequest
	}
	return &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: code, Message: message}}
}

func (c *lineConn) writeBatch(responses []json.RawMessage) error {
	data, err := json.Marshal(responses)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC batch response: %w", err)
	}
	return c.writeRaw(data)
}

func (c *lineConn) writeRaw(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	if _, err := c.out.Write(line); err != nil {
		return fmt.Errorf("writing a JSON-RPC message: %w", err)
	}
	return nil
}

// Close implements sdk.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.writeMu.Lock()
		close(c.closed)
		c.writeMu.Unlock()
		c.closeErr = errors.Join(c.in.Close(), c.out.Close())
		c.settle(-1) // nothing more can be answered
	})
	return c.closeErr
}

// SessionID implements sdk.Connection; a stream has no session id.
func (c *lineConn) SessionID() string { return "" }

// errorResponse is a JSON-RPC error response; id nil encodes as null.
func errorResponse(id any, code int64, message string) []byte {
	type rpcErr struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	data, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   rpcErr `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: rpcErr{code, message}})
	return data
}

// rawID returns the id of a JSON object message when it is a valid JSON-RPC
// id (string or integer), else nil.
func rawID(raw []byte) any {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return nil
	}
	return idOf(probe.ID)
}

// idOf decodes a raw "id" value: a string or an integer, else nil.
func idOf(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return n
	}
	return nil
}

// idFromHead finds the top-level "id" of a message from its first bytes
// (the rest cut off): a message too long to read whole is still answered
// with its id when the id comes before the cut, as it usually does.
func idFromHead(head []byte) any {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key == "id" {
			return idOf(value)
		}
	}
	return nil
}

// tailID matches a top-level "id" member ending a message: nested objects
// end in more than one brace, and a quote inside a string is escaped.
var tailID = regexp.MustCompile(`[,{]\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*}\s*$`)

// idFromTail finds the top-level "id" of a message from its last bytes,
// where clients that write the id after the params put it.
func idFromTail(tail []byte) any {
	m := tailID.FindSubmatch(bytes.TrimRight(tail, "\r\n"))
	if m == nil {
		return nil
	}
	return idOf(m[1])
}
