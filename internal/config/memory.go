package config

import (
	"fmt"
	"strconv"
	"strings"
)

// EnvIndexMemory is the environment variable that sets an index run's
// memory budget (see IndexMemoryBudget).
const EnvIndexMemory = "LORE_INDEX_MEMORY"

// Limits of an index run's memory budget: below the least a run spills
// every few files and gets slow for nothing, above the most it is
// certainly a typo.
const (
	minIndexMemory = 1 << 20
	maxIndexMemory = 1 << 40
)

// IndexMemoryBudget resolves the memory budget of an index run, in bytes:
// the flag's value first, then LORE_INDEX_MEMORY (read through getenv),
// else 0 (the store's default). A value is a size such as "64MiB",
// "512M", "1GiB" or a plain number of MiB; it must be between 1 MiB and
// 1 TiB.
func IndexMemoryBudget(flagValue string, getenv func(string) string) (int64, error) {
	v, from := flagValue, "--memory"
	if v == "" && getenv != nil {
		v, from = getenv(EnvIndexMemory), EnvIndexMemory
	}
	if v == "" {
		return 0, nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", from, err)
	}
	if n < minIndexMemory || n > maxIndexMemory {
		return 0, fmt.Errorf("%s: %q is out of range: give between 1MiB and 1TiB", from, v)
	}
	return n, nil
}

// parseSize reads a size: a whole number with an optional unit (K, M, G,
// T, with or without "iB" or "B", powers of 1024); a bare number is MiB.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("%q is not a size (say 64MiB or 1GiB)", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size (say 64MiB or 1GiB)", s)
	}
	shifts := map[string]uint{"": 20, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20,
		"G": 30, "GB": 30, "GIB": 30, "T": 40, "TB": 40, "TIB": 40}
	sh, ok := shifts[strings.ToUpper(strings.TrimSpace(t[i:]))]
	if !ok {
		return 0, fmt.Errorf("%q has an unknown unit (use K, M, G or T, as in 64MiB)", s)
	}
	if n > (1<<62)>>sh {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n << sh, nil
}
