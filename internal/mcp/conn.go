package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMessageBytes bounds one newline-delimited message; a longer line is
// answered with an error and skipped, never buffered whole.
const maxMessageBytes = 16 << 20

// lineTransport is an sdk.Transport over newline-delimited JSON, like the
// SDK's IOTransport, with two differences lore needs:
//
//   - A line that is not a valid JSON-RPC message is answered with a
//     JSON-RPC error (-32700 parse error, -32600 invalid request) and the
//     connection keeps going; the SDK's transport closes the connection on
//     the first bad line.
//   - The "task" parameter of tools/call (MCP 2025-11-25 Tasks) is kept: the
//     SDK's parameter type has no such field and would drop it, so it is
//     moved into params._meta where the tasks middleware finds it (see
//     moveTaskParam).
type lineTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
}

// Connect implements sdk.Transport.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{
		out:      t.out,
		in:       t.in,
		incoming: make(chan lineOrErr),
		closed:   make(chan struct{}),
	}
	go c.readLoop()
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

// lineConn is one newline-delimited JSON-RPC connection. It supports
// JSON-RPC batches: the responses to a batch's calls are written together,
// as one array, once all of them are known.
type lineConn struct {
	in  io.ReadCloser
	out io.WriteCloser

	incoming chan lineOrErr
	queue    []jsonrpc.Message // decoded messages of the last batch not yet returned by Read

	writeMu sync.Mutex
	batchMu sync.Mutex
	batches map[jsonrpc.ID]*pendingBatch

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
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
		if err != nil && !errors.Is(err, errLineTooLong) {
			return
		}
	}
}

var errLineTooLong = errors.New("message longer than the limit")

// readLine returns the next line without its line ending. A line longer than
// limit is consumed to its end and reported as errLineTooLong.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > limit {
			// Skip the rest of this line, then report it.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errLineTooLong
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

// Read implements sdk.Connection: it returns the next valid message,
// answering invalid ones itself.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			msg := c.queue[0]
			c.queue = c.queue[1:]
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
		if errors.Is(next.err, errLineTooLong) {
			c.writeRaw(errorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", maxMessageBytes)))
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
		return msg, nil
	}
}

// decodeOne decodes one message; on failure it returns the error response
// to send instead.
func decodeOne(raw []byte) (jsonrpc.Message, []byte) {
	if !json.Valid(raw) {
		return nil, errorResponse(nil, jsonrpc.CodeParseError, "parse error: the message is not valid JSON")
	}
	msg, err := jsonrpc.DecodeMessage(moveTaskParam(raw))
	if err != nil {
		return nil, errorResponse(rawID(raw), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "" {
		return nil, errorResponse(rawID(raw), jsonrpc.CodeInvalidRequest, "invalid request: empty method")
	}
	return msg, nil
}

// decodeBatch decodes a JSON-RPC batch. Invalid members are answered in the
// batch's response array; the valid ones are returned for Read to hand out.
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
	if err := ctx.Err(); err != nil {
		return err
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
	_, err := c.out.Write(line)
	return err
}

// Close implements sdk.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.writeMu.Lock()
		close(c.closed)
		c.writeMu.Unlock()
		c.closeErr = errors.Join(c.in.Close(), c.out.Close())
	})
	return c.closeErr
}

// SessionID implements sdk.Connection; a stream has no session id.
func (c *lineConn) SessionID() string { return "" }

// errorResponse is a JSON-RPC error response; id nil encodes as null.
func errorResponse(id any, code int64, message string) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return data
}

// rawID returns the id of a JSON object message when it is a valid JSON-RPC
// id (string or integer), else nil.
func rawID(raw []byte) any {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &probe) != nil || len(probe.ID) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(probe.ID, &s) == nil {
		return s
	}
	var n int64
	if json.Unmarshal(probe.ID, &n) == nil {
		return n
	}
	return nil
}
