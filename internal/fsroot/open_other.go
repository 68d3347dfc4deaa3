//go:build !unix

package fsroot

// openNonblock is 0 where non-blocking opens are not available.
const openNonblock = 0

// openDirFlags is 0 where O_DIRECTORY is not available.
const openDirFlags = 0
