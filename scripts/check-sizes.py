#!/usr/bin/env python3
"""Files over 400 lines and functions over 100 lines in the product's Rust, each either
gone back under the line or named in scripts/sizes-allowed.txt with the reason it is
one piece. Fails on one that is over and not named (say why, or split it), and on a
name that is no longer over (take it out: the list only shrinks).

Counted: every .rs file under crates/ and bench/ but tests (a tests.rs, *_tests.rs or a
tests/ folder); a function is counted from its `fn` line to its closing brace."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = ROOT / "scripts" / "sizes-allowed.txt"
FILE_LINES = 400
FN_LINES = 100
FN_START = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(async\s+)?(unsafe\s+)?(const\s+)?fn\s+(\w+)")


def product_files():
    for top in ("crates", "bench"):
        for p in sorted((ROOT / top).rglob("*.rs")):
            rel = p.relative_to(ROOT).as_posix()
            if "/target/" in rel or "/tests/" in rel or "/examples/" in rel:
                continue
            if re.search(r"(^|/)(tests?|[a-z_]+_tests)\.rs$", rel):
                continue
            yield rel, p.read_text(errors="replace")


def long_functions(text):
    """(name, lines) of each function over FN_LINES, tests' modules left out."""
    cut = re.search(r"\n#\[cfg\(test\)\]\nmod tests \{", text)
    lines = (text[: cut.start()] if cut else text).split("\n")
    i = 0
    while i < len(lines):
        m = FN_START.match(lines[i])
        if not m:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            started = started or "{" in lines[j]
            if started and depth <= 0:
                break
            if not started and lines[j].rstrip().endswith(";"):
                break
            j += 1
        if started and j - i + 1 > FN_LINES:
            yield m.group(6), j - i + 1
        i = j + 1 if started else i + 1


def over():
    found = {}
    for rel, text in product_files():
        n = text.count("\n")
        if n > FILE_LINES:
            found[rel] = n
        for name, n in long_functions(text):
            found[f"{rel}::{name}"] = n
    return found


def allowed():
    names = {}
    for line in ALLOWED.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, why = line.partition(": ")
        if not why.strip():
            sys.exit(f"{ALLOWED.name}: '{name}' gives no reason")
        names[name] = why
    return names


def main():
    now, named = over(), allowed()
    bad = False
    for name, n in sorted(now.items()):
        if name not in named:
            bad = True
            limit = FN_LINES if "::" in name else FILE_LINES
            print(f"{name}: {n} lines (over {limit}); split it, or name it in {ALLOWED.name} with why it is one piece")
    for name in sorted(set(named) - set(now)):
        bad = True
        print(f"{name}: no longer over; take it out of {ALLOWED.name}")
    if bad:
        sys.exit(1)
    files = sum(1 for k in now if "::" not in k)
    print(f"sizes: {files} files over {FILE_LINES} lines and {len(now) - files} functions over {FN_LINES}, each named with its reason")


if __name__ == "__main__":
    main()
