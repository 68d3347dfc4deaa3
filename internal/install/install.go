// Package install writes lore's MCP server entry into AI agents' own
// configuration files, and takes it out again.
//
// Each agent's file is edited in its own format (JSON with or without
// comments, TOML, Markdown for instructions) by a textual edit of lore's
// part only: other servers, comments and formatting stay byte for byte. An
// edit that changes nothing writes nothing; a file lore changes is first
// copied beside itself (<file>.lore-backup); a malformed file is refused,
// never overwritten. Uninstalling removes exactly what installing added.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// BackupSuffix is added to a file's name for the copy lore keeps of it
// before changing it: the file as it was before lore's last change.
const BackupSuffix = ".lore-backup"

// Options says what lore install does.
type Options struct {
	Clients      []*Client
	Server       Server // what the entry runs
	Root         string // the served folder: no file inside it is written
	Uninstall    bool   // remove lore's entries (and instruction blocks)
	Instructions bool   // also keep lore's block in the agents' instructions files
	DryRun       bool   // print what would change, as unified diffs; write nothing
	Env          *Env
	Out          io.Writer // one line per client and file, or the diffs
}

// change is one planned edit of one file, or one command to run.
type change struct {
	client   *Client
	path     string // the file, symlinks resolved
	shown    string // the path as the client names it
	old      []byte // nil: the file does not exist
	new      []byte
	del      bool       // remove the file (it held nothing but lore's part)
	commands [][]string // run these instead of editing path
	note     string     // what happened, for the report
}

// Run plans every client's changes, then, unless one failed or DryRun is
// set, makes them. Nothing is written when any file cannot be planned.
func Run(opts Options) error {
	if opts.Env == nil {
		env, err := DefaultEnv()
		if err != nil {
			return err
		}
		opts.Env = env
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if !filepath.IsAbs(opts.Server.Command) || !filepath.IsAbs(opts.Root) {
		return errors.New("install: the lore binary and the root must be absolute paths")
	}
	var changes []change
	var errs []error
	for _, c := range opts.Clients {
		cs, err := plan(opts, c)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.ID, err))
			continue
		}
		changes = append(changes, cs...)
	}
	if len(errs) > 0 {
		return fmt.Errorf("nothing was changed: %w", errors.Join(errs...))
	}
	for i := range changes {
		if !opts.DryRun {
			if err := apply(opts.Env, &changes[i]); err != nil {
				return fmt.Errorf("%s: %w", changes[i].client.ID, err)
			}
		}
		report(opts.Out, &changes[i], opts.DryRun)
	}
	return nil
}

// plan works out one client's changes.
func plan(opts Options, c *Client) ([]change, error) {
	ed := c.editor(opts.Env, opts.Server)
	var out []change
	cfg := c.Config(opts.Env)
	useCLI := false
	if c.CLI != "" && opts.Env.LookPath != nil && opts.Env.Run != nil {
		_, err := opts.Env.LookPath(c.CLI)
		useCLI = err == nil
	}
	var ch change
	var err error
	if useCLI {
		ch, err = planCLI(opts, c, ed, cfg)
	} else {
		ch, err = planFile(opts, c, ed, cfg)
	}
	if err != nil {
		return nil, err
	}
	out = append(out, ch)
	if opts.Instructions {
		if c.Instructions == nil {
			out = append(out, change{client: c, note: "has no global instructions file lore knows; --instructions does nothing for it"})
		} else {
			ch, err := planFile(opts, c, &markdownEditor{body: instructionsText}, c.Instructions(opts.Env))
			if err != nil {
				return nil, err
			}
			out = append(out, ch)
		}
	}
	return out, nil
}

// planCLI plans the client's own command (claude mcp add --scope user)
// instead of a file edit, when the entry has to change.
func planCLI(opts Options, c *Client, ed editor, cfg string) (change, error) {
	ch := change{client: c, shown: cfg, path: cfg}
	src, err := os.ReadFile(cfg)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ch, err
	}
	has, err := ed.has(cfg, src)
	if err != nil {
		return ch, err
	}
	remove := []string{c.CLI, "mcp", "remove", "--scope", "user", "lore"}
	switch {
	case opts.Uninstall && !has:
		ch.note = "no lore entry in " + cfg
	case opts.Uninstall:
		ch.commands = [][]string{remove}
	default:
		want, err := ed.install(cfg, src)
		if err != nil {
			return ch, err
		}
		if has && bytes.Equal(want, src) {
			ch.note = "lore is already set up in " + cfg
			return ch, nil
		}
		add := append([]string{c.CLI, "mcp", "add", "--scope", "user", "lore", "--", opts.Server.Command}, opts.Server.Args...)
		if has {
			// claude mcp add refuses a name that exists: replace it.
			ch.commands = append(ch.commands, remove)
		}
		ch.commands = append(ch.commands, add)
	}
	return ch, nil
}

// planFile plans the edit of one file.
func planFile(opts Options, c *Client, ed editor, shown string) (change, error) {
	ch := change{client: c, shown: shown}
	path, err := resolve(shown)
	if err != nil {
		return ch, err
	}
	ch.path = path
	if inside(opts.Root, path) || inside(opts.Root, shown) {
		return ch, fmt.Errorf("refusing to write %s: it is inside the served folder %s, and lore never writes into a repository it serves (run lore install from the repository, or give --root)", shown, opts.Root)
	}
	src, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src = nil
	case err != nil:
		return ch, err
	default:
		ch.old = src
	}
	if opts.Uninstall {
		if src == nil {
			ch.note = "nothing to remove: " + shown + " does not exist"
			return ch, nil
		}
		keep, err := os.ReadFile(path + BackupSuffix)
		if err != nil {
			keep = nil
		}
		out, del, err := ed.uninstall(shown, src, keep)
		if err != nil {
			return ch, err
		}
		if bytes.Equal(out, src) && !del {
			ch.note = "nothing to remove: no lore entry in " + shown
			return ch, nil
		}
		// When the file is exactly lore's edit of the backup but for
		// layout, the backup is the file lore found: put it back as it was.
		if keep != nil && (ed.canonical(keep) == ed.canonical(out) || (del && len(bytes.TrimSpace(keep)) == 0)) {
			out, del = keep, false
		}
		ch.new, ch.del = out, del
		if del {
			ch.new = nil
		}
		return ch, nil
	}
	out, err := ed.install(shown, src)
	if err != nil {
		return ch, err
	}
	if src != nil && bytes.Equal(out, src) {
		ch.note = "lore is already set up in " + shown
		return ch, nil
	}
	ch.new = out
	return ch, nil
}

// resolve follows path's symlinks (a dotfiles manager's link is edited
// where it points); a path that does not exist yet is kept.
func resolve(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		return real, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if target, lerr := os.Readlink(path); lerr == nil {
			// A dangling link: write where it points.
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(path), target)
			}
			return target, nil
		}
		return path, nil
	}
	return "", err
}

// inside reports whether path is root or lies under it.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// apply makes one change.
func apply(env *Env, ch *change) error {
	switch {
	case ch.commands != nil:
		for _, cmd := range ch.commands {
			if out, err := env.Run(cmd[0], cmd[1:]...); err != nil {
				return fmt.Errorf("%s: %v: %s", strings.Join(cmd, " "), err, bytes.TrimSpace(out))
			}
		}
		return nil
	case ch.note != "":
		return nil
	}
	if ch.del {
		// The file held nothing but lore's part: no backup to keep, and
		// the folders install made for it go too when they are empty.
		if err := os.Remove(ch.path); err != nil {
			return err
		}
		for dir := filepath.Dir(ch.path); inside(env.Home, dir) && dir != env.Home; dir = filepath.Dir(dir) {
			if os.Remove(dir) != nil {
				break
			}
		}
		return nil
	}
	mode := fs.FileMode(0o644)
	if ch.old != nil {
		if info, err := os.Stat(ch.path); err == nil {
			mode = info.Mode().Perm()
		}
		if err := writeFile(ch.path+BackupSuffix, ch.old, mode); err != nil {
			return fmt.Errorf("backing up %s: %w", ch.shown, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(ch.path), 0o755); err != nil {
		return err
	}
	return writeFile(ch.path, ch.new, mode)
}

// writeFile writes data to path through a temporary file in the same
// folder and a rename, so a crash leaves the old file or the new one.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".lore-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// report prints what was (or, dry, would be) done for one change.
func report(w io.Writer, ch *change, dry bool) {
	id := ch.client.ID
	switch {
	case ch.note != "":
		fmt.Fprintf(w, "%s: %s\n", id, ch.note)
	case ch.commands != nil:
		verb := "ran"
		if dry {
			verb = "would run"
		}
		for _, cmd := range ch.commands {
			fmt.Fprintf(w, "%s: %s: %s\n", id, verb, strings.Join(cmd, " "))
		}
	case dry:
		from, to := ch.shown, ch.shown
		if ch.old == nil {
			from = "/dev/null"
		}
		if ch.del {
			to = "/dev/null"
		}
		fmt.Fprintf(w, "%s: %s\n%s", id, ch.shown, unifiedDiff(from, to, ch.old, ch.new))
	case ch.del:
		fmt.Fprintf(w, "%s: removed %s (it held nothing but lore's part)\n", id, ch.shown)
	case ch.old == nil:
		fmt.Fprintf(w, "%s: created %s\n", id, ch.shown)
	default:
		fmt.Fprintf(w, "%s: updated %s (the previous version is in %s%s)\n", id, ch.shown, ch.shown, BackupSuffix)
	}
}
