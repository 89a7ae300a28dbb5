#!/usr/bin/env python3
"""Fails when docs/architecture.md's "Where things live" table names a file, a directory
or a test function the repository does not have, so the map cannot go stale quietly."""

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
if missing:
    sys.exit(1)
print("docs/architecture.md: every path and test in the table exists")
