package mcp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/search"
)

// The collections family: search_code_semantic, search_code_fulltext,
// search_code_by_payload, over the named collections of the collections
// database (lore index --collection). Its names, arguments and defaults
// are those of a code-indexing service's MCP front end, and so is its
// error contract: a failure is a JSON-RPC error, not a tool result —
//
//	-32602 invalid params: a missing or mistyped argument, a bad payload
//	       key or top_k; the message names the argument
//	-32001 resource not found: an unknown collection, named, with the
//	       known ones listed
//	-32603 internal error
//
// The message is lore's own message of the failure; data carries lore's
// error code and details ({"code": "COLLECTION_NOT_FOUND", "details":
// {...}}). An untyped internal failure says only that it happened (its
// text may be a driver's or the system's and goes to the log), as every
// other tool does.

// JSON-RPC error codes of the collections family.
const (
	rpcInvalidParams    = jsonrpc.CodeInvalidParams // -32602
	rpcResourceNotFound = -32001
	rpcInternalError    = jsonrpc.CodeInternalError // -32603
)

func registerCollections(s *Server) error {
	s.register(s.searchSemanticTool())
	s.register(s.searchFulltextTool())
	s.register(s.searchByPayloadTool())
	return nil
}

var iconCollection = svgIcon(`<ellipse cx="12" cy="5" rx="8" ry="3" fill="none" stroke="#2a8" stroke-width="2"/><path d="M4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3" fill="none" stroke="#2a8" stroke-width="2"/>`)

// payloadFilterSchema is the schema of a payload filter argument: each key
// takes a value or a list of values (any of them).
func payloadFilterSchema() map[string]any {
	oneOrMany := func(typ, desc string) map[string]any {
		return map[string]any{"description": desc, "anyOf": []any{sType(typ, ""), sArray(sType(typ, ""))}}
	}
	props := map[string]any{}
	for _, key := range search.PayloadKeys {
		switch key {
		case "filePath":
			props[key] = oneOrMany("string", `a glob over the path from the collection's root, with a leading "/": "/src/search/*", "/src/**/*.go"`)
		case "startLine", "endLine":
			props[key] = oneOrMany("integer", "the chunk's first or last line, 1-based")
		case "symbols":
			props[key] = oneOrMany("string", "matches when one of the chunk's symbols equals a value")
		default:
			props[key] = oneOrMany("string", "matches the value exactly")
		}
	}
	return map[string]any{"properties": props, "additionalProperties": false}
}

// hitsSchema is the output schema of every collections tool.
func hitsSchema() map[string]any {
	payload := sObject(map[string]any{
		"filePath":       sString(`the file, from the collection's root, with a leading "/"`),
		"language":       sString("the language of the file"),
		"kind":           sString("the chunk's kind (function, class, section, …)"),
		"symbols":        sStringArray("the symbols the chunk defines"),
		"signature":      sString("the declaration's signature, when it has one"),
		"breadcrumb":     sString("where the chunk sits (class, heading path)"),
		"startLine":      sInt("first line, 1-based"),
		"endLine":        sInt("last line, inclusive"),
		"collectionName": sString("the collection searched"),
		"code":           sString("the chunk's text"),
	}, search.PayloadKeys...)
	return sObject(map[string]any{
		"results": sArray(sObject(map[string]any{
			"score":   sNumber("higher is better; metadata search scores every result 1"),
			"payload": payload,
		}, "score", "payload")),
		"took_ms": sNumber("time the search took, in milliseconds"),
	}, "results", "took_ms")
}

// collectionArg names the collection every tool of the family searches.
type collectionArg struct {
	CollectionName string `arg:"collectionName,required" desc:"The collection to search (lore collections list shows them)."`
}

// topKArg is how many results a search returns.
type topKArg struct {
	TopK int `arg:"top_k" default:"${app.DefaultTopK}" min:"1" max:"${app.MaxTopK}" desc:"Number of results to return."`
}

// searchSemanticArgs are search_code_semantic's arguments.
type searchSemanticArgs struct {
	Query string `arg:"query,required" desc:"Natural language search query (or identifiers)."`
	collectionArg
	Prompt string `arg:"prompt" desc:"Context that refines the query: it reorders the results without having to match."`
	topKArg
	Rerank bool `arg:"rerank" default:"true" desc:"Rerank the candidates (lore's reranking stage); false keeps the retrieval order."`
}

func (s *Server) searchSemanticTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_code_semantic",
			Title: "Search a collection by meaning",
			Description: "Rank the code of a named collection for a natural-language query: lore's ranking (with the collection's " +
				"embedder when one is configured), reranked unless rerank is false; prompt refines the order. " +
				"Results are [{score, payload}], best first; the payload carries filePath, lines, symbols and the code.",
			Annotations:  readOnlyAnnotations("Search a collection by meaning"),
			Icons:        iconCollection,
			OutputSchema: hitsSchema(),
		},
		rpcErrors: true,
	}, s.searchSemantic)
}

func (s *Server) searchSemantic(ctx context.Context, c *call, in *searchSemanticArgs) (*outcome, error) {
	c.logAs("collection", in.CollectionName)
	hits, took, err := s.opts.App.SearchSemantic(ctx, app.SemanticRequest{Collection: in.CollectionName, Query: in.Query,
		Prompt: in.Prompt, TopK: in.TopK, NoRerank: !in.Rerank})
	if err != nil {
		return nil, err
	}
	return hitsOutcome(hits, took), nil
}

// searchFulltextArgs are search_code_fulltext's arguments.
type searchFulltextArgs struct {
	TextQuery string `arg:"textQuery,required" desc:"Text to find in the code, exactly or as part of a word, ignoring case."`
	collectionArg
	Payload map[string]any `arg:"payload" schema:"payloadFilter" desc:"Metadata filters that narrow the results, e.g. {\"language\": \"go\", \"filePath\": \"/src/**\"}; a list means any of."`
	topKArg
}

func (s *Server) searchFulltextTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_code_fulltext",
			Title: "Search a collection for text",
			Description: "Find the chunks of a named collection that contain a text, ignoring case (a partial identifier matches), " +
				"best matches first, optionally narrowed by payload filters. Results are [{score, payload}].",
			Annotations:  readOnlyAnnotations("Search a collection for text"),
			Icons:        iconCollection,
			OutputSchema: hitsSchema(),
		},
		rpcErrors: true,
	}, s.searchFulltext)
}

func (s *Server) searchFulltext(ctx context.Context, c *call, in *searchFulltextArgs) (*outcome, error) {
	c.logAs("collection", in.CollectionName)
	start := time.Now()
	hits, err := s.opts.App.SearchFulltext(ctx, app.FulltextRequest{Collection: in.CollectionName, Text: in.TextQuery,
		Payload: in.Payload, TopK: in.TopK})
	if err != nil {
		return nil, err
	}
	return hitsOutcome(hits, sinceMS(start)), nil
}

// searchByPayloadArgs are search_code_by_payload's arguments.
type searchByPayloadArgs struct {
	collectionArg
	Payload map[string]any `arg:"payload,required" schema:"payloadFilter" desc:"Metadata filters every result matches, e.g. {\"filePath\": \"/src/search/*\"} or {\"symbols\": \"Parse\"}; a list means any of."`
	topKArg
}

func (s *Server) searchByPayloadTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_code_by_payload",
			Title: "Search a collection by metadata",
			Description: "List the chunks of a named collection whose metadata matches the payload filters (filePath glob, language, " +
				"kind, symbols, lines, …), in a stable order: path, then line. Results are [{score, payload}].",
			Annotations:  readOnlyAnnotations("Search a collection by metadata"),
			Icons:        iconCollection,
			OutputSchema: hitsSchema(),
		},
		rpcErrors: true,
	}, s.searchByPayload)
}

func (s *Server) searchByPayload(ctx context.Context, c *call, in *searchByPayloadArgs) (*outcome, error) {
	c.logAs("collection", in.CollectionName)
	start := time.Now()
	hits, err := s.opts.App.SearchPayload(ctx, in.CollectionName, in.Payload, in.TopK)
	if err != nil {
		return nil, err
	}
	return hitsOutcome(hits, sinceMS(start)), nil
}

// hitsOutput is the structured content of every collections tool.
type hitsOutput struct {
	Results []search.Hit `json:"results"`
	TookMS  float64      `json:"took_ms"`
}

func hitsOutcome(hits []search.Hit, tookMS float64) *outcome {
	if hits == nil {
		hits = []search.Hit{}
	}
	return &outcome{structured: hitsOutput{Results: hits, TookMS: tookMS}}
}

// sinceMS is the time since start in milliseconds, to the microsecond.
func sinceMS(start time.Time) float64 {
	return float64(time.Since(start).Microseconds()) / 1000
}

// collectionsRPCError is the JSON-RPC error of a collections tool's failure (see the
// family's comment).
func collectionsRPCError(err error) *jsonrpc.Error {
	te := classify(err)
	code := int64(rpcInternalError)
	switch errs.KindOf(err) {
	case errs.Invalid, errs.OutOfRoot:
		code = rpcInvalidParams
	case errs.NotFound, errs.NoIndex:
		code = rpcResourceNotFound
	}
	data, _ := json.Marshal(map[string]any{"code": te.Code, "details": te.Details})
	return &jsonrpc.Error{Code: code, Message: te.Message, Data: data}
}
