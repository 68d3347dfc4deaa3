// Package trigram is lore's n-gram index over file contents, which lets
// the exact search (package files) read only the files that can match.
//
// A file's grams are the distinct trigrams of its bytes with ASCII letters
// lowercased and every byte at or above 0x80 folded into one symbol, so
// that there are few possible keys (129³) and a case-insensitive or
// non-ASCII query never misses a file: the index only narrows the files to
// read, and the real matcher decides. Trigrams spanning a line break are
// left out, since a search matches one line at a time.
//
// The grams of each file are stored apart (EncodeKeys), so that an index
// run rewrites only the files it changed; a reader inverts them into an
// Index once per generation. Queries (Query) are derived from a literal or
// from a regular expression's syntax tree.
package trigram

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"sync"
)

// base is the number of symbols: the 128 ASCII bytes and one for every
// other byte.
const base = 129

// NumKeys is the number of possible trigram keys.
const NumKeys = base * base * base

// symbol maps a byte to its symbol: ASCII lowercased, non-ASCII folded.
var symbol = func() (t [256]uint32) {
	for i := range t {
		switch {
		case i >= 0x80:
			t[i] = 128
		case 'A' <= i && i <= 'Z':
			t[i] = uint32(i + 'a' - 'A')
		default:
			t[i] = uint32(i)
		}
	}
	return t
}()

// Key returns the key of the trigram a, b, c.
func Key(a, b, c byte) uint32 {
	return (symbol[a]*base+symbol[b])*base + symbol[c]
}

// seenPool holds bit sets of NumKeys bits, cleared after each use.
var seenPool = sync.Pool{New: func() any { s := make([]uint64, (NumKeys+63)/64); return &s }}

// Extract returns the distinct trigram keys of data, sorted, appended to
// dst[:0].
func Extract(data []byte, dst []uint32) []uint32 {
	dst = dst[:0]
	if len(data) < 3 {
		return dst
	}
	sp := seenPool.Get().(*[]uint64)
	seen := *sp
	k := symbol[data[0]]*base + symbol[data[1]]
	for i := 2; i < len(data); i++ {
		k = (k%(base*base))*base + symbol[data[i]]
		if data[i] == '\n' || data[i-1] == '\n' || data[i-2] == '\n' {
			continue
		}
		if seen[k>>6]&(1<<(k&63)) == 0 {
			seen[k>>6] |= 1 << (k & 63)
			dst = append(dst, k)
		}
	}
	if len(dst) < scanFrom {
		for _, k := range dst {
			seen[k>>6] = 0
		}
		slices.Sort(dst)
	} else {
		dst = collectSorted(seen, dst)
	}
	seenPool.Put(sp)
	return dst
}

// scanFrom is how many keys make reading them back off the bit set, in
// order, cheaper than sorting them (a file of a few kilobytes has that
// many; the set is NumKeys/64 words, most of them zero).
const scanFrom = 1024

// collectSorted replaces keys, the distinct keys set in seen, by the same
// keys in increasing order, read off the set, and clears seen.
func collectSorted(seen []uint64, keys []uint32) []uint32 {
	lo, hi := keys[0]>>6, keys[0]>>6
	for _, k := range keys {
		lo, hi = min(lo, k>>6), max(hi, k>>6)
	}
	keys = keys[:0]
	for w := lo; w <= hi; w++ {
		for word := seen[w]; word != 0; word &= word - 1 {
			keys = append(keys, w<<6|uint32(bits.TrailingZeros64(word)))
		}
		seen[w] = 0
	}
	return keys
}

// EncodeKeys writes sorted distinct keys as a count and the deltas between
// them, as uvarints: what a store keeps per file.
func EncodeKeys(keys []uint32) []byte {
	buf := make([]byte, 0, 8+len(keys)*2)
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	prev := uint32(0)
	for _, k := range keys {
		buf = binary.AppendUvarint(buf, uint64(k-prev))
		prev = k
	}
	return buf
}

// ErrCorrupt is returned for grams that do not decode.
var ErrCorrupt = errors.New("corrupt trigram data; rebuild with lore index --force")

// DecodeKeys calls fn with each key of an encoded set, in order.
func DecodeKeys(b []byte, fn func(uint32)) error {
	n, w := binary.Uvarint(b)
	if w <= 0 {
		return ErrCorrupt
	}
	b = b[w:]
	k := uint64(0)
	for range n {
		d, w := binary.Uvarint(b)
		if w <= 0 {
			return ErrCorrupt
		}
		b = b[w:]
		k += d
		if k >= NumKeys {
			return ErrCorrupt
		}
		fn(uint32(k))
	}
	if len(b) != 0 {
		return ErrCorrupt
	}
	return nil
}
