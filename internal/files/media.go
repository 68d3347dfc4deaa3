package files

import (
	"bytes"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/fsroot"
)

// MaxMediaBytes caps the image or audio file OpenFile returns the bytes
// of. Base64 makes a file of this size 4 MiB in an answer, within what
// the model APIs behind assistants take for one image (5 MB); a larger
// image or audio file is FILE_TOO_LARGE, with its size and this cap.
const MaxMediaBytes = 3 << 20

// How OpenFile returns a binary file's bytes (BinaryFile.SentAs).
const (
	SentAsImage = "image" // the bytes are an image: PNG, JPEG, GIF or WebP
	SentAsAudio = "audio" // the bytes are audio: WAV, MP3, Ogg (Vorbis, Opus, FLAC, Speex) or FLAC
	SentAsNone  = "none"  // any other binary file: its type and size only
)

// BinaryFile is a file that is not text: its MIME type, told by its
// bytes, and its size; for an image or audio file of a format
// assistants read, its bytes too.
type BinaryFile struct {
	Path     string `json:"path"`      // relative to the repo root, slash-separated
	MIMEType string `json:"mime_type"` // from the bytes; for a format lore does not know, from the name
	Size     int64  `json:"size"`      // bytes
	SentAs   string `json:"sent_as"`   // SentAsImage, SentAsAudio or SentAsNone
	Data     []byte `json:"-"`         // the file, when SentAs is image or audio
}

// Opened is what OpenFile answers: a text file's lines, or a binary file.
// Exactly one is set.
type Opened struct {
	Text   *FileContent
	Binary *BinaryFile
}

// mediaType tells an image or audio format OpenFile sends from a file's
// first bytes (its magic number): the MIME type and SentAsImage or
// SentAsAudio, or "", "" for anything else. The extension plays no part:
// a JPEG named .png is image/jpeg, a text file named .wav is text.
func mediaType(head []byte) (mimeType, sentAs string) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", SentAsImage
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "image/jpeg", SentAsImage
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif", SentAsImage
	case riff(head, "WEBP"):
		return "image/webp", SentAsImage
	case riff(head, "WAVE"):
		return "audio/wav", SentAsAudio
	case bytes.HasPrefix(head, []byte("fLaC")):
		return "audio/flac", SentAsAudio
	case oggAudio(head):
		return "audio/ogg", SentAsAudio
	case id3(head), mpegAudioFrame(head):
		return "audio/mpeg", SentAsAudio
	}
	return "", ""
}

// riff reports whether head starts a RIFF file of the given form type.
func riff(head []byte, form string) bool {
	return len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == form
}

// oggAudio reports whether head is an Ogg stream whose first packet is
// the header of an audio codec (Vorbis, Opus, FLAC, Speex), not video.
func oggAudio(head []byte) bool {
	if len(head) < 27 || string(head[:4]) != "OggS" || head[4] != 0 {
		return false
	}
	packet := head[min(27+int(head[26]), len(head)):]
	for _, codec := range []string{"\x01vorbis", "OpusHead", "\x7fFLAC", "Speex   "} {
		if bytes.HasPrefix(packet, []byte(codec)) {
			return true
		}
	}
	return false
}

// id3 reports whether head starts with an ID3v2 tag, as MP3 files do.
func id3(head []byte) bool {
	if len(head) < 10 || string(head[:3]) != "ID3" || head[3] < 2 || head[3] > 4 {
		return false
	}
	for _, b := range head[6:10] { // the tag size: four 7-bit bytes
		if b >= 0x80 {
			return false
		}
	}
	return true
}

// mpegAudioFrame reports whether head starts with the header of an MPEG
// audio frame (an MP3 without a tag): 11 sync bits, then a version, layer,
// bitrate and sample rate that are not the reserved values.
func mpegAudioFrame(head []byte) bool {
	if len(head) < 4 || head[0] != 0xff || head[1]&0xe0 != 0xe0 {
		return false
	}
	version, layer := head[1]>>3&3, head[1]>>1&3
	bitrate, rate := head[2]>>4, head[2]>>2&3
	return version != 1 && layer != 0 && bitrate != 0xf && rate != 3
}

// notUTF8 reports whether head is not UTF-8 text. A magic number made of
// letters (GIF8, RIFF, OggS, fLaC, ID3) counts only in a file that is
// binary (a NUL byte) or not UTF-8, so that a text file starting with such
// a word stays text.
func notUTF8(head []byte) bool {
	if len(head) >= fsroot.BinarySniffLen {
		// The head may end inside a character: judge the whole ones.
		for i := 0; i < utf8.UTFMax-1 && len(head) > 0 && !utf8.RuneStart(head[len(head)-1]); i++ {
			head = head[:len(head)-1]
		}
		if len(head) > 0 && head[len(head)-1] >= utf8.RuneSelf {
			head = head[:len(head)-1]
		}
	}
	return !utf8.Valid(head)
}

// binaryType is the MIME type of a binary file that is not an image or
// audio file lore sends: from its bytes when they tell (PDF, ZIP, gzip,
// BMP, MP4, …), else from its name, else application/octet-stream. A name
// claiming an image or audio type the bytes do not bear out is not
// believed.
func binaryType(name string, head []byte) string {
	// DetectContentType calls text what has no binary byte in its first
	// 512 bytes; only its UTF-16 text (with NUL bytes) is binary here.
	if t := http.DetectContentType(head); t != "application/octet-stream" && (!strings.HasPrefix(t, "text/") || strings.Contains(t, "utf-16")) {
		return t
	}
	t := mime.TypeByExtension(strings.ToLower(path.Ext(name)))
	if mt, _, err := mime.ParseMediaType(t); err == nil && !strings.HasPrefix(mt, "image/") && !strings.HasPrefix(mt, "audio/") &&
		!strings.HasPrefix(mt, "text/") {
		return t
	}
	return "application/octet-stream"
}
