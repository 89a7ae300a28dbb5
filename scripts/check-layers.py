#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a loop.

Within each crate, at every level of the module tree, the children of one module must
form layers: if `a` reaches into `b` (`use crate::b…`, `super::b…`, or an inline
`crate::b::f()`), nothing in `b` may reach back into `a`, directly or through a sibling.
A module using its own ancestors or descendants is not counted (that is how a module and
its parts talk), nor is test code (`#[cfg(test)]` modules at the end of a file, `*_tests.rs`,
`tests/`), which may use anything.

    scripts/check-layers.py                 check the crates the workspace has
    scripts/check-layers.py --graph CRATE   print that crate's edges, for a reader
    scripts/check-layers.py --self-test     show that a planted loop is found
"""

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
def workspace_crates():
    """Each workspace member with Rust sources, by short name (the root `Cargo.toml`'s
    `members`, so a new crate is checked without editing this file)."""
    import tomllib

    members = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["members"]
    found = {}
    for member in members:
        src = ROOT / member / "src"
        if src.is_dir():
            name = "desktop" if member == "src-tauri" else Path(member).name
            found[name] = src
    return found


CRATES = workspace_crates()

PATH_RE = re.compile(r"\b(crate|super)((?:::(?:super|[A-Za-z_][A-Za-z0-9_]*))*)(::\{)?")
MOD_RE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)
PATH_ATTR_RE = re.compile(r"#\[path\s*=")


def strip_tests(text):
    """The file without its test module (clippy keeps it last) and comments."""
    m = re.search(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    text = re.sub(r"//[^\n]*", "", text)
    return text


def modules(src):
    """Module path (tuple) -> file, from the crate root through `mod x;` declarations."""
    found = {}

    def walk(path, file, is_dir_owner):
        found[path] = file
        text = file.read_text()
        base = file.parent if is_dir_owner else file.parent / file.stem
        for m in MOD_RE.finditer(text):
            name = m.group(1)
            before = text[max(0, m.start() - 200) : m.start()]
            last_attrs = before.rsplit(";", 1)[-1].rsplit("}", 1)[-1]
            if "cfg(test)" in last_attrs or PATH_ATTR_RE.search(last_attrs) or name == "tests":
                continue
            for cand, owner in ((base / f"{name}.rs", False), (base / name / "mod.rs", True)):
                if cand.exists():
                    walk(path + (name,), cand, owner)
                    break

    for root in ("lib.rs", "main.rs"):
        if (src / root).exists():
            walk((), src / root, True)
    return found


def group_items(text, start):
    """The top-level paths of a `{…}` import group starting at `start` (after the `{`)."""
    depth, i, items, cur = 1, start, [], ""
    while i < len(text) and depth:
        ch = text[i]
        if ch == "{":
            depth += 1
            cur += ch
        elif ch == "}":
            depth -= 1
            if depth:
                cur += ch
        elif ch == "," and depth == 1:
            items.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    items.append(cur)
    return [re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)", it) for it in items]


def edges(src):
    mods = modules(src)
    known = set(mods)
    out = set()
    for here, file in mods.items():
        text = strip_tests(file.read_text())
        for m in PATH_RE.finditer(text):
            anchor, rest, group = m.group(1), m.group(2), m.group(3)
            parts = [p for p in rest.split("::") if p]
            if anchor == "crate":
                base = ()
            else:
                # `super` from a file's module is its parent; a mod.rs owns its directory.
                base = here[:-1]
            while parts and parts[0] == "super":
                base = base[:-1]
                parts = parts[1:]
            tails = [parts]
            if group:
                tails = [parts + g.group(1).split("::") for g in group_items(text, m.end()) if g]
            for tail in tails:
                target = base
                for p in tail:
                    if target + (p,) in known:
                        target = target + (p,)
                    else:
                        break
                out.add((here, target))
    return known, out


def level_edges(known, deps):
    """Edges between siblings: for a → b, the children of their deepest common ancestor."""
    result = set()
    for a, b in deps:
        n = 0
        while n < min(len(a), len(b)) and a[n] == b[n]:
            n += 1
        if n == len(a) or n == len(b):
            continue  # one contains the other
        result.add((a[: n + 1], b[: n + 1]))
    return result


def cycles(sibling_edges):
    graph = {}
    for a, b in sibling_edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def name(path):
    return "::".join(path) or "crate"


def check(crates):
    bad = 0
    for crate, src in crates.items():
        if not src.exists():
            continue
        known, deps = edges(src)
        sib = level_edges(known, deps)
        for comp in cycles(sib):
            bad += 1
            print(f"{crate}: modules import each other in a loop: {', '.join(name(c) for c in comp)}")
            for a, b in sorted(sib):
                if a in comp and b in comp:
                    why = sorted(name(x) + " -> " + name(y) for x, y in deps
                                 if x[: len(a)] == a and y[: len(b)] == b)
                    print(f"    {name(a)} -> {name(b)}   ({'; '.join(why[:4])})")
    return bad


def self_test():
    with tempfile.TemporaryDirectory() as d:
        src = Path(d)
        (src / "lib.rs").write_text("mod a;\nmod b;\nmod c;\n")
        (src / "a.rs").write_text("use crate::b::thing;\n")
        (src / "b.rs").write_text("pub fn thing() { crate::c::other() }\n")
        (src / "c.rs").write_text("use super::{a, b};\n#[cfg(test)]\nmod tests { use crate::a; }\n")
        found = check({"planted": src})
        assert found == 1, f"the planted loop a -> b -> c -> a was not found ({found})"
        (src / "c.rs").write_text("pub fn other() {}\n#[cfg(test)]\nmod tests { use crate::a; }\n")
        assert check({"planted": src}) == 0, "a test module's import counted as a loop"
    print("self-test: a planted loop is found, a test module's import is not")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--self-test"]:
        self_test()
    elif sys.argv[1:2] == ["--graph"]:
        known, deps = edges(CRATES[sys.argv[2]])
        for a, b in sorted(level_edges(known, deps)):
            print(f"{name(a)} -> {name(b)}")
    else:
        n = check(CRATES)
        if n:
            print(f"{n} module loop(s); layers go one way (see docs/architecture.md)")
            sys.exit(1)
        print("module layers: no loops in " + ", ".join(CRATES))
