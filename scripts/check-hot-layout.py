#!/usr/bin/env python3
"""Checks that a `mooring` binary has the layout crates/cli/build.rs gives it: the code a
stdio session runs gathered in `.text.hot` (fails without it), and how many of the
recorded functions the build has by exact name (the symbol ordering's share; a low share
only warns: the recording is older than the toolchain or the dependencies, and
scripts/hot-functions.sh records it again).

    python3 scripts/check-hot-layout.py target/start/mooring
"""

import pathlib
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else "target/start/mooring"
link = pathlib.Path(__file__).resolve().parent.parent / "crates/cli/link"
# Each profile's recording; the one this binary was built from matches it best.
lists = [{l.strip() for l in f.read_text().splitlines() if l.strip() and not l.startswith("#")}
         for f in sorted(link.glob("hot-functions*.txt"))]
sections = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
hot = [l.split() for l in sections.splitlines() if " .text.hot " in l]
if not hot:
    sys.exit(f"{binary}: no .text.hot section; crates/cli/build.rs did not lay out the code "
             "(MOORING_PLAIN_LINK set, or the linker script was not passed)")
size = int(hot[0][hot[0].index(".text.hot") + 4], 16)
symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
have = {l.split()[-1] for l in symbols.splitlines() if l.strip()}
names = max(lists, key=lambda n: len(n & have) / max(len(n), 1))
share = len(names & have) / max(len(names), 1)
print(f"hot layout: .text.hot {size / 1e6:.1f} MB; {share:.0%} of the {len(names)} recorded functions "
      "placed by exact name")
if share < 0.5:
    print("warning: the recording's names do not match this build's; run scripts/hot-functions.sh",
          file=sys.stderr)
