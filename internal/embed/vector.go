package embed

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Dot returns the dot product of a and b; for L2-normalised vectors that is
// their cosine similarity. Vectors of different lengths are compared over
// the shorter one (they come from different embedders and should never meet;
// the index keeps them apart by embedder ID).
func Dot(a, b []float32) float32 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	// Four independent accumulators let the CPU overlap the multiply-adds;
	// the fixed-size subslices let the compiler drop bounds checks.
	var s0, s1, s2, s3 float32
	for len(a) >= 4 {
		x, y := a[:4:4], b[:4:4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		a, b = a[4:], b[4:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Normalize scales v in place to unit L2 length. A zero vector (or one with
// NaN/Inf) is set to all zeros: it then matches nothing rather than
// poisoning every score.
func Normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	norm := math.Sqrt(sum)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		clear(v)
		return
	}
	inv := 1 / norm
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
}

// Int8Vector is a vector quantised to signed bytes with one scale factor:
// element i stands for Scale*Data[i]. It takes a quarter of the space of
// float32 and keeps dot products within about 1% for normalised vectors.
type Int8Vector struct {
	Scale float32
	Data  []int8
}

// QuantizeInt8 quantises v symmetrically: the element of largest magnitude
// maps to ±127. NaN and Inf elements are treated as 0.
func QuantizeInt8(v []float32) Int8Vector {
	var maxAbs float64
	for _, x := range v {
		if a := math.Abs(float64(x)); a > maxAbs && !math.IsInf(a, 0) {
			maxAbs = a
		}
	}
	q := Int8Vector{Data: make([]int8, len(v))}
	if maxAbs == 0 {
		return q
	}
	scale := maxAbs / 127
	q.Scale = float32(scale)
	for i, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		q.Data[i] = int8(max(-127, min(127, math.Round(f/scale))))
	}
	return q
}

// Dot returns the approximate dot product of the vectors q and o stand for,
// over the shorter of the two.
func (q Int8Vector) Dot(o Int8Vector) float32 {
	n := min(len(q.Data), len(o.Data))
	a, b := q.Data[:n], o.Data[:n]
	var s0, s1, s2, s3 int32
	for len(a) >= 8 {
		x, y := a[:8:8], b[:8:8]
		s0 += int32(x[0])*int32(y[0]) + int32(x[4])*int32(y[4])
		s1 += int32(x[1])*int32(y[1]) + int32(x[5])*int32(y[5])
		s2 += int32(x[2])*int32(y[2]) + int32(x[6])*int32(y[6])
		s3 += int32(x[3])*int32(y[3]) + int32(x[7])*int32(y[7])
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += int32(a[i]) * int32(b[i])
	}
	// 127² × dims stays far below the int32 range for any real dimension.
	return float32(s0+s1+s2+s3) * q.Scale * o.Scale
}

// Float32 returns the float32 vector q stands for.
func (q Int8Vector) Float32() []float32 {
	v := make([]float32, len(q.Data))
	for i, x := range q.Data {
		v[i] = float32(x) * q.Scale
	}
	return v
}

// int8Header is the size of the encoded scale that precedes the data.
const int8Header = 4

// EncodeInt8 serialises q for storage (e.g. in an SQLite BLOB): the scale as
// a little-endian IEEE-754 float32, then one byte per element.
func EncodeInt8(q Int8Vector) []byte {
	b := make([]byte, int8Header+len(q.Data))
	binary.LittleEndian.PutUint32(b, math.Float32bits(q.Scale))
	for i, x := range q.Data {
		b[int8Header+i] = byte(x)
	}
	return b
}

// DecodeInt8 parses the output of EncodeInt8.
func DecodeInt8(b []byte) (Int8Vector, error) {
	if len(b) < int8Header {
		return Int8Vector{}, fmt.Errorf("int8 vector: %d bytes, need at least %d for the scale", len(b), int8Header)
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
	if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) || scale < 0 {
		return Int8Vector{}, fmt.Errorf("int8 vector: invalid scale %v", scale)
	}
	q := Int8Vector{Scale: scale, Data: make([]int8, len(b)-int8Header)}
	for i, x := range b[int8Header:] {
		q.Data[i] = int8(x)
	}
	return q, nil
}
