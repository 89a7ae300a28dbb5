#!/usr/bin/env python3
"""Fails when docs/architecture.md's "Where things live" table names a file, a directory
or a test function the repository does not have, when its "Data" section leaves out a
table the SQLite migrations create, or when its layout leaves out one of core's rooms,
so the map cannot go stale quietly."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
text = (ROOT / "docs/architecture.md").read_text()
table = text.split("## Where things live", 1)[1].split("\n## ", 1)[0]
missing = []
for row in (line for line in table.splitlines() if line.startswith("| ") and "---" not in line):
    module_cell, test_cell = row.split("|")[2], row.split("|")[3]
    for cell in (module_cell, test_cell):
        last_dir = None
        for ref in re.findall(r"`([^`]+)`", cell):
            path, _, func = ref.partition("::")
            path = path.split(" ")[0]
            if not re.search(r"[./]", path) or path.startswith("-"):
                continue  # a name in prose (`SHARED_KINDS`, `Ctx::listed_store`)
            candidates = [ROOT / path, ROOT / "crates" / path, ROOT / "tests/e2e" / path]
            if last_dir:
                candidates.append(last_dir / path)
            found = next((c for c in candidates if c.exists()), None)
            if not found:
                missing.append(f"{path} (in: {row[:60]}…)")
                continue
            last_dir = found.parent
            if func and not re.search(rf"fn {re.escape(func)}\b", found.read_text()):
                missing.append(f"{path}::{func}")
for m in missing:
    print(f"docs/architecture.md names what is not there: {m}")

# Every table the migrations leave behind (a table renamed away or dropped is not one).
data = text.split("## Data", 1)[1].split("\n## ", 1)[0]
sql = "\n".join(p.read_text() for p in sorted((ROOT / "crates/core/migrations").glob("*.sql")))
created = set(re.findall(r"CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?(\w+)", sql))
gone = set(re.findall(r"ALTER TABLE (\w+) RENAME TO", sql)) | set(re.findall(r"DROP TABLE (?:IF EXISTS )?(\w+)", sql))
unnamed = sorted(t for t in created - gone if f"`{t}`" not in data)
for name in unnamed:
    print(f"docs/architecture.md's Data section does not name the table `{name}`")

# Every room of core (a folder its lib.rs declares) in the layout.
layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
lib = (ROOT / "crates/core/src/lib.rs").read_text()
# (a module compiled for tests only, such as the backend suite, is not a room)
declared = re.findall(r"^(#\[cfg[^\n]*\]\n)?pub mod (\w+);", lib, re.M)
rooms = [m for cfg, m in declared if not cfg and (ROOT / "crates/core/src" / m).is_dir()]
absent = [r for r in rooms if f"`{r}/`" not in layout]
for room in absent:
    print(f"docs/architecture.md's layout does not name core's room `{room}/`")
# Every crate of the workspace, and the desktop, in CONTRIBUTING's layout.
contributing = (ROOT / "CONTRIBUTING.md").read_text().split("## Layout", 1)[1].split("\n## ", 1)[0]
crates = sorted(p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "crates").glob("*/Cargo.toml"))
unlisted = [c for c in crates + ["src-tauri", "bench"] if f"`{c}`" not in contributing and f"`{c}/`" not in contributing]
for c in unlisted:
    print(f"CONTRIBUTING.md's layout does not name `{c}`")
if missing or unnamed or absent or unlisted:
    sys.exit(1)
print("docs/architecture.md: every path and test in the table exists, every table and room is named; "
      "CONTRIBUTING.md's layout names every crate")
