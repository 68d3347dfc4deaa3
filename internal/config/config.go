// Package config resolves lore's settings from flags, environment variables
// and an optional config file into typed values.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Environment variables lore reads.
const (
	EnvIndex    = "LORE_INDEX"     // the index file, overriding the default location
	EnvCacheDir = "LORE_CACHE_DIR" // the folder for indexes and models, overriding the user cache dir
)

// CacheDir is where lore keeps indexes and downloaded models: LORE_CACHE_DIR,
// else os.UserCacheDir()/lore.
func CacheDir() (string, error) {
	if dir := os.Getenv(EnvCacheDir); dir != "" {
		return filepath.Abs(dir)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache directory (set %s): %w", EnvCacheDir, err)
	}
	return filepath.Join(base, "lore"), nil
}

var unsafeNameChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// DefaultIndexPath is where the index of root lives unless overridden:
// under the cache dir, in a folder named after the root's base name and a
// hash of its absolute path, so two checkouts never share an index and the
// repository itself is never written to.
func DefaultIndexPath(absRoot string) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	return IndexPathIn(cache, absRoot), nil
}

// IndexPathIn is where the index of root lives under the cache folder
// cache (see DefaultIndexPath).
func IndexPathIn(cache, absRoot string) string {
	sum := sha256.Sum256([]byte(absRoot))
	name := unsafeNameChars.ReplaceAllString(filepath.Base(absRoot), "_")
	name = strings.Trim(name, "._-")
	if name == "" {
		name = "root"
	}
	return filepath.Join(cache, "indexes", name+"-"+hex.EncodeToString(sum[:6]), "index.db")
}

// IndexPath picks the index file for absRoot: an explicit flag first, then
// LORE_INDEX, then the default location.
func IndexPath(flagValue, absRoot string) (string, error) {
	if flagValue != "" {
		return filepath.Abs(flagValue)
	}
	if env := os.Getenv(EnvIndex); env != "" {
		return filepath.Abs(env)
	}
	return DefaultIndexPath(absRoot)
}

// CollectionsPath is the database of named collections (lore index
// --collection, lore collections, the collections tools): an explicit
// flag first, then LORE_INDEX, then collections.db in the cache dir.
func CollectionsPath(flagValue string) (string, error) {
	if flagValue != "" {
		return filepath.Abs(flagValue)
	}
	if env := os.Getenv(EnvIndex); env != "" {
		return filepath.Abs(env)
	}
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "collections.db"), nil
}
