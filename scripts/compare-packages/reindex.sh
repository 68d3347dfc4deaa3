#!/usr/bin/env bash
# Times a re-index with nothing changed: lore index ROOT, N times, after one
# warm-up run, printing each run's duration_ms, packages_ms and specs_ms
# and the medians, with the load average (the machines this runs on are
# often shared).
#
#   scripts/compare-packages/reindex.sh LORE_BINARY INDEX_FILE ROOT [N]
set -euo pipefail
lore=$1 index=$2 root=$3 n=${4:-7}
"$lore" --index "$index" index --quiet --format json "$root" >/dev/null
for i in $(seq "$n"); do
  "$lore" --index "$index" index --quiet --format json "$root"
done | python3 -c '
import json, statistics, sys, os
dec = json.JSONDecoder()
text = sys.stdin.read()
runs, pos = [], 0
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    obj, pos = dec.raw_decode(text, pos)
    runs.append(obj)
d = [r["duration_ms"] for r in runs]
p = [r.get("packages_ms", -1) for r in runs]
s = [r.get("specs_ms", -1) for r in runs]
print("runs        ", len(runs))
print("duration_ms ", d, "median", statistics.median(d))
print("packages_ms ", p, "median", statistics.median(p))
print("specs_ms    ", s, "median", statistics.median(s))
print("packages    ", runs[-1]["packages"], "manifests_read", runs[-1].get("manifests_read", "n/a"))
print("load average", " ".join(open("/proc/loadavg").read().split()[:3]))
'
