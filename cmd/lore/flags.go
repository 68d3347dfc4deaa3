package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// parseFlags parses args with fs, allowing flags after positional
// arguments (lore search QUERY --limit 5), and returns the positionals.
// "--" ends flag parsing. fs.Usage writes to fs.Output() (see
// commandUsage): on -h it goes to stdout and parseFlags returns errHelp;
// on a bad flag the error says what is wrong first, and the usage follows
// it on stderr (see reportError).
func parseFlags(a *cli, fs *flag.FlagSet, args []string) ([]string, error) {
	usage := fs.Usage
	fs.Usage = func() {} // fs.Parse would print it before the error
	defer func() { fs.Usage = usage }()
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(a.stdout)
				usage()
				fs.SetOutput(io.Discard)
				return nil, errHelp
			}
			return nil, &usageError{msg: fmt.Sprintf("%s: %v", fs.Name(), err), usage: func(w io.Writer) {
				fs.SetOutput(w)
				usage()
				fs.SetOutput(io.Discard)
			}}
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
