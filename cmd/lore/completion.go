package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/install"
)

func init() {
	register("completion", command{summary: "print a shell completion script: completion bash|zsh|fish", run: runCompletion})
}

// completionShells are the shells lore completion writes for.
var completionShells = []string{"bash", "fish", "zsh"}

const completionUsage = `Usage: lore completion bash|zsh|fish

Prints a completion script for lore's commands, subcommands and flags.

  bash:  source <(lore completion bash)       (or save it in ~/.local/share/bash-completion/completions/lore)
  zsh:   lore completion zsh > "${fpath[1]}/_lore"   (a folder in $fpath; then restart zsh)
  fish:  lore completion fish > ~/.config/fish/completions/lore.fish
`

func runCompletion(ctx context.Context, a *cli, args []string) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(a.stdout, completionUsage)
		return errHelp
	}
	if len(args) != 1 {
		return usageText(completionUsage, "completion needs one shell: bash, zsh or fish")
	}
	cmds := completionModel()
	switch args[0] {
	case "bash":
		writeBashCompletion(a.stdout, cmds)
	case "zsh":
		writeZshCompletion(a.stdout, cmds)
	case "fish":
		writeFishCompletion(a.stdout, cmds)
	default:
		return usagef("completion: unknown shell %q; one of %s", args[0], strings.Join(completionShells, ", "))
	}
	return nil
}

// compFlag is one flag of a command, as its -h output describes it.
type compFlag struct {
	name  string
	usage string // the first line of its description
	value bool   // it takes a value
}

// compCmd is a command (or a subcommand) with its flags, its subcommands
// and the words its positional arguments may be.
type compCmd struct {
	name, summary string
	flags         []compFlag
	subs          []compCmd
	words         []string // positional values ("" files)
	files         bool     // positional arguments are paths
}

// completionModel describes lore's commands by asking each registered
// command for its help (-h), so the scripts follow the commands and cannot
// drift from them: a new command or flag appears without editing this file.
func completionModel() []compCmd {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []compCmd
	for _, name := range names {
		c := compCmd{name: name, summary: commands[name].summary}
		help := commandHelp(name)
		c.flags = parseHelpFlags(help)
		for _, sub := range parseHelpCommands(help) {
			sc := compCmd{name: sub.name, summary: sub.summary}
			sc.flags = mergeFlags(parseHelpFlags(commandHelp(name, sub.name)), c.flags)
			c.subs = append(c.subs, sc)
		}
		switch name {
		case "install":
			c.words = install.IDs()
		case "completion":
			c.words = completionShells
		case "index":
			c.files = true
		}
		out = append(out, c)
	}
	return out
}

// commandHelp runs lore's command with -h, in this process, and returns
// what it printed; the context is cancelled, so nothing can start.
func commandHelp(args ...string) string {
	cmd, ok := commands[args[0]]
	if !ok {
		return ""
	}
	var out bytes.Buffer
	a := &cli{stdout: &out, stderr: &out, stdin: strings.NewReader("")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = cmd.run(ctx, a, append(append([]string{}, args[1:]...), "-h"))
	if a.svc != nil {
		a.svc.Close()
	}
	return out.String()
}

var (
	// "  -name type" or "  -name\tusage", as flag.PrintDefaults writes.
	defaultsLine = regexp.MustCompile(`^  -([A-Za-z0-9][\w.-]*)(?: ([^\t ]+))?(?:\t(.*))?$`)
	// "--name" in a usage line.
	usageFlag = regexp.MustCompile(`--([a-z][a-z0-9-]*)( [A-Z]|\[?=| [a-z]+\|)?`)
	// "  name   description" in a Commands: list.
	commandLine = regexp.MustCompile(`^  ([a-z][a-z0-9-]*)\b\s*(.*)$`)
)

// parseHelpFlags reads the flags from a command's help: the lines
// flag.PrintDefaults writes, and the --flags of its Usage: line.
func parseHelpFlags(help string) []compFlag {
	var flags []compFlag
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(help))
	var last *compFlag
	for sc.Scan() {
		line := sc.Text()
		if m := defaultsLine.FindStringSubmatch(line); m != nil {
			f := compFlag{name: m[1], value: m[2] != "", usage: strings.TrimSpace(m[3])}
			last = nil
			if i := indexFlag(flags, f.name); i >= 0 {
				// The Usage: line named it first; the defaults know more.
				if flags[i].usage == "" {
					flags[i] = f
					last = &flags[i]
				}
			} else {
				flags = append(flags, f)
				last = &flags[len(flags)-1]
			}
			seen[f.name] = true
			continue
		}
		if last != nil && strings.HasPrefix(line, "    \t") {
			if last.usage == "" {
				last.usage = strings.TrimSpace(line)
			}
			continue
		}
		last = nil
		if strings.HasPrefix(line, "Usage:") {
			for _, m := range usageFlag.FindAllStringSubmatch(line, -1) {
				if !seen[m[1]] {
					seen[m[1]] = true
					flags = append(flags, compFlag{name: m[1], value: m[2] != ""})
				}
			}
		}
	}
	return flags
}

// parseHelpCommands reads the subcommands listed under "Commands:".
func parseHelpCommands(help string) []compCmd {
	var subs []compCmd
	in := false
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "Commands:":
			in = true
		case in && strings.TrimSpace(line) == "":
			if len(subs) > 0 {
				return subs
			}
		case in:
			if m := commandLine.FindStringSubmatch(line); m != nil {
				summary := strings.TrimSpace(m[2])
				// Drop the argument synopsis before the description.
				if i := strings.Index(summary, "  "); i >= 0 {
					summary = strings.TrimSpace(summary[i:])
				}
				subs = append(subs, compCmd{name: m[1], summary: summary})
			}
		}
	}
	return subs
}

// indexFlag is the index of the flag named name in flags, or -1.
func indexFlag(flags []compFlag, name string) int {
	for i, f := range flags {
		if f.name == name {
			return i
		}
	}
	return -1
}

// mergeFlags is a's flags, then those of b that a lacks.
func mergeFlags(a, b []compFlag) []compFlag {
	out := append([]compFlag{}, a...)
	for _, f := range b {
		if indexFlag(a, f.name) < 0 {
			out = append(out, f)
		}
	}
	return out
}

// flagNames lists flags as --name words.
func flagNames(flags []compFlag) string {
	names := make([]string, len(flags))
	for i, f := range flags {
		names[i] = "--" + f.name
	}
	return strings.Join(names, " ")
}

// valueFlags lists every flag that takes a value, as --name words.
func valueFlags(cmds []compCmd) []string {
	set := map[string]bool{"--index": true}
	var walk func([]compCmd)
	walk = func(cs []compCmd) {
		for _, c := range cs {
			for _, f := range c.flags {
				if f.value {
					set["--"+f.name] = true
				}
			}
			walk(c.subs)
		}
	}
	walk(cmds)
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func commandNames(cmds []compCmd) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return strings.Join(names, " ")
}

func writeBashCompletion(w io.Writer, cmds []compCmd) {
	values := strings.Join(valueFlags(cmds), "|")
	fmt.Fprintf(w, `# bash completion for lore (lore completion bash)
_lore() {
    local cur prev cmd="" sub="" i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            %s) ((i++)) ;;
            -*) ;;
            *) if [[ -z $cmd ]]; then cmd="${COMP_WORDS[i]}"; elif [[ -z $sub ]]; then sub="${COMP_WORDS[i]}"; fi ;;
        esac
    done
    case "$prev" in
        %s) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    local flags="" words="" files=""
    case "$cmd" in
        "") COMPREPLY=($(compgen -W "%s --index --version --help" -- "$cur")); return ;;
`, values, values, commandNames(cmds))
	for _, c := range cmds {
		fmt.Fprintf(w, "        %s)\n", c.name)
		if len(c.subs) > 0 {
			fmt.Fprintf(w, "            case \"$sub\" in\n                \"\") words=%q ;;\n", commandNames(c.subs))
			for _, s := range c.subs {
				fmt.Fprintf(w, "                %s) flags=%q ;;\n", s.name, flagNames(s.flags))
			}
			fmt.Fprintf(w, "                *) flags=%q ;;\n            esac ;;\n", flagNames(c.flags))
			continue
		}
		fmt.Fprintf(w, "            flags=%q; words=%q", flagNames(c.flags), strings.Join(c.words, " "))
		if c.files {
			fmt.Fprint(w, "; files=1")
		}
		fmt.Fprint(w, " ;;\n")
	}
	fmt.Fprint(w, `    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ -n $words ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    elif [[ -n $files ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _lore lore
`)
}

// zshQuote escapes s for a zsh _arguments or _describe spec in single quotes.
func zshQuote(s string) string {
	r := strings.NewReplacer(`'`, `'\''`, `[`, `\[`, `]`, `\]`, `:`, `\:`)
	return r.Replace(s)
}

func zshDescribe(w io.Writer, indent, tag string, cmds []compCmd) {
	fmt.Fprintf(w, "%slocal -a items=(", indent)
	for _, c := range cmds {
		fmt.Fprintf(w, "\n%s    '%s:%s'", indent, c.name, zshQuote(c.summary))
	}
	fmt.Fprintf(w, "\n%s)\n%s_describe -t %s %s items\n", indent, indent, tag, tag)
}

// zshArguments completes c's flags and arguments; first is the index of
// c's name in words, which becomes the first word, so that _arguments sees
// c as the command.
func zshArguments(w io.Writer, indent, first string, c compCmd) {
	fmt.Fprintf(w, "%swords=(\"${(@)words[%s,-1]}\"); (( CURRENT -= %s - 1 ))\n", indent, first, first)
	fmt.Fprintf(w, "%s_arguments", indent)
	for _, f := range c.flags {
		spec := "'--" + f.name + "[" + zshQuote(f.usage) + "]"
		if f.value {
			spec += ":" + f.name + ":_files"
		}
		fmt.Fprintf(w, " \\\n%s    %s'", indent, spec)
	}
	switch {
	case len(c.words) > 0:
		fmt.Fprintf(w, " \\\n%s    '*:value:(%s)'", indent, strings.Join(c.words, " "))
	default:
		fmt.Fprintf(w, " \\\n%s    '*:argument:_files'", indent)
	}
	fmt.Fprintln(w)
}

func writeZshCompletion(w io.Writer, cmds []compCmd) {
	fmt.Fprint(w, `#compdef lore
# zsh completion for lore (lore completion zsh)
_lore() {
    local -i base=2
    while [[ ${words[base]} == (--index|-index) ]]; do (( base += 2 )); done
    if (( CURRENT == base )); then
        if [[ $PREFIX == -* ]]; then
            compadd -- --index --version --help
            return
        fi
`)
	zshDescribe(w, "        ", "commands", cmds)
	fmt.Fprint(w, "        return\n    fi\n    case ${words[base]} in\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "        %s)\n", c.name)
		if len(c.subs) > 0 {
			fmt.Fprint(w, "            if (( CURRENT == base + 1 )); then\n")
			zshDescribe(w, "                ", "subcommands", c.subs)
			fmt.Fprint(w, "                return\n            fi\n            case ${words[base+1]} in\n")
			for _, s := range c.subs {
				fmt.Fprintf(w, "                %s)\n", s.name)
				zshArguments(w, "                    ", "base+1", s)
				fmt.Fprint(w, "                    ;;\n")
			}
			fmt.Fprint(w, "            esac\n            ;;\n")
			continue
		}
		zshArguments(w, "            ", "base", c)
		fmt.Fprint(w, "            ;;\n")
	}
	fmt.Fprint(w, `    esac
}
# Autoloaded from $fpath, the file is the function's body; sourced, it
# registers the function.
if [[ $funcstack[1] == _lore ]]; then
    _lore "$@"
else
    compdef _lore lore
fi
`)
}

// fishQuote quotes s for fish in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func writeFishCompletion(w io.Writer, cmds []compCmd) {
	fmt.Fprint(w, `# fish completion for lore (lore completion fish)
function __lore_args
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case --index -index
                set skip 1
            case '-*'
            case '*'
                echo $w
        end
    end
end
function __lore_at
    set -l a (__lore_args)
    test (count $a) -ge (count $argv); or return 1
    for i in (seq (count $argv))
        test "$a[$i]" = "$argv[$i]"; or return 1
    end
end
function __lore_only
    set -l a (__lore_args)
    test (count $a) -eq (count $argv); and __lore_at $argv
end
complete -c lore -f
complete -c lore -n 'test (count (__lore_args)) -eq 0' -l index -r -F -d 'the index file'
complete -c lore -n 'test (count (__lore_args)) -eq 0' -l version -d 'print the version'
`)
	flagLines := func(cond string, flags []compFlag) {
		for _, f := range flags {
			extra := ""
			if f.value {
				extra = " -r -F"
			}
			fmt.Fprintf(w, "complete -c lore -n %s -l %s%s -d %s\n", fishQuote(cond), f.name, extra, fishQuote(f.usage))
		}
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c lore -n 'test (count (__lore_args)) -eq 0' -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		if len(c.subs) > 0 {
			for _, s := range c.subs {
				fmt.Fprintf(w, "complete -c lore -n %s -a %s -d %s\n", fishQuote("__lore_only "+c.name), s.name, fishQuote(s.summary))
				flagLines("__lore_at "+c.name+" "+s.name, s.flags)
			}
			continue
		}
		flagLines("__lore_at "+c.name, c.flags)
		if len(c.words) > 0 {
			fmt.Fprintf(w, "complete -c lore -n %s -a %s\n", fishQuote("__lore_at "+c.name), fishQuote(strings.Join(c.words, " ")))
		}
		if c.files {
			fmt.Fprintf(w, "complete -c lore -n %s -F\n", fishQuote("__lore_at "+c.name))
		}
	}
}
