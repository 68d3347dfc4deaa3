// Package toon encodes Go values as TOON (Token-Oriented Object Notation),
// the compact, indentation-based rendering of the JSON data model that lore
// uses for responses read by language models: it declares array lengths and
// the field names of uniform object arrays once, so tables cost far fewer
// tokens than JSON.
//
// The encoder follows the TOON specification v3.3 (@toon-format/spec) with
// its default options: 2-space indentation, comma delimiter, no key folding.
//
// Host values are normalised exactly as encoding/json sees them: v is
// marshalled to JSON first (so struct tags, omitempty, json.Marshaler and
// sorted map keys all apply), then that JSON is rendered as TOON with object
// keys in their JSON order. Consequences worth knowing:
//
//   - Numbers are rendered from their JSON text without a trip through
//     float64, so integers of any size stay exact. Numbers with
//     1e-6 <= |n| < 1e21 (and zero) are written in plain decimal form; others
//     use JSON exponent form with a lowercase e and an explicit sign (1e+21,
//     1.5e-7), as the reference implementation does.
//   - encoding/json rejects NaN and ±Inf, so Marshal returns an error for
//     them instead of the spec's null; callers should not produce them.
//   - Besides the quoting the spec requires, strings starting with '#' and
//     numeric-looking strings with a leading '+' are quoted too, matching the
//     reference TypeScript encoder (quoting is always safe for decoders).
package toon

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Marshal returns the TOON encoding of v. The output has LF line endings and
// no trailing newline; an empty object encodes as an empty document.
func Marshal(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("toon: converting %T to JSON: %w", v, err)
	}
	value, err := parseJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("toon: reading JSON of %T: %w", v, err)
	}
	enc := encoder{indentSize: 2, delimiter: ','}
	if err := enc.root(value); err != nil {
		return nil, fmt.Errorf("toon: encoding %T: %w", v, err)
	}
	return []byte(strings.Join(enc.lines, "\n")), nil
}
