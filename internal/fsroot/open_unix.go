//go:build unix

package fsroot

import "syscall"

// openNonblock keeps opening a FIFO from blocking; regular files ignore it.
const openNonblock = syscall.O_NONBLOCK

// openDirFlags opens only folders, and never blocks on anything else.
const openDirFlags = syscall.O_NONBLOCK | syscall.O_DIRECTORY
