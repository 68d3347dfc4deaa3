package embed

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The safetensors format: an 8-byte little-endian header length N, N bytes
// of JSON mapping tensor names to {dtype, shape, data_offsets}, then the raw
// little-endian tensor data; data_offsets are relative to the data start.

// maxSafetensorsHeader bounds the JSON header; real headers are a few KB.
const maxSafetensorsHeader = 100 << 20

type tensorInfo struct {
	DType       string  `json:"dtype"`
	Shape       []int64 `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

// tensor is one tensor of a safetensors file, still in its stored encoding.
type tensor struct {
	name  string
	dtype string
	shape []int64
	data  []byte
}

// safetensors is a parsed file: its tensors by name.
type safetensors map[string]tensor

// dtypeSize gives the element size of the dtypes this reader converts.
var dtypeSize = map[string]int64{
	"F64": 8, "F32": 4, "F16": 2, "BF16": 2,
	"I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1,
}

// parseSafetensors validates the layout of a safetensors file held in data.
func parseSafetensors(data []byte) (safetensors, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("truncated: %d bytes, too short for the 8-byte header length", len(data))
	}
	headerLen := binary.LittleEndian.Uint64(data)
	if headerLen > maxSafetensorsHeader || headerLen > uint64(len(data)-8) {
		return nil, fmt.Errorf("header length %d exceeds the file size %d (truncated or not a safetensors file)", headerLen, len(data))
	}
	header := data[8 : 8+headerLen]
	body := data[8+headerLen:]

	var entries map[string]json.RawMessage
	if err := json.Unmarshal(header, &entries); err != nil {
		return nil, fmt.Errorf("malformed JSON header: %w", err)
	}
	tensors := safetensors{}
	for name, raw := range entries {
		if name == "__metadata__" {
			continue
		}
		var info tensorInfo
		if err := json.Unmarshal(raw, &info); err != nil {
			return nil, fmt.Errorf("tensor %q: malformed header entry: %w", name, err)
		}
		t, err := checkTensor(name, info, body)
		if err != nil {
			return nil, err
		}
		tensors[name] = t
	}
	return tensors, nil
}

// checkTensor validates one header entry. Tensors of dtypes this reader
// cannot convert are kept (a model may carry tensors lore never reads) and
// rejected only when converted.
func checkTensor(name string, info tensorInfo, body []byte) (tensor, error) {
	if len(info.DataOffsets) != 2 {
		return tensor{}, fmt.Errorf("tensor %q: data_offsets must have 2 entries, has %d", name, len(info.DataOffsets))
	}
	begin, end := info.DataOffsets[0], info.DataOffsets[1]
	if begin < 0 || end < begin || end > int64(len(body)) {
		return tensor{}, fmt.Errorf("tensor %q: data_offsets [%d, %d] outside the %d data bytes (truncated file?)", name, begin, end, len(body))
	}
	t := tensor{name: name, dtype: info.DType, shape: info.Shape, data: body[begin:end]}
	size, known := dtypeSize[info.DType]
	if !known {
		return t, nil
	}
	elements := int64(1)
	for _, d := range info.Shape {
		if d < 0 || (d > 0 && elements > math.MaxInt64/size/d) {
			return tensor{}, fmt.Errorf("tensor %q: invalid shape %v", name, info.Shape)
		}
		elements *= d
	}
	if elements*size != end-begin {
		return tensor{}, fmt.Errorf("tensor %q: shape %v of %s needs %d bytes, data_offsets give %d",
			name, info.Shape, info.DType, elements*size, end-begin)
	}
	return t, nil
}

// names lists the tensor names, sorted, for error messages.
func (s safetensors) names() string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func (t tensor) unsupported() error {
	return fmt.Errorf("tensor %q: unsupported dtype %q (supported: F32, F16, BF16, F64, I8, U8, I16, I32, I64)", t.name, t.dtype)
}

// float32s converts a floating-point or integer tensor to float32.
func (t tensor) float32s() ([]float32, error) {
	size, known := dtypeSize[t.dtype]
	if !known {
		return nil, t.unsupported()
	}
	n := int64(len(t.data)) / size
	out := make([]float32, n)
	d := t.data
	switch t.dtype {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(d[4*i:]))
		}
	case "F64":
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(d[8*i:])))
		}
	case "F16":
		for i := range out {
			out[i] = float16ToFloat32(binary.LittleEndian.Uint16(d[2*i:]))
		}
	case "BF16":
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(d[2*i:])) << 16)
		}
	case "I8":
		for i := range out {
			out[i] = float32(int8(d[i]))
		}
	case "U8":
		for i := range out {
			out[i] = float32(d[i])
		}
	default:
		ints, err := t.ints()
		if err != nil {
			return nil, err
		}
		for i, v := range ints {
			out[i] = float32(v)
		}
	}
	return out, nil
}

// ints converts an integer tensor to int64.
func (t tensor) ints() ([]int64, error) {
	d := t.data
	var out []int64
	switch t.dtype {
	case "I64":
		out = make([]int64, len(d)/8)
		for i := range out {
			out[i] = int64(binary.LittleEndian.Uint64(d[8*i:]))
		}
	case "I32":
		out = make([]int64, len(d)/4)
		for i := range out {
			out[i] = int64(int32(binary.LittleEndian.Uint32(d[4*i:])))
		}
	case "I16":
		out = make([]int64, len(d)/2)
		for i := range out {
			out[i] = int64(int16(binary.LittleEndian.Uint16(d[2*i:])))
		}
	case "I8":
		out = make([]int64, len(d))
		for i := range out {
			out[i] = int64(int8(d[i]))
		}
	case "U8":
		out = make([]int64, len(d))
		for i := range out {
			out[i] = int64(d[i])
		}
	default:
		if _, known := dtypeSize[t.dtype]; !known {
			return nil, t.unsupported()
		}
		return nil, fmt.Errorf("tensor %q: dtype %s is not an integer type", t.name, t.dtype)
	}
	return out, nil
}

// float16ToFloat32 widens an IEEE-754 half-precision value exactly.
func float16ToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	case mant == 0: // ±0
		return math.Float32frombits(sign)
	default: // subnormal: mant × 2^-24
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
}
