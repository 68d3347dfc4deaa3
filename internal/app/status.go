package app

import (
	"context"
	"strconv"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
)

// Status is what an index holds and how fresh it is.
type Status struct {
	Root          string                `json:"root"`
	Index         string                `json:"index"`
	Collection    string                `json:"collection"`
	IndexedAt     string                `json:"indexed_at"`
	GitCommit     string                `json:"git_commit"`
	SchemaVersion int                   `json:"schema_version"`
	Files         int                   `json:"files"`
	Chunks        int                   `json:"chunks"`
	Packages      int                   `json:"packages"`
	Specs         int                   `json:"specs"`
	Embedder      string                `json:"embedder"`
	SpecsDir      string                `json:"specs_dir,omitempty"`
	Languages     []store.LanguageCount `json:"languages"`
	// Rebuild, when set, says why the next index run rebuilds the index
	// from scratch (an upgrade that makes chunks or terms differently).
	Rebuild string `json:"rebuild,omitempty"`
}

// Status reports on the index of a root.
func (a *App) Status(ctx context.Context, root string) (*Status, error) {
	r, loc, err := a.reader(ctx, root)
	if err != nil {
		return nil, err
	}
	meta, err := r.Meta(ctx)
	if err != nil {
		return nil, err
	}
	langs, err := r.LanguageCounts(ctx)
	if err != nil {
		return nil, err
	}
	number := func(key string) int {
		n, _ := strconv.Atoi(meta[key])
		return n
	}
	embedder := meta[store.MetaEmbedderSpec]
	if embedder == "" {
		embedder = "none"
	}
	return &Status{
		Root: root, Index: loc.Database, Collection: loc.Collection,
		IndexedAt: meta[store.MetaIndexedAt], GitCommit: meta[store.MetaGitCommit],
		SchemaVersion: number(store.MetaSchemaVersion), Files: number(store.MetaFileCount), Chunks: number(store.MetaChunkCount),
		Packages: number(store.MetaPackageCount), Specs: number(store.MetaSpecCount),
		Embedder: embedder, SpecsDir: meta[store.MetaSpecsDir], Languages: langs,
		Rebuild: index.RebuildReason(meta),
	}, nil
}

// RecordedSpecsDir is the specs folder the root was last indexed with,
// "" when there is no index or none was given: what lore serve uses so
// the spec tools read the specs search_specs searches.
func (a *App) RecordedSpecsDir(ctx context.Context, root string) string {
	st, err := a.Status(ctx, root)
	if err != nil {
		return ""
	}
	return st.SpecsDir
}
