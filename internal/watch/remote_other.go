//go:build !linux

package watch

// remoteFileSystem reports whether dir is on a network file system; only
// Linux is checked, elsewhere file events are trusted.
func remoteFileSystem(string) (string, bool) { return "", false }
