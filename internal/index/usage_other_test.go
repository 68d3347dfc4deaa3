//go:build !linux

package index_test

import "time"

func usage() (time.Duration, int64, bool) { return 0, 0, false }
