#!/usr/bin/env python3
"""A plain BM25 baseline over fixed line windows, drivable by eval.py.

No ranking stack, no model: every text file under the root is cut into
windows of WINDOW lines ($BM25_WINDOW, default 50; each window also carries its file's path as text),
identifiers are split at camelCase and snake_case boundaries, and windows
are ranked by Okapi BM25 (k1=1.2, b=0.75). It is a floor for this set, in
the spirit of the "plain BM25 over chunks" figure published for the shared
set; it is not that implementation, so compare its figures with each other
and with lore on the same repositories only.

  bm25.py index DIR
  bm25.py search --root DIR [--limit 10] QUERY...

  eval.py --index-cmd "python3 bench/bm25.py index {dir}" \\
          --search-cmd "python3 bench/bm25.py search --root {dir} {query}" ...

The index is a pickle under $BM25_CACHE_DIR (default: a bm25 folder in the
system temp dir), keyed by the root's absolute path.
"""
import argparse, collections, hashlib, json, math, os, pickle, re, sys, tempfile, time

WINDOW = int(os.environ.get("BM25_WINDOW", "50"))
MAX_BYTES = 1 << 20
K1, B = 1.2, 0.75
STOP = set("a an and are as at be by for from how in is it of on or the this to what when where which with".split())
WORD = re.compile(r"[A-Za-z0-9]+")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokens(text):
    out = []
    for w in WORD.findall(text):
        low = w.lower()
        parts = [p.lower() for p in CAMEL.findall(w)]
        if low not in STOP:
            out.append(low)
        if len(parts) > 1:
            out.extend(p for p in parts if p not in STOP)
    return out


def cache_file(root):
    base = os.environ.get("BM25_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "bm25")
    os.makedirs(base, exist_ok=True)
    return os.path.join(base, hashlib.sha1(f"{os.path.abspath(root)}:{WINDOW}".encode()).hexdigest() + ".pickle")


def index(root):
    root = os.path.abspath(root)
    chunks, postings, lengths = [], collections.defaultdict(list), []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "node_modules")
        for fn in sorted(filenames):
            if fn.startswith("."):
                continue
            full = os.path.join(dirpath, fn)
            try:
                if os.path.getsize(full) > MAX_BYTES:
                    continue
                data = open(full, "rb").read()
            except OSError:
                continue
            if b"\0" in data[:8192]:
                continue
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            lines = data.decode("utf-8", errors="replace").split("\n")
            path_toks = tokens(rel)
            for start in range(0, max(len(lines), 1), WINDOW):
                body = "\n".join(lines[start:start + WINDOW])
                if not body.strip():
                    continue
                tf = collections.Counter(path_toks + tokens(body))
                cid = len(chunks)
                chunks.append((rel, start + 1, min(start + WINDOW, len(lines))))
                lengths.append(sum(tf.values()))
                for t, n in tf.items():
                    postings[t].append((cid, n))
    with open(cache_file(root), "wb") as f:
        pickle.dump({"chunks": chunks, "postings": dict(postings), "lengths": lengths}, f)
    print(f"indexed {len(chunks)} windows", file=sys.stderr)


def search(root, query, limit):
    t0 = time.perf_counter()
    with open(cache_file(root), "rb") as f:
        ix = pickle.load(f)
    t1 = time.perf_counter()
    n = len(ix["chunks"])
    avg = sum(ix["lengths"]) / max(n, 1)
    scores = collections.defaultdict(float)
    for t in set(tokens(query)):
        post = ix["postings"].get(t)
        if not post:
            continue
        idf = math.log(1 + (n - len(post) + 0.5) / (len(post) + 0.5))
        for cid, tf in post:
            dl = ix["lengths"][cid]
            scores[cid] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avg))
    top = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    results = [{"path": ix["chunks"][c][0], "start_line": ix["chunks"][c][1],
                "end_line": ix["chunks"][c][2], "score": round(s, 4)} for c, s in top]
    took = (time.perf_counter() - t1) * 1000
    print(json.dumps({"results": results, "took_ms": took, "load_ms": (t1 - t0) * 1000}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("index")
    p.add_argument("dir")
    p = sub.add_parser("search")
    p.add_argument("--root", required=True)
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("query", nargs="+")
    a = ap.parse_args()
    if a.cmd == "index":
        index(a.dir)
    else:
        search(a.root, " ".join(a.query), a.limit)


if __name__ == "__main__":
    main()
