package files

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

// TestOpenBinaryFiles: open_file tells a binary file's type from its
// bytes; images and audio of the formats assistants read come with their
// bytes, within MaxMediaBytes; other binary files with their type and size
// only; text that merely starts like a media file stays text.
func TestOpenBinaryFiles(t *testing.T) {
	pngData, jpegData, gifData, wavData := testtree.PNG(3, 2), testtree.JPEG(4, 4), testtree.GIF(2, 2), testtree.WAV(800)
	webp := "RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
	mp3Tagged := "ID3\x04\x00\x00\x00\x00\x00\x0aTIT2\x00\x00\x00\x01\x00\x00\x00" + "\xff\xfb\x90\x64" + strings.Repeat("\x00", 100)
	mp3Bare := "\xff\xfb\x90\x64" + strings.Repeat("\x55", 200) // no NUL byte: told by its frame header
	oggVorbis := "OggS\x00\x02" + strings.Repeat("\x00", 20) + "\x01\x1e" + "\x01vorbis" + strings.Repeat("\x00", 30)
	oggTheora := "OggS\x00\x02" + strings.Repeat("\x00", 20) + "\x01\x2a" + "\x80theora" + strings.Repeat("\x00", 30)
	flac := "fLaC\x00\x00\x00\x22" + strings.Repeat("\x00", 34)
	blob, fake := "\x00\x01\x02\x03garbage", "\x00not really a png"
	pdf := "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n\x00"
	huge := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", MaxMediaBytes)
	atCap := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", MaxMediaBytes-8)
	fx := newFixture(t, nil, map[string]string{
		".gitignore":             "ignored.png\n",
		"docs/arch.png":          string(pngData),
		"photo.jpg":              string(jpegData),
		"misnamed.png":           string(jpegData), // the bytes win over the name
		"anim.gif":               string(gifData),
		"logo.webp":              webp,
		"tone.wav":               string(wavData),
		"song.mp3":               mp3Tagged,
		"bare.mp3":               mp3Bare,
		"voice.ogg":              oggVorbis,
		"clip.ogv":               oggTheora,
		"sound.flac":             flac,
		"manual.pdf":             pdf,
		"blob.bin":               blob,
		"fake.png":               fake,
		"huge.png":               huge,
		"at-cap.png":             atCap,
		"diagram.svg":            `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>` + "\n",
		"gif-notes.txt":          "GIF89a is a version of the GIF format\n",
		"id3-notes.md":           "ID3\x04 tags\n",
		"riff.txt":               "RIFF....WAVE is how a WAV file starts\n",
		"latin1.txt":             "caf\xe9\n",
		".hidden.png":            string(pngData),
		"ignored.png":            string(pngData),
		"images/link-out.png":    "->../../outside/secret.png",
		"images/link-secret.png": "->../.hidden.png",
	})
	testtree.Write(t, fx.base, map[string]string{"outside/secret.png": string(pngData)})

	media := []struct {
		path, mime, sentAs string
		data               string // the bytes sent; "" for none
		size               int
	}{
		{"docs/arch.png", "image/png", SentAsImage, string(pngData), len(pngData)},
		{"photo.jpg", "image/jpeg", SentAsImage, string(jpegData), len(jpegData)},
		{"misnamed.png", "image/jpeg", SentAsImage, string(jpegData), len(jpegData)},
		{"anim.gif", "image/gif", SentAsImage, string(gifData), len(gifData)},
		{"logo.webp", "image/webp", SentAsImage, webp, len(webp)},
		{"tone.wav", "audio/wav", SentAsAudio, string(wavData), len(wavData)},
		{"song.mp3", "audio/mpeg", SentAsAudio, mp3Tagged, len(mp3Tagged)},
		{"bare.mp3", "audio/mpeg", SentAsAudio, mp3Bare, len(mp3Bare)},
		{"voice.ogg", "audio/ogg", SentAsAudio, oggVorbis, len(oggVorbis)},
		{"sound.flac", "audio/flac", SentAsAudio, flac, len(flac)},
		{"at-cap.png", "image/png", SentAsImage, atCap, MaxMediaBytes},
		{"clip.ogv", "application/ogg", SentAsNone, "", len(oggTheora)},
		{"manual.pdf", "application/pdf", SentAsNone, "", len(pdf)},
		{"blob.bin", "application/octet-stream", SentAsNone, "", len(blob)},
		{"fake.png", "application/octet-stream", SentAsNone, "", len(fake)},
	}
	for _, tc := range media {
		t.Run(tc.path, func(t *testing.T) {
			opened, err := fx.svc.OpenFile(context.Background(), "code", tc.path)
			if err != nil {
				t.Fatal(err)
			}
			b := opened.Binary
			if opened.Text != nil || b == nil {
				t.Fatalf("opened as text: %d lines", len(opened.Text.Lines))
			}
			if b.Path != tc.path || b.MIMEType != tc.mime || b.SentAs != tc.sentAs || b.Size != int64(tc.size) {
				t.Errorf("got {%s %s %s %d}, want {%s %s %s %d}", b.Path, b.MIMEType, b.SentAs, b.Size, tc.path, tc.mime, tc.sentAs, tc.size)
			}
			if !bytes.Equal(b.Data, []byte(tc.data)) {
				t.Errorf("sent %d bytes, want %d", len(b.Data), len(tc.data))
			}
		})
	}

	for _, path := range []string{"diagram.svg", "gif-notes.txt", "id3-notes.md", "riff.txt", "latin1.txt"} {
		t.Run(path+" is text", func(t *testing.T) {
			if fc := openText(t, fx.svc, "code", path); len(fc.Lines) == 0 {
				t.Errorf("no lines")
			}
		})
	}

	t.Run("over the cap", func(t *testing.T) {
		_, err := fx.svc.OpenFile(context.Background(), "code", "huge.png")
		e := requireCode(t, err, CodeFileTooLarge)
		requireError(t, err, CodeFileTooLarge, `"huge.png"`)
		if e.Details["size"] != int64(len(huge)) || e.Details["max_size"] != MaxMediaBytes || e.Details["mime_type"] != "image/png" ||
			e.Details["path"] != "huge.png" || e.Details["repo"] != "code" {
			t.Errorf("details = %v", e.Details)
		}
		if !strings.Contains(e.Message, "3145736 bytes") || !strings.Contains(e.Message, "3145728") {
			t.Errorf("message %q does not give the size and the cap", e.Message)
		}
	})

	// Refused exactly as any other file.
	for _, tc := range []struct{ path, code, msg string }{
		{".hidden.png", CodeNotFound, "hidden or ignored"},
		{"ignored.png", CodeNotFound, "hidden or ignored"},
		{"images/link-secret.png", CodeNotFound, "hidden or ignored"},
		{"images/link-out.png", CodeOutsideRoot, "leads outside the root"},
		{"../outside/secret.png", CodeOutsideRoot, "'..'"},
		{filepath.Join(fx.base, "outside", "secret.png"), CodeOutsideRoot, "absolute"},
	} {
		t.Run("refused "+tc.path, func(t *testing.T) {
			_, err := fx.svc.OpenFile(context.Background(), "code", tc.path)
			requireError(t, err, tc.code, tc.msg)
		})
	}

	t.Run("get_snippet of an image", func(t *testing.T) {
		_, err := fx.svc.GetSnippet(context.Background(), "code", "docs/arch.png", 1, 2)
		requireError(t, err, CodeBinaryFile, "docs/arch.png")
	})
}

// TestMediaType: the magic numbers, and near misses that are not media.
func TestMediaType(t *testing.T) {
	for _, tc := range []struct {
		name, head, mime, sentAs string
	}{
		{"png", "\x89PNG\r\n\x1a\n\x00", "image/png", SentAsImage},
		{"png without its line ends", "\x89PNG\x00", "", ""},
		{"jpeg", "\xff\xd8\xff\xe0", "image/jpeg", SentAsImage},
		{"gif87a", "GIF87a\x01\x00", "image/gif", SentAsImage},
		{"gif90a", "GIF90a\x01\x00", "", ""},
		{"webp", "RIFF\x00\x00\x00\x00WEBP", "image/webp", SentAsImage},
		{"wave", "RIFF\x00\x00\x00\x00WAVE", "audio/wav", SentAsAudio},
		{"avi", "RIFF\x00\x00\x00\x00AVI ", "", ""},
		{"short riff", "RIFF\x00\x00", "", ""},
		{"flac", "fLaC\x00", "audio/flac", SentAsAudio},
		{"ogg opus", "OggS\x00\x02" + strings.Repeat("\x00", 20) + "\x01\x13OpusHead", "audio/ogg", SentAsAudio},
		{"ogg flac", "OggS\x00\x02" + strings.Repeat("\x00", 20) + "\x01\x33\x7fFLAC", "audio/ogg", SentAsAudio},
		{"ogg cut short", "OggS\x00\x02\x00", "", ""},
		{"ogg segment count past the head", "OggS\x00\x02" + strings.Repeat("\x00", 20) + "\xff", "", ""},
		{"id3v2.3", "ID3\x03\x00\x00\x00\x00\x01\x7f", "audio/mpeg", SentAsAudio},
		{"id3 with a bad size byte", "ID3\x03\x00\x00\x00\x00\x01\x80", "", ""},
		{"id3 of an unknown version", "ID3\x09\x00\x00\x00\x00\x00\x00", "", ""},
		{"mpeg-1 layer iii", "\xff\xfb\x90\x64", "audio/mpeg", SentAsAudio},
		{"mpeg-2 layer iii", "\xff\xf3\x48\xc4", "audio/mpeg", SentAsAudio},
		{"adts aac (layer 0)", "\xff\xf1\x50\x80", "", ""},
		{"reserved mpeg version", "\xff\xeb\x90\x64", "", ""},
		{"bad bitrate", "\xff\xfb\xf0\x64", "", ""},
		{"bad sample rate", "\xff\xfb\x9c\x64", "", ""},
		{"empty", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mime, sentAs := mediaType([]byte(tc.head))
			if mime != tc.mime || sentAs != tc.sentAs {
				t.Errorf("mediaType(%q) = %q, %q; want %q, %q", tc.head, mime, sentAs, tc.mime, tc.sentAs)
			}
		})
	}
}
