package testtree

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
)

// Small real media files, made by the test that needs them: lore's tests
// carry no binary fixtures.

// testImage is a w×h gradient.
func testImage(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{R: uint8(x * 255 / max(w-1, 1)), G: uint8(y * 255 / max(h-1, 1)), B: 128, A: 255})
		}
	}
	return img
}

// PNG is a w×h PNG image.
func PNG(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, testImage(w, h)); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// JPEG is a w×h JPEG image.
func JPEG(w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, testImage(w, h), nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// GIF is a w×h GIF image.
func GIF(w, h int) []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, testImage(w, h), nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// WAV is a 16-bit mono PCM WAV file of a 440 Hz tone: samples samples at
// 8000 Hz.
func WAV(samples int) []byte {
	const rate = 8000
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + 2*samples))
	b.WriteString("WAVEfmt ")
	le(uint32(16))   // fmt chunk size
	le(uint16(1))    // PCM
	le(uint16(1))    // mono
	le(uint32(rate)) // sample rate
	le(uint32(2 * rate))
	le(uint16(2))  // block align
	le(uint16(16)) // bits per sample
	b.WriteString("data")
	le(uint32(2 * samples))
	for i := range samples {
		le(int16(8000 * math.Sin(2*math.Pi*440*float64(i)/rate)))
	}
	return b.Bytes()
}
