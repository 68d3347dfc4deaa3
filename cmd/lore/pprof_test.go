package main

import (
	"strings"
	"testing"
)

// TestPprofListenerLoopbackOnly checks that the opt-in profiling endpoint
// binds loopback addresses only.
func TestPprofListenerLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want string // "" means accepted
	}{
		{"127.0.0.1:0", ""},
		{"[::1]:0", ""},
		{"0.0.0.0:0", "loopback address only"},
		{":0", "loopback address only"},
		{"localhost:0", "loopback address only"}, // a name could resolve anywhere
		{"192.0.2.1:0", "loopback address only"},
		{"127.0.0.1", "want a loopback HOST:PORT"},
	} {
		ln, err := pprofListener(tc.addr)
		if ln != nil {
			ln.Close()
		}
		switch {
		case tc.want == "" && err != nil && !strings.Contains(err.Error(), "address family"):
			t.Errorf("%s: %v, want it accepted", tc.addr, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error saying %q", tc.addr, err, tc.want)
		}
	}
}
