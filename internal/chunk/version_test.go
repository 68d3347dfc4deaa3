package chunk

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/lore-dev/lore/internal/lang"
)

// What Analyze made of testdata when Version was last changed. An index
// records Version and rebuilds when it differs, so a change to chunks or
// symbols must come with a new Version: otherwise indexes made before it
// keep the old chunks of every file that has not changed since.
const (
	recordedVersion = "9"
	recordedDigest  = "580e1351d45543ad514ea17941cabd3e85400b0b014fb7e69b78f7c9902b7280"
)

// TestExtractionVersion fails when Analyze's output on testdata changes
// while Version stays the same. It sees only testdata: a change whose
// inputs testdata lacks should add one there (it is a fixture too).
func TestExtractionVersion(t *testing.T) {
	digest := extractionDigest(t)
	switch {
	case Version != recordedVersion:
		t.Errorf("Version is %q; record it with the output it gives: recordedVersion = %q, recordedDigest = %q", Version, Version, digest)
	case digest != recordedDigest:
		t.Errorf("Analyze's output on testdata changed (digest %s, recorded %s) while Version stayed %q: "+
			"if the change is intended, raise Version so that existing indexes are rebuilt, then record the new version and digest here",
			digest, recordedDigest, Version)
	}
}

// extractionDigest hashes everything Analyze says about every testdata
// file, in name order.
func extractionDigest(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, name := range fixtureFiles(t) {
		src := readFixture(t, name)
		chunks, file := Analyze(name, lang.Detect(name, src), src)
		if err := enc.Encode(struct {
			Name   string
			Chunks []Chunk
			File   any
		}{name, chunks, file}); err != nil {
			t.Fatal(err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
