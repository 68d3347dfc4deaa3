package config

import "testing"

func TestIndexMemoryBudget(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvIndexMemory {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name, flag, env string
		want            int64
		wantErr         bool
	}{
		{"unset", "", "", 0, false},
		{"bare number is MiB", "64", "", 64 << 20, false},
		{"MiB", "128MiB", "", 128 << 20, false},
		{"M", "128M", "", 128 << 20, false},
		{"MB lower case", "128mb", "", 128 << 20, false},
		{"GiB", "1GiB", "", 1 << 30, false},
		{"KiB", "4096KiB", "", 4 << 20, false},
		{"bytes", "2097152B", "", 2 << 20, false},
		{"spaces", " 2 GiB ", "", 2 << 30, false},
		{"env", "", "256MiB", 256 << 20, false},
		{"flag beats env", "64MiB", "256MiB", 64 << 20, false},
		{"too small", "512KiB", "", 0, true},
		{"too large", "2TiB", "", 0, true},
		{"zero", "0", "", 0, true},
		{"negative", "-5", "", 0, true},
		{"unknown unit", "5 parsecs", "", 0, true},
		{"not a number", "lots", "", 0, true},
		{"bad env", "", "x", 0, true},
		{"overflow", "99999999999999999999G", "", 0, true},
		{"shift overflow", "9000000000T", "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := IndexMemoryBudget(tt.flag, env(tt.env))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("IndexMemoryBudget(%q, env %q) = %d, %v; want %d, error %v", tt.flag, tt.env, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
