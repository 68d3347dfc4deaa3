package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The JSON data model as the encoder sees it. Values are one of:
// nil, bool, string, json.Number, []any or object.

// member is one key/value pair of a JSON object.
type member struct {
	key   string
	value any
}

// object is a JSON object with its keys in document order; map[string]any
// would lose the order TOON must preserve.
type object []member

// parseJSON decodes one JSON document into the order-preserving model.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the top-level JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return parseObject(dec)
		case '[':
			return parseArray(dec)
		default:
			return nil, fmt.Errorf("unexpected JSON delimiter %q", t)
		}
	case nil, bool, string, json.Number:
		return t, nil
	default:
		return nil, fmt.Errorf("unexpected JSON token %T", tok)
	}
}

func parseObject(dec *json.Decoder) (object, error) {
	obj := object{}
	index := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key is %T, not a string", tok)
		}
		value, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		// A repeated key keeps its first position and takes the last value,
		// the way JavaScript objects (and the reference encoder) behave.
		if i, seen := index[key]; seen {
			obj[i].value = value
			continue
		}
		index[key] = len(obj)
		obj = append(obj, member{key: key, value: value})
	}
	if _, err := dec.Token(); err != nil { // closing '}'
		return nil, err
	}
	return obj, nil
}

func parseArray(dec *json.Decoder) ([]any, error) {
	arr := []any{}
	for dec.More() {
		v, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if _, err := dec.Token(); err != nil { // closing ']'
		return nil, err
	}
	return arr, nil
}

func isPrimitive(v any) bool {
	switch v.(type) {
	case object, []any:
		return false
	default:
		return true
	}
}
