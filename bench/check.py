#!/usr/bin/env python3
"""Validate the second development set: repos.json and annotations/*.json.

Checks, for every repository of repos.json:
  - it has an annotation file with at least --min-queries queries;
  - every query has a known category, a non-empty "relevant" list and a
    "secondary" list, and names each file at most once (a result is counted
    once however many targets it covers, so two targets in one file would
    cap the query below 1);
  - every annotated path exists at the pinned revision (read from the
    repository's bare git mirror, so no checkout is needed) and lies under
    benchmark_root when one is set;
  - every line span has 1 <= start_line <= end_line <= the file's line count.
With --checkouts it also checks that each path exists in the plain checkout
(what eval.py reads), which catches paths a checkout method dropped.

Finally it lists the languages lore parses that the annotated files cover,
and fails when one of the 18 is missing (unless --no-coverage).

  check.py [--mirrors /work/.mirror] [--checkouts ~/bench2] [--bench DIR] [--no-coverage]

A mirror is <MIRRORS>/<owner>+<name>/repo, as the fetch tool writes it.
"""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
CATEGORIES = {"semantic", "architecture", "symbol"}
PARSED = ["bash", "c", "cpp", "csharp", "elixir", "go", "java", "javascript", "kotlin", "lua",
          "php", "python", "ruby", "rust", "scala", "swift", "tsx", "typescript"]
# Extension -> language, the subset of lore's table needed to report coverage.
EXT = {
    ".sh": "bash", ".bash": "bash", ".bats": "bash", ".zsh": "bash",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp",
    ".cs": "csharp", ".ex": "elixir", ".exs": "elixir", ".go": "go", ".java": "java",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".kt": "kotlin", ".kts": "kotlin", ".lua": "lua", ".php": "php", ".py": "python",
    ".rb": "ruby", ".rs": "rust", ".scala": "scala", ".sc": "scala", ".swift": "swift",
    ".tsx": "tsx", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".md": "markdown", ".mdx": "markdown", ".rst": "rst",
}
SHEBANG = {"sh": "bash", "bash": "bash", "zsh": "bash", "python": "python", "python3": "python",
           "node": "javascript", "ruby": "ruby"}


def git(gitdir, *args, input=None):
    p = subprocess.run(["git", f"--git-dir={gitdir}", *args], input=input,
                       capture_output=True)
    return p.returncode, p.stdout


def language(path, head):
    ext = os.path.splitext(path)[1].lower()
    if ext in EXT:
        return EXT[ext]
    if head.startswith(b"#!"):
        words = head[2:].split(b"\n", 1)[0].decode(errors="replace").split()
        if words and words[0].endswith("/env") and len(words) > 1:
            words = words[1:]
        if words:
            return SHEBANG.get(os.path.basename(words[0]))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=HERE, help="folder holding repos.json and annotations/")
    ap.add_argument("--mirrors", default="/work/.mirror", help="folder of <owner>+<name>/repo bare mirrors")
    ap.add_argument("--checkouts", help="also check the plain checkouts under this folder")
    ap.add_argument("--min-queries", type=int, default=15)
    ap.add_argument("--no-coverage", action="store_true",
                    help="do not require every parsed language (a set in another style, like topics/)")
    a = ap.parse_args()

    repos = json.load(open(os.path.join(a.bench, "repos.json")))
    ann_dir = os.path.join(a.bench, "annotations")
    errors, covered = [], {}
    names = [r["name"] for r in repos]
    if len(set(names)) != len(names):
        errors.append("repos.json: duplicate names")
    for extra in sorted(set(f[:-5] for f in os.listdir(ann_dir) if f.endswith(".json")) - set(names)):
        errors.append(f"annotations/{extra}.json: no entry in repos.json")

    total = 0
    for r in repos:
        name = r["name"]
        for key in ("name", "language", "url", "revision"):
            if not r.get(key):
                errors.append(f"{name}: repos.json entry lacks {key}")
        owner_name = r["url"].removeprefix("https://github.com/").removesuffix(".git")
        gitdir = os.path.join(a.mirrors, owner_name.replace("/", "+"), "repo")
        rev = r["revision"]
        sub = (r.get("benchmark_root") or "").strip("/")
        path = os.path.join(ann_dir, name + ".json")
        if not os.path.exists(path):
            errors.append(f"{name}: no annotations/{name}.json")
            continue
        queries = json.load(open(path))
        total += len(queries)
        if len(queries) < a.min_queries:
            errors.append(f"{name}: {len(queries)} queries, fewer than {a.min_queries}")
        have_git = os.path.isdir(gitdir) and git(gitdir, "cat-file", "-e", rev + "^{commit}")[0] == 0
        if not have_git:
            print(f"warning: {name}: no mirror with {rev[:12]} at {gitdir}; checking checkouts only",
                  file=sys.stderr)
        blobs = {}

        def blob(p):
            if p not in blobs:
                rc, out = git(gitdir, "cat-file", "blob", f"{rev}:{p}") if have_git else (1, b"")
                blobs[p] = out if rc == 0 else None
            return blobs[p]

        seen_q = set()
        for i, q in enumerate(queries):
            where = f"{name}[{i}] {q.get('query', '')!r}"
            if not q.get("query"):
                errors.append(f"{where}: empty query")
            if q["query"] in seen_q:
                errors.append(f"{where}: duplicate query")
            seen_q.add(q["query"])
            if q.get("category") not in CATEGORIES:
                errors.append(f"{where}: category {q.get('category')!r} not in {sorted(CATEGORIES)}")
            if not q.get("relevant"):
                errors.append(f"{where}: no relevant target")
            if "secondary" not in q:
                errors.append(f"{where}: no secondary list")
            targets = list(q.get("relevant", [])) + list(q.get("secondary", []))
            paths = [t if isinstance(t, str) else t.get("path", "") for t in targets]
            if len(set(paths)) != len(paths):
                # One target per file: eval.py counts a result once however many
                # targets it covers, while the ideal ranking counts each target.
                errors.append(f"{where}: a file is listed twice (merge its spans or keep one)")
            for t in targets:
                p = t if isinstance(t, str) else t.get("path", "")
                if sub and not (p + "/").startswith(sub + "/"):
                    errors.append(f"{where}: {p} is outside benchmark_root {sub}")
                content = blob(p) if have_git else None
                if have_git and content is None:
                    errors.append(f"{where}: {p} does not exist at {rev[:12]}")
                if a.checkouts:
                    fp = os.path.join(a.checkouts, name, p)
                    if not os.path.isfile(fp):
                        errors.append(f"{where}: {p} missing from checkout {fp}")
                    elif content is None:
                        content = open(fp, "rb").read()
                if content is not None:
                    lang = language(p, content[:200])
                    if lang:
                        covered.setdefault(lang, set()).add(name)
                if isinstance(t, dict):
                    s, e = t.get("start_line"), t.get("end_line")
                    if not (isinstance(s, int) and isinstance(e, int) and 1 <= s <= e):
                        errors.append(f"{where}: bad span {t}")
                    elif content is not None:
                        n = content.count(b"\n") + (0 if content.endswith(b"\n") or not content else 1)
                        if e > n:
                            errors.append(f"{where}: span {s}-{e} beyond the {n} lines of {p}")

    print(f"{len(repos)} repositories, {total} queries")
    for lang in PARSED + sorted(set(covered) - set(PARSED)):
        print(f"  {lang:<11} {', '.join(sorted(covered.get(lang, []))) or '-'}")
    missing = [lang for lang in PARSED if lang not in covered]
    if missing and not a.no_coverage:
        errors.append("no annotated file in: " + ", ".join(missing))
    for e in errors:
        print("ERROR " + e, file=sys.stderr)
    if errors:
        sys.exit(f"{len(errors)} problem(s)")
    print("ok")


if __name__ == "__main__":
    main()
