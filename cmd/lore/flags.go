package main

import (
	"errors"
	"flag"
	"io"
	"strings"
)

// parseFlags parses args with fs, allowing flags after positional
// arguments (lore search QUERY --limit 5), and returns the positionals.
// "--" ends flag parsing.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
		// A lone "-" or a negative number is a positional, not a flag.
		for len(args) > 0 && (args[0] == "-" || !strings.HasPrefix(args[0], "-")) {
			positional = append(positional, args[0])
			args = args[1:]
		}
		if len(args) == 0 {
			return positional, nil
		}
	}
}

// listFlag is a flag that may be given several times (--allow-root A
// --allow-root B); each value is kept in order.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// flagSet reports whether the flag name was given on the command line
// (even with an empty value).
func flagSet(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
