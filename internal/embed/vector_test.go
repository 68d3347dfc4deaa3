package embed

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDot(t *testing.T) {
	cases := []struct {
		a, b []float32
		want float32
	}{
		{nil, nil, 0},
		{[]float32{1, 2, 3}, []float32{4, 5, 6}, 32},
		{[]float32{1, 2, 3, 4, 5}, []float32{1, 1, 1, 1, 1}, 15}, // unrolled part plus tail
		{[]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, []float32{9, 8, 7, 6, 5, 4, 3, 2, 1}, 165},
		{[]float32{1, -1}, []float32{1, 1}, 0},
		{[]float32{1, 2, 3}, []float32{1, 1}, 3}, // shorter length wins
	}
	for _, c := range cases {
		if got := Dot(c.a, c.b); got != c.want {
			t.Errorf("Dot(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	cases := []struct {
		in, want []float32
	}{
		{[]float32{3, 4}, []float32{0.6, 0.8}},
		{[]float32{0, 0, 0}, []float32{0, 0, 0}},
		{[]float32{-2}, []float32{-1}},
		{[]float32{1, float32(math.NaN())}, []float32{0, 0}},
		{[]float32{1, float32(math.Inf(1))}, []float32{0, 0}},
	}
	for _, c := range cases {
		v := append([]float32(nil), c.in...)
		Normalize(v)
		for i := range v {
			if math.Abs(float64(v[i]-c.want[i])) > 1e-7 {
				t.Errorf("Normalize(%v) = %v, want %v", c.in, v, c.want)
				break
			}
		}
	}
}

func TestInt8Dot(t *testing.T) {
	seq := func(n int, f func(int) int8) Int8Vector {
		q := Int8Vector{Scale: 1, Data: make([]int8, n)}
		for i := range q.Data {
			q.Data[i] = f(i)
		}
		return q
	}
	cases := []struct {
		a, b Int8Vector
		want float32
	}{
		{seq(17, func(i int) int8 { return int8(i + 1) }), seq(17, func(int) int8 { return 1 }), 153},
		{seq(8, func(int) int8 { return -127 }), seq(8, func(int) int8 { return -127 }), 8 * 127 * 127},
		{seq(3, func(int) int8 { return 2 }), seq(5, func(int) int8 { return 3 }), 18}, // shorter length wins
		{Int8Vector{Scale: 0.5, Data: []int8{2}}, Int8Vector{Scale: 0.25, Data: []int8{4}}, 1},
	}
	for _, c := range cases {
		if got := c.a.Dot(c.b); got != c.want {
			t.Errorf("%v · %v = %v, want %v", c.a.Data, c.b.Data, got, c.want)
		}
	}
}

func TestQuantizeInt8(t *testing.T) {
	q := QuantizeInt8([]float32{0.5, -1, 0.25, 0})
	want := []int8{64, -127, 32, 0}
	for i := range want {
		if q.Data[i] != want[i] {
			t.Fatalf("Data = %v, want %v", q.Data, want)
		}
	}
	if math.Abs(float64(q.Scale)-1.0/127) > 1e-9 {
		t.Errorf("Scale = %v, want 1/127", q.Scale)
	}
	if z := QuantizeInt8([]float32{0, 0}); z.Scale != 0 || z.Data[0] != 0 || z.Dot(q) != 0 {
		t.Errorf("zero vector quantised to %+v", z)
	}
	if odd := QuantizeInt8([]float32{float32(math.NaN()), 2, float32(math.Inf(-1))}); odd.Data[0] != 0 || odd.Data[1] != 127 || odd.Data[2] != 0 {
		t.Errorf("NaN/Inf elements quantised to %v, want zeros", odd.Data)
	}
}

// TestInt8DotApproximatesFloatDot checks the quantisation error on random
// normalised 256-dimensional vectors.
func TestInt8DotApproximatesFloatDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		a, b := randomUnitVector(rng, 256), randomUnitVector(rng, 256)
		exact := Dot(a, b)
		approx := QuantizeInt8(a).Dot(QuantizeInt8(b))
		if math.Abs(float64(exact-approx)) > 0.01 {
			t.Fatalf("int8 dot %v vs float dot %v", approx, exact)
		}
	}
	a := randomUnitVector(rng, 256)
	if self := QuantizeInt8(a).Dot(QuantizeInt8(a)); math.Abs(float64(self)-1) > 0.01 {
		t.Errorf("self similarity %v, want ≈1", self)
	}
}

func TestInt8EncodingRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dim := range []int{0, 1, 7, 256} {
		q := QuantizeInt8(randomUnitVector(rng, dim))
		b := EncodeInt8(q)
		if len(b) != 4+dim {
			t.Errorf("dim %d: encoded to %d bytes, want %d", dim, len(b), 4+dim)
		}
		got, err := DecodeInt8(b)
		if err != nil {
			t.Fatalf("dim %d: %v", dim, err)
		}
		if got.Scale != q.Scale || len(got.Data) != len(q.Data) {
			t.Fatalf("dim %d: got %+v, want %+v", dim, got, q)
		}
		for i := range q.Data {
			if got.Data[i] != q.Data[i] {
				t.Fatalf("dim %d: data differs at %d", dim, i)
			}
		}
		back := got.Float32()
		for i := range back {
			if back[i] != float32(q.Data[i])*q.Scale {
				t.Fatalf("Float32 differs at %d", i)
			}
		}
	}
}

func TestDecodeInt8Errors(t *testing.T) {
	cases := []struct {
		in      []byte
		wantErr string
	}{
		{nil, "0 bytes"},
		{[]byte{1, 2, 3}, "3 bytes"},
		{[]byte{0, 0, 0xc0, 0x7f, 1}, "invalid scale NaN"},
		{[]byte{0, 0, 0x80, 0xbf, 1}, "invalid scale -1"},
	}
	for _, c := range cases {
		_, err := DecodeInt8(c.in)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("DecodeInt8(%v) error %v, want %q", c.in, err, c.wantErr)
		}
	}
}

func randomUnitVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	Normalize(v)
	return v
}

func BenchmarkDot256(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := randomUnitVector(rng, 256), randomUnitVector(rng, 256)
	var sink float32
	for b.Loop() {
		sink += Dot(x, y)
	}
	_ = sink
}

func BenchmarkInt8Dot256(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := QuantizeInt8(randomUnitVector(rng, 256)), QuantizeInt8(randomUnitVector(rng, 256))
	var sink float32
	for b.Loop() {
		sink += x.Dot(y)
	}
	_ = sink
}

func BenchmarkDecodeInt8Dot256(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	query := QuantizeInt8(randomUnitVector(rng, 256))
	stored := EncodeInt8(QuantizeInt8(randomUnitVector(rng, 256)))
	var sink float32
	for b.Loop() {
		v, err := DecodeInt8(stored)
		if err != nil {
			b.Fatal(err)
		}
		sink += query.Dot(v)
	}
	_ = sink
}
