package index

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// gitCommit returns the commit HEAD points at in root's git repository, or
// "" when root is not in one. It reads .git directly rather than running
// git, which may not be installed.
func gitCommit(root string) string {
	gitDir := findGitDir(root)
	if gitDir == "" {
		return ""
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref := strings.TrimSpace(string(head))
	if !strings.HasPrefix(ref, "ref: ") {
		return ref // detached HEAD
	}
	ref = strings.TrimPrefix(ref, "ref: ")
	commonDir := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		commonDir = filepath.Join(gitDir, strings.TrimSpace(string(b)))
	}
	for _, dir := range []string{gitDir, commonDir} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref))); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	return packedRef(filepath.Join(commonDir, "packed-refs"), ref)
}

// findGitDir walks up from dir to the nearest .git folder (or the folder a
// .git file points to, for worktrees and submodules).
func findGitDir(dir string) string {
	for {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p
			}
			if b, err := os.ReadFile(p); err == nil {
				line := strings.TrimSpace(string(b))
				if target, ok := strings.CutPrefix(line, "gitdir: "); ok {
					if !filepath.IsAbs(target) {
						target = filepath.Join(dir, target)
					}
					return target
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func packedRef(file, ref string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sha, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref {
			return sha
		}
	}
	return ""
}
