#!/usr/bin/env python3
"""Compare lore's packages and specs with reference tools on real repositories.

For each repository, the packages of one ecosystem as a reference tool sees
them are compared with what lore indexes: the packages (by folder), the
internal dependency edges (from folder -> to folder, with the dependency
kind where the tool gives one), the external dependencies (from folder,
name, kind) and a dependency graph of depth 3 from one package. OpenSpec's
own repository is compared with the OpenSpec CLI: specs, requirements,
scenarios, clause texts and change deltas.

References (see README.md beside this file):
  cargo   `cargo metadata --format-version 1 --no-deps --offline`, with the
          workspace root's [patch] paths applied as cargo's resolver does
  go      `go mod edit -json` on every go.mod
  pnpm    `pnpm ls -r --json --depth -1` (projects) and the importers of
          pnpm-lock.yaml, which pnpm writes (workspace links are `link:`)
  python  uv.lock, which uv writes: [manifest] members, each member's
          [package.metadata] requires-dist and requires-dev
  maven   an independent reader of <modules> (the default reactor) and
          <dependencies>, written here: Maven cannot resolve apache/maven's
          parent pom offline
  gradle  an independent reader of settings includes (and ktor's own
          `+"name"` DSL) and of the dependency notations of build scripts,
          written here: Gradle is not installed and cannot be downloaded
  openspec  the OpenSpec CLI (`npx @fission-ai/openspec`): `list --specs
          --json`, `show <id> --json`, `list --json`, `show <change>
          --type change --json --deltas-only`

Usage:
  compare.py --lore BIN [--repos DIR] [--work DIR] [--openspec CMD]
             [--pnpm CMD] [--cache DIR] [--markdown FILE] [repo ...]

Repositories are checked out as DIR/<name> (default /root/monorepos); a
repository that is missing is skipped. lore's indexes go to --work.
Exit status 0 even when counts differ: the report is the product.
"""

import argparse
import collections
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import tomllib
import xml.etree.ElementTree as ET

try:
    import yaml  # PyYAML, for pnpm-lock.yaml
except ImportError:  # pragma: no cover
    yaml = None

# Which ecosystems to compare in which repository, and the package to draw a
# depth-3 graph from (by the reference's name for it).
REPOS = {
    "tokio": [("cargo", "tokio")],
    "bevy": [("cargo", "bevy")],
    "opentelemetry-go": [("go", "go.opentelemetry.io/otel/sdk/metric")],
    "vitest": [("pnpm", "vitest")],
    "trpc": [("pnpm", "@trpc/next")],
    "ktor": [("gradle", "ktor-client-cio")],
    "Exposed": [("gradle", "exposed-jdbc")],
    "maven": [("maven", "org.apache.maven:maven-core")],
    "uv": [("cargo", "uv"), ("python", "uv")],
    "pydantic": [("python", "pydantic")],
    "OpenSpec": [("openspec", None)],
}

KINDS = {
    "cargo": {"cargo"},
    "go": {"go"},
    "pnpm": {"npm"},
    "python": {"python"},
    "maven": {"maven"},
    "gradle": {"gradle"},
}

SKIP_DIRS = {".git", "node_modules", "vendor", "testdata", "target", "build", ".gradle"}


def run(cmd, cwd=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")
    return p.stdout


def rel(root, path):
    r = os.path.relpath(path, root).replace(os.sep, "/")
    return "." if r == "" else r


def pep503(name):
    return re.sub(r"[-_.]+", "-", name).lower()


class Ref:
    """One side of a comparison: packages by folder, edges, external deps."""

    def __init__(self, tool):
        self.tool = tool
        self.packages = {}  # folder -> name
        self.edges = set()  # (from folder, to folder, kind)
        self.external = set()  # (from folder, name, kind)


def bfs(edges, root, depth=3):
    """Edges reachable from root up to depth levels, each package expanded once
    (lore's dependency_graph rule)."""
    out = collections.defaultdict(set)
    for f, t, k in edges:
        out[f].add((f, t, k))
    seen, frontier, result = {root}, [root], set()
    for _ in range(depth):
        nxt = []
        for f in frontier:
            for e in out[f]:
                result.add(e)
                if e[1] not in seen:
                    seen.add(e[1])
                    nxt.append(e[1])
        frontier = nxt
    return result


# ---------------------------------------------------------------- lore

class Lore:
    def __init__(self, binary, work):
        self.binary, self.work = binary, work

    def index(self, name, root):
        idx = os.path.join(self.work, name + ".db")
        out = run([self.binary, "--index", idx, "index", "--quiet", "--format", "json", root])
        return idx, json.loads(out)

    def packages(self, idx, root):
        return json.loads(run([self.binary, "--index", idx, "packages", "list", "--root", root, "--format", "json"]))

    def graph(self, idx, root, name, path, depth=3):
        out = run([self.binary, "--index", idx, "packages", "graph", name, "--root", root, "--path", path,
                   "--depth", str(depth), "--format", "json"], check=False)
        try:
            return json.loads(out)
        except json.JSONDecodeError:
            return {"edges": []}


def lore_side(pkgs, kinds, kind_map, name_norm, drop_kinds=()):
    side = Ref("lore")
    roles = collections.Counter()
    for p in pkgs:
        if p["kind"] not in kinds:
            continue
        role = (p.get("metadata") or {}).get("role", "")
        roles[role] += 1
        side.packages[p["path"]] = (p["name"], role)
        deps = p.get("dependencies") or []
        declared = {d["name"] for d in deps if d["dep_kind"] != "peer"}
        for d in deps:
            if d["dep_kind"] in drop_kinds:
                continue
            if d["dep_kind"] == "peer" and d["name"] in declared:
                continue  # a peer also declared otherwise is installed as that
            k = kind_map(d["dep_kind"])
            if d.get("is_internal") and d.get("target"):
                side.edges.add((p["path"], d["target"]["path"], k))
            elif not d.get("is_internal"):
                side.external.add((p["path"], name_norm(d["name"]), k))
    return side, roles


# ---------------------------------------------------------------- references

def cargo_ref(root):
    if not os.path.exists(os.path.join(root, "Cargo.toml")):
        return None
    meta = json.loads(run(["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline",
                           "--manifest-path", os.path.join(root, "Cargo.toml")]))
    ref = Ref("cargo metadata")
    members = set(meta["workspace_members"])
    by_dir = {}
    for p in meta["packages"]:
        if p["id"] not in members:
            continue
        d = rel(root, os.path.dirname(p["manifest_path"]))
        ref.packages[d] = p["name"]
        by_dir[os.path.realpath(os.path.dirname(p["manifest_path"]))] = d
    # --no-deps lists dependencies as written; [patch.<registry>] entries
    # with a path in the workspace root are applied by cargo's resolver
    # (which needs the registry index, not available offline). Apply them
    # here as the resolver would: a registry dependency on a patched name
    # uses the patch's folder.
    with open(os.path.join(meta["workspace_root"], "Cargo.toml"), "rb") as fh:
        root_toml = tomllib.load(fh)
    patched = {}
    for entries in (root_toml.get("patch") or {}).values():
        for key, spec in entries.items():
            if isinstance(spec, dict) and spec.get("path"):
                patched[spec.get("package", key)] = os.path.realpath(os.path.join(meta["workspace_root"], spec["path"]))
    for p in meta["packages"]:
        if p["id"] not in members:
            continue
        frm = rel(root, os.path.dirname(p["manifest_path"]))
        for dep in p["dependencies"]:
            if not dep.get("path") and dep["name"] in patched and not (dep.get("source") or "").startswith("git+"):
                dep = dict(dep, path=patched[dep["name"]])
            kind = {None: "runtime", "dev": "dev", "build": "build"}[dep["kind"]]
            if kind == "runtime" and dep.get("optional"):
                kind = "optional"
            to = by_dir.get(os.path.realpath(dep["path"])) if dep.get("path") else None
            if to:
                ref.edges.add((frm, to, kind))
            else:
                ref.external.add((frm, dep["name"], kind))
    return ref


def find_files(root, name):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        if name in filenames:
            yield os.path.join(dirpath, name)


def go_ref(root):
    ref = Ref("go mod edit -json")
    mods = {}
    for f in sorted(find_files(root, "go.mod")):
        m = json.loads(run(["go", "mod", "edit", "-json", f]))
        mods[rel(root, os.path.dirname(f))] = m
    by_path = {m["Module"]["Path"]: d for d, m in mods.items()}
    for d, m in mods.items():
        ref.packages[d] = m["Module"]["Path"]
        for r in m.get("Require") or []:
            if r["Path"] in by_path:
                ref.edges.add((d, by_path[r["Path"]], ""))
            else:
                ref.external.add((d, r["Path"], ""))
    return ref


def pnpm_ref(root, pnpm):
    projects = json.loads(run(pnpm + ["ls", "-r", "--json", "--depth", "-1"], cwd=root))
    ref = Ref("pnpm ls -r + pnpm-lock.yaml")
    for p in projects:
        ref.packages[rel(root, p["path"])] = p.get("name") or os.path.basename(p["path"])
    with open(os.path.join(root, "pnpm-lock.yaml")) as fh:
        lock = yaml.safe_load(fh)
    for importer, spec in (lock.get("importers") or {}).items():
        frm = os.path.normpath(importer).replace(os.sep, "/")
        if frm not in ref.packages:
            continue
        for section, kind in (("dependencies", "runtime"), ("devDependencies", "dev"), ("optionalDependencies", "optional")):
            for name, d in (spec.get(section) or {}).items():
                version = d.get("version", "") if isinstance(d, dict) else str(d)
                if version.startswith("link:"):
                    # pnpm links the folder: a workspace project, or a
                    # package of the repository outside the workspace globs
                    # (a test's local dependency).
                    to = os.path.normpath(os.path.join(frm, version[len("link:"):])).replace(os.sep, "/")
                    if to in ref.packages or os.path.exists(os.path.join(root, to, "package.json")):
                        ref.edges.add((frm, to, kind))
                        continue
                if version.startswith("file:") and not version.endswith((".tgz", ".tar.gz")):
                    # pnpm copies the folder in (its path relative to the
                    # lock file): still a package of the repository.
                    to = os.path.normpath(version[len("file:"):]).replace(os.sep, "/")
                    if os.path.exists(os.path.join(root, to, "package.json")):
                        ref.edges.add((frm, to, kind))
                        continue
                ref.external.add((frm, name, kind))
    return ref


def uv_ref(root):
    path = os.path.join(root, "uv.lock")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as fh:
        lock = tomllib.load(fh)
    ref = Ref("uv.lock")
    members = {pep503(m) for m in (lock.get("manifest") or {}).get("members", [])}
    entries = {}
    for p in lock.get("package", []):
        src = p.get("source", {})
        local = src.get("editable") or src.get("virtual")
        if local is not None and (not members or pep503(p["name"]) in members):
            d = os.path.normpath(local).replace(os.sep, "/")
            entries[pep503(p["name"])] = (d, p)
            ref.packages[d] = p["name"]
    for name, (d, p) in entries.items():
        meta = p.get("metadata", {})
        for r in meta.get("requires-dist", []):
            kind = "optional" if "extra ==" in r.get("marker", "") else "runtime"
            add_python(ref, entries, d, r["name"], kind)
        for group in (meta.get("requires-dev") or {}).values():
            for r in group:
                add_python(ref, entries, d, r["name"], "dev")
    return ref


def add_python(ref, entries, frm, name, kind):
    key = pep503(name)
    if key in entries:
        ref.edges.add((frm, entries[key][0], kind))
    else:
        ref.external.add((frm, key, kind))


def local(tag):
    return tag.rsplit("}", 1)[-1]


def xml_children(node, name):
    return [c for c in node if local(c.tag) == name]


def xml_text(node, name):
    for c in node:
        if local(c.tag) == name:
            return (c.text or "").strip()
    return ""


def maven_ref(root):
    """An independent reader: the default reactor (modules, recursively, no
    profiles), coordinates inherited from the parent, ${project.*} and
    properties of the pom and its reactor parents, and dependency scopes."""
    ref = Ref("<modules> reader (not mvn)")
    poms = {}  # folder -> (element, parent folder)

    def load(folder, parent):
        f = os.path.join(root, folder, "pom.xml")
        if not os.path.exists(f) or folder in poms:
            return
        el = ET.parse(f).getroot()
        poms[folder] = (el, parent)
        for mods in xml_children(el, "modules"):
            for m in xml_children(mods, "module"):
                sub = os.path.normpath(os.path.join(folder, (m.text or "").strip())).replace(os.sep, "/")
                if sub.endswith(".xml"):
                    sub = os.path.dirname(sub)
                load(sub, folder)

    load(".", None)

    def chain(folder):
        out = []
        while folder is not None:
            out.append(poms[folder][0])
            folder = poms[folder][1]
        return out

    def props(folder):
        p = {}
        for el in reversed(chain(folder)):
            for ps in xml_children(el, "properties"):
                for c in ps:
                    p[local(c.tag)] = (c.text or "").strip()
        return p

    def coords(folder):
        el = poms[folder][0]
        parent = next(iter(xml_children(el, "parent")), None)
        group = xml_text(el, "groupId") or (xml_text(parent, "groupId") if parent is not None else "")
        version = xml_text(el, "version") or (xml_text(parent, "version") if parent is not None else "")
        return group, xml_text(el, "artifactId"), version

    def expand(s, folder):
        g, a, v = coords(folder)
        p = props(folder)
        p.update({"project.groupId": g, "project.artifactId": a, "project.version": v,
                  "pom.groupId": g, "pom.version": v})
        for _ in range(5):
            s2 = re.sub(r"\$\{([^}]+)\}", lambda m: p.get(m.group(1), m.group(0)), s)
            if s2 == s:
                break
            s = s2
        return s

    by_coord = {}
    for folder in poms:
        g, a, _ = coords(folder)
        name = expand(g, folder) + ":" + expand(a, folder)
        ref.packages[folder] = name
        by_coord[name] = folder
    for folder, (el, _) in poms.items():
        for deps in xml_children(el, "dependencies"):
            for d in xml_children(deps, "dependency"):
                name = expand(xml_text(d, "groupId"), folder) + ":" + expand(xml_text(d, "artifactId"), folder)
                scope = xml_text(d, "scope")
                kind = {"test": "dev", "provided": "build", "system": "build"}.get(scope, "runtime")
                if kind == "runtime" and xml_text(d, "optional") == "true":
                    kind = "optional"
                if name in by_coord:
                    ref.edges.add((folder, by_coord[name], kind))
                else:
                    ref.external.add((folder, name, kind))
    return ref


def gradle_ref(root):
    """An independent reader of a Gradle build: settings include(...) and
    include '...' (ktor's `+"name"` DSL too), project(...).projectDir, and in
    each build script the project(":x"), projects.x and libs.x notations and
    "group:artifact:version" strings. Edges are compared without kinds."""
    ref = Ref("settings/build reader (not Gradle)")
    settings = ""
    for name in ("settings.gradle.kts", "settings.gradle"):
        f = os.path.join(root, name)
        if os.path.exists(f):
            settings = open(f).read()
            break
    settings = re.sub(r"(?s)/\*.*?\*/", "", re.sub(r"(?m)//.*$", "", settings))
    projects = {}  # project path -> folder
    for m in re.finditer(r"\binclude\s*\(?((?:\s*[\"'][^\"']+[\"']\s*,?)+)", settings):
        for p in re.findall(r"[\"']([^\"']+)[\"']", m.group(1)):
            p = ":" + p.lstrip(":")
            projects[p] = p[1:].replace(":", "/")
    for m in re.finditer(r"project\(\s*[\"']([^\"']+)[\"']\s*\)\.projectDir\s*=\s*(?:new\s+)?[Ff]ile\([^\"']*[\"']([^\"']+)[\"']", settings):
        projects[":" + m.group(1).lstrip(":")] = m.group(2)
    # ktor's DSL (its settings.gradle.kts defines it): projects { … } is the
    # root scope; server { … } declares ktor-server and nests in it, client
    # likewise, shared { … } nests in ktor-shared without a project;
    # nested("g") { … } nests in folder g without a project;
    # +"x" declares x in the current folder, +"x" including { … } nests in x.
    block = re.search(r"(?s)\nprojects\s*\{(.*?)\n\}", settings)
    if block:
        bases = [""]
        for tok in re.finditer(r"(server|client|shared)\s*\{|nested\(\s*\"([^\"]+)\"\s*\)\s*\{|\+\"([^\"]+)\"(\s+including\s*\{)?|\{|\}",
                               block.group(1)):
            base = bases[-1]
            if tok.group(2):  # nested("group") { … }: a folder, no project
                bases.append((base + "/" if base else "") + tok.group(2))
                continue
            if tok.group(1):
                group = "ktor-" + tok.group(1)
                if tok.group(1) != "shared":
                    projects[":" + group] = group
                bases.append(group)
            elif tok.group(3):
                folder = (base + "/" if base else "") + tok.group(3)
                projects[":" + tok.group(3)] = folder
                if tok.group(4):
                    bases.append(folder)
            elif tok.group(0) == "{":
                bases.append(base)
            elif len(bases) > 1:
                bases.pop()
    folders = {p: f for p, f in projects.items() if os.path.isdir(os.path.join(root, f))}
    ref.packages["."] = "root"
    for p, f in folders.items():
        ref.packages[f] = p.rsplit(":", 1)[-1]
    catalog = {}
    cat_file = os.path.join(root, "gradle", "libs.versions.toml")
    if os.path.exists(cat_file):
        with open(cat_file, "rb") as fh:
            cat = tomllib.load(fh)
        for alias, v in (cat.get("libraries") or {}).items():
            mod = v if isinstance(v, str) else v.get("module") or (v.get("group", "") + ":" + v.get("name", ""))
            catalog[re.sub(r"[-_]", ".", alias.lower())] = ":".join(mod.split(":")[:2])
    by_accessor = {re.sub(r"[-_.]", "", p.rsplit(":", 1)[-1].lower()): f for p, f in folders.items()}
    for folder in list(ref.packages):
        for name in ("build.gradle.kts", "build.gradle"):
            f = os.path.join(root, folder, name)
            if os.path.exists(f):
                text = re.sub(r"(?s)/\*.*?\*/", "", re.sub(r"(?m)//.*$", "", open(f).read()))
                for m in re.finditer(r"project\(\s*(?:path\s*[=:]\s*)?[\"']([^\"']+)[\"']", text):
                    p = ":" + m.group(1).lstrip(":")
                    if p in folders:
                        ref.edges.add((folder, folders[p], ""))
                for m in re.finditer(r"\bprojects\.([A-Za-z0-9_.]+)", text):
                    key = m.group(1).split(".")[-1].lower()
                    if key in by_accessor:
                        ref.edges.add((folder, by_accessor[key], ""))
                # "group:artifact[:version]" as a call's argument (not a
                # plugin id, which has no colon).
                for m in re.finditer(r"\b(\w+)\(\s*(?:platform\(\s*)?\"([\w.\-]+):([\w.\-]+)(?::[^\"]*)?\"", text):
                    if m.group(1) not in ("project", "module", "substitute", "exclude", "id", "classpath", "because"):
                        ref.external.add((folder, m.group(2) + ":" + m.group(3), ""))
                # kotlin("test") as a configuration's argument (a bare
                # kotlin("jvm") in plugins { } is a plugin).
                for m in re.finditer(r"\b\w+\(\s*kotlin\(\s*\"([^\"]+)\"\s*\)", text):
                    ref.external.add((folder, "org.jetbrains.kotlin:kotlin-" + m.group(1), ""))
                for m in re.finditer(r"\blibs\.((?!versions\.|plugins\.|bundles\.)[A-Za-z0-9_.]+)", text):
                    key = m.group(1).lower().removesuffix(".get")
                    if key in catalog:
                        ref.external.add((folder, catalog[key], ""))
                break
    return ref


ECOSYSTEMS = {
    "cargo": (lambda root, a: cargo_ref(root), lambda k: k, lambda n: n, ()),
    "go": (lambda root, a: go_ref(root), lambda k: "", lambda n: n, ()),
    # pnpm installs peer dependencies (auto-install-peers) and its lock file
    # lists them under dependencies: a peer counts as runtime.
    "pnpm": (lambda root, a: pnpm_ref(root, a.pnpm), lambda k: "runtime" if k == "peer" else k, lambda n: n, ()),
    "python": (lambda root, a: uv_ref(root), lambda k: k, pep503, ()),
    "maven": (lambda root, a: maven_ref(root), lambda k: k, lambda n: n, ()),
    "gradle": (lambda root, a: gradle_ref(root), lambda k: "", lambda n: n, ()),
}


def compare_packages(name, root, eco, graph_root, args, lore, idx, pkgs, out):
    make, kind_map, name_norm, drop = ECOSYSTEMS[eco]
    ref = make(root, args)
    if ref is None:
        return
    side, roles = lore_side(pkgs, KINDS[eco], kind_map, name_norm, drop)
    scope = set(ref.packages)
    lore_edges = {e for e in side.edges if e[0] in scope}
    lore_ext = {e for e in side.external if e[0] in scope}
    ref_ext = {(f, name_norm(n), k) for f, n, k in ref.external}
    missing = sorted(scope - set(side.packages))
    extra = sorted(p for p, (_, role) in side.packages.items() if p not in scope and not role)
    graph = ""
    if graph_root:
        start = next((p for p, n in ref.packages.items() if n == graph_root), None)
        if start:
            want = bfs(ref.edges, start)
            g = lore.graph(idx, root, side.packages.get(start, (graph_root,))[0], start)
            edges = [e for e in g.get("edges", []) if e["dep_kind"] not in drop]
            other = {(e["from_path"], e["to_path"]) for e in edges if e["dep_kind"] != "peer"}
            got = {(e["from_path"], e["to_path"], kind_map(e["dep_kind"])) for e in edges
                   if e["dep_kind"] != "peer" or (e["from_path"], e["to_path"]) not in other}
            graph = (f"{len(want)} / {len(got)}" + (" (same)" if want == got else
                     f" (missing {len(want - got)}, extra {len(got - want)})"))
    role_note = ", ".join(f"{r} {n}" for r, n in sorted(roles.items()) if r)
    rows = [
        ("packages", len(scope), f"{len(scope) - len(missing)} of them" + (f"; +{len(extra)} outside the reference without a role" if extra else "")
         + (f"; +{role_note} with a role" if role_note else "")),
        ("internal edges", len(ref.edges), cmp_sets(ref.edges, lore_edges)),
        ("external dependencies", len(ref_ext), cmp_sets(ref_ext, lore_ext)),
    ]
    out.append(f"\n### {name} ({eco}): {ref.tool} vs lore\n")
    out.append("| | reference | lore |\n|---|---|---|")
    for label, n, l in rows:
        out.append(f"| {label} | {n} | {l} |")
    if graph:
        out.append(f"| depth-3 graph from {graph_root} (edges, reference / lore) | {graph.split(' / ')[0]} | {graph.split(' / ', 1)[1]} |")
    notes = []
    if missing:
        notes.append("missing packages: " + ", ".join(missing[:8]) + (" …" if len(missing) > 8 else ""))
    if extra:
        notes.append("listed by lore only, without a role: " + ", ".join(extra[:8]) + (" …" if len(extra) > 8 else ""))
    for label, a, b in (("internal edges", ref.edges, lore_edges), ("external", ref_ext, lore_ext)):
        only_ref, only_lore = sorted(a - b), sorted(b - a)
        if only_ref:
            notes.append(f"{label} only in the reference ({len(only_ref)}): " + "; ".join(map(fmt, only_ref[:5])))
        if only_lore:
            notes.append(f"{label} only in lore ({len(only_lore)}): " + "; ".join(map(fmt, only_lore[:5])))
    for n in notes:
        out.append(f"\n- {n}")


def fmt(t):
    return " ".join(x for x in t if x)


def cmp_sets(ref, got):
    if ref == got:
        return f"{len(got)} (same)"
    return f"{len(got)} ({len(ref & got)} same, {len(ref - got)} missing, {len(got - ref)} extra)"


# ---------------------------------------------------------------- OpenSpec

def clauses_from_raw(raw):
    """The clause texts of a scenario's raw text, read like lore reads them:
    top-level bullets starting with a bold or plain GIVEN/WHEN/THEN/AND (AND
    joins the clause before), nested bullets (numbered ones too) and wrapped
    lines joined to their clause; a paragraph after a blank line is not
    part of a clause. Code blocks are left out. The CLI gives a scenario's
    raw text only, so this rule is the script's, written to the
    conventions of OpenSpec's own specs."""
    out = {"given": [], "when": [], "then": []}
    last, last_indent, in_code, blank = None, 0, False, False
    for line in raw.split("\n"):
        if line.strip().startswith("```") or line.strip().startswith("~~~"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if not line.strip():
            blank = True
            continue
        m = re.match(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$", line)
        if blank and not m:
            last = None  # a paragraph after a blank line ends the clauses
        blank = False
        indent = len(m.group(1)) if m else len(line) - len(line.lstrip())
        text = m.group(2).strip() if m else line.strip()
        km = re.match(r"(?i)^(?:\*\*|__)\s*(given|when|then|and)\b\s*([^*_]*?)\s*:?\s*(?:\*\*|__)\s*:?\s*(.*)$", text) \
            or re.match(r"(?i)^(given|when|then|and)\b()\s*:?\s*(.*)$", text)
        if m and km and (last is None or indent < last_indent + 2):
            kw = km.group(1).lower()
            kind = last if kw == "and" else kw
            kind = kind or "when"
            body = (km.group(2) + " " + km.group(3)).strip()
            out[kind].append(body)
            last, last_indent = kind, indent
        elif last is not None:
            prev = out[last][-1]
            sep = " " if (not m or prev.endswith(":") or not prev) else "; "
            out[last][-1] = (prev + sep + text).strip() if prev else text
    return out


def openspec_cli(cli, root, cache_dir):
    """The OpenSpec CLI's answers for a checkout, kept in cache_dir (each
    call through npx takes seconds) under the CLI's version and the spec
    files' sizes and times, so a second run asks again only when they
    changed."""
    stamp = []
    for dirpath, _, filenames in os.walk(os.path.join(root, "openspec")):
        for f in sorted(filenames):
            st = os.stat(os.path.join(dirpath, f))
            stamp.append(f"{rel(root, os.path.join(dirpath, f))}:{st.st_size}:{st.st_mtime_ns}")
    key = hashlib.sha256(("\n".join([" ".join(cli)] + sorted(stamp))).encode()).hexdigest()[:16]
    path = os.path.join(cache_dir, f"openspec-cli-{key}.json")
    if os.path.exists(path):
        with open(path) as fh:
            return json.load(fh)
    version = run(cli + ["--version"], cwd=root).strip()
    specs = json.loads(run(cli + ["list", "--specs", "--json"], cwd=root))["specs"]
    ref_specs = {s["id"]: json.loads(run(cli + ["show", s["id"], "--type", "spec", "--json"], cwd=root)) for s in specs}
    changes = [c["name"] for c in json.loads(run(cli + ["list", "--json"], cwd=root))["changes"]]
    ref_changes = {c: json.loads(run(cli + ["show", c, "--type", "change", "--json", "--deltas-only"], cwd=root))
                   for c in changes}
    answer = {"version": version, "specs": ref_specs, "changes": ref_changes}
    with open(path, "w") as fh:
        json.dump(answer, fh)
    return answer


def lore_spec(lore, idx, root, sid, kind, scenario_names):
    """A spec as lore reads it: `lore specs show` (requirement names, deltas,
    scenario counts), then `lore specs scenario` for each scenario, asked
    by the heading the CLI's rule reads (so a heading lore reads otherwise
    is not found: it counts as a difference)."""
    shown = json.loads(run([lore.binary, "--index", idx, "specs", "show", sid, "--root", root, "--format", "json"]))
    reqs = []
    for i, r in enumerate(shown):
        req = {"name": r["name"], "delta": r.get("delta", ""), "scenarios": [], "scenario_count": r["scenario_count"]}
        if kind == "openspec":
            names = scenario_names[i] if i < len(scenario_names) else []
            for j in range(r["scenario_count"]):
                args = [lore.binary, "--index", idx, "specs", "scenario", sid, r["name"]]
                if j < len(names):
                    args.append(names[j])
                p = subprocess.run(args + ["--root", root, "--format", "json"], capture_output=True, text=True)
                if p.returncode == 0:
                    req["scenarios"].append(json.loads(p.stdout)["scenario"])
                else:
                    req["scenarios"].append({"name": "(not found by the CLI's heading)", "given": [], "when": [], "then": []})
        reqs.append(req)
    return {"kind": kind, "requirements": reqs}


def compare_openspec(root, args, lore, idx, out):
    answer = openspec_cli(args.openspec, root, args.cache)
    ref_specs, ref_changes = answer["specs"], answer["changes"]
    lore_specs = json.loads(run([lore.binary, "--index", idx, "specs", "list", "--root", root, "--format", "json"]))
    full = {}
    for s in lore_specs:
        _, scen_lists = headings(os.path.join(root, "openspec", "specs", s["id"], "spec.md"))
        full[s["id"]] = lore_spec(lore, idx, root, s["id"], s["kind"], scen_lists)
    base = {k: v for k, v in full.items() if v.get("kind") == "openspec"}
    deltas = {k: v for k, v in full.items() if v.get("kind") == "openspec-change"}

    def reqs(spec):
        return spec.get("requirements") or []

    ref_reqs = sum(len(s["requirements"]) for s in ref_specs.values())
    lore_reqs = sum(len(reqs(s)) for k, s in base.items() if k in ref_specs)
    ref_scen = sum(len(r["scenarios"]) for s in ref_specs.values() for r in s["requirements"])
    lore_scen = sum(r["scenario_count"] for k, s in base.items() if k in ref_specs for r in reqs(s))
    # Clause texts, scenario by scenario, in order.
    clause_total = clause_same = 0
    diffs = []
    heading_total = heading_same = 0
    heading_diffs = []
    for sid, ref in ref_specs.items():
        mine = base.get(sid)
        if not mine:
            continue
        path = os.path.join(root, "openspec", "specs", sid, "spec.md")
        names, scen_lists = headings(path)
        for i, r in enumerate(ref["requirements"]):
            if i >= len(reqs(mine)):
                break
            lr = reqs(mine)[i]
            if i < len(names):
                heading_total += 1
                if names[i] == lr["name"]:
                    heading_same += 1
                elif len(heading_diffs) < 5:
                    heading_diffs.append(f"{sid}: `{names[i]}` read as `{lr['name']}`")
            for j, sc in enumerate(r["scenarios"]):
                ls = (lr.get("scenarios") or [])
                if j >= len(ls):
                    clause_total += 1  # a scenario lore does not have differs
                    continue
                want = clauses_from_raw(sc["rawText"])
                got = {"given": ls[j].get("given") or [], "when": ls[j].get("when") or [], "then": ls[j].get("then") or []}
                clause_total += 1
                if norm_clauses(want) == norm_clauses(got):
                    clause_same += 1
                elif len(diffs) < 5:
                    diffs.append(f"{sid} / {lr['name']} / {ls[j]['name']}: reference {want} lore {got}")
        for i, keys in enumerate(scen_lists):
            lr = reqs(mine)[i] if i < len(reqs(mine)) else None
            for j, key in enumerate(keys):
                heading_total += 1
                got = lr["scenarios"][j]["name"] if lr and j < len(lr["scenarios"]) else "(none)"
                if got == key:
                    heading_same += 1
                elif len(heading_diffs) < 5:
                    heading_diffs.append(f"{sid}: `{key}` read as `{got}`")
    # Change deltas: (spec, operation) per requirement, change by change.
    ref_delta = collections.Counter()
    for c, d in ref_changes.items():
        for x in d.get("deltas", []):
            ref_delta[(c, x["spec"], x["operation"])] += 1
    lore_delta = collections.Counter()
    for k, s in deltas.items():
        change, spec = k.split("/", 1)
        for r in reqs(s):
            lore_delta[(change, spec, r.get("delta", ""))] += 1
    out.append("\n### OpenSpec: OpenSpec CLI %s vs lore\n" % answer["version"])
    out.append("| | OpenSpec CLI | lore |\n|---|---|---|")
    out.append(f"| specs | {len(ref_specs)} | {len([k for k in base if k in ref_specs])} of them ({len(base)} listed) |")
    out.append(f"| requirements | {ref_reqs} | {lore_reqs} |")
    out.append(f"| scenarios | {ref_scen} | {lore_scen} |")
    out.append(f"| scenarios with the same clause texts | {clause_total} | {clause_same} |")
    out.append(f"| requirement and scenario headings (CLI's header rule) | {heading_total} | {heading_same} the same |")
    out.append(f"| changes with deltas / delta requirements | {len([c for c in ref_changes if ref_changes[c].get('deltas')])} / {sum(ref_delta.values())} | "
               f"{len({k.split('/')[0] for k in deltas})} ({len(deltas)} delta specs) / {sum(lore_delta.values())}"
               + (" (same per change, spec and operation)" if ref_delta == lore_delta else f" ({sum((ref_delta - lore_delta).values())} missing, {sum((lore_delta - ref_delta).values())} extra)") + " |")
    for d in diffs + heading_diffs:
        out.append(f"\n- {d}")
    for k in sorted(set(ref_delta) | set(lore_delta)):
        if ref_delta[k] != lore_delta[k] and len(out) < 400:
            out.append(f"\n- delta {k}: CLI {ref_delta[k]}, lore {lore_delta[k]}")


def norm_clauses(c):
    return {k: [re.sub(r"\s+", " ", x).strip() for x in v] for k, v in c.items()}


def headings(path):
    """Requirement and scenario names by the CLI's header rule:
    /^###\\s*Requirement:\\s*(.+)\\s*$/ and #### Scenario:, trimmed."""
    names, scen = [], []  # requirement names; per requirement, its scenario names
    in_code = False
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError:
        return names, scen
    for line in lines:
        if line.strip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r"(?i)^###\s*Requirement:\s*(.+)\s*$", line)
        if m:
            names.append(m.group(1).strip())
            scen.append([])
            continue
        m = re.match(r"(?i)^####\s*Scenario:\s*(.+)\s*$", line)
        if m and names:
            scen[-1].append(m.group(1).strip())
    return names, scen


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lore", required=True, help="the lore binary")
    ap.add_argument("--repos", default="/root/monorepos")
    ap.add_argument("--work", default=None, help="where lore's indexes go (default: a temporary folder)")
    ap.add_argument("--openspec", default="npx --yes @fission-ai/openspec@1.13.2")
    ap.add_argument("--pnpm", default="npx --yes pnpm@10 --config.manage-package-manager-versions=false")
    ap.add_argument("--markdown", help="also write the report to this file")
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache", "lore-compare"),
                    help="where the OpenSpec CLI's answers are kept between runs")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    args.openspec = args.openspec.split()
    args.pnpm = args.pnpm.split()
    work = args.work or tempfile.mkdtemp(prefix="lore-compare-")
    os.makedirs(work, exist_ok=True)
    os.makedirs(args.cache, exist_ok=True)
    lore = Lore(os.path.abspath(args.lore), work)
    out = ["# lore vs reference tools\n"]
    for name in args.names or REPOS:
        root = os.path.join(args.repos, name)
        if not os.path.isdir(root):
            print(f"skipping {name}: no checkout at {root}", file=sys.stderr)
            continue
        commit = run(["git", "-C", root, "rev-parse", "HEAD"], check=False).strip() or "(not a git checkout)"
        idx, stats = lore.index(name, root)
        out.append(f"\n## {name}\n\n{stats['packages']} packages, {stats['specs']} specs indexed by lore"
                   + (f" (commit {commit[:12]})" if len(commit) == 40 else ""))
        pkgs = lore.packages(idx, root)
        for eco, graph_root in REPOS.get(name, []):
            try:
                if eco == "openspec":
                    compare_openspec(root, args, lore, idx, out)
                else:
                    compare_packages(name, root, eco, graph_root, args, lore, idx, pkgs, out)
            except Exception as e:  # a reference that fails is reported, not fatal
                out.append(f"\n{eco}: the reference failed: {e}")
                traceback.print_exc()
        print(f"done {name}", file=sys.stderr)
    report = "\n".join(out) + "\n"
    print(report)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(report)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
