#!/usr/bin/env bash
# Records the functions a stdio session of `mooring` runs (mcp-load's stdio rows, under
# valgrind's callgrind) and writes their names to crates/cli/link/hot-functions.txt
# (`--release`: hot-functions-release.txt, from the release profile); crates/cli/build.rs
# places them side by side so a server keeps less of its code in memory. Run it after
# changes that move much code (a new dependency, a new tool, a toolchain update), then
# measure with
#   target/start/mcp-load --secs 2 --only stdio   (the stdio rows' peak RSS)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is needed: sudo apt install valgrind" >&2; exit 1; }
profile=start list=crates/cli/link/hot-functions.txt
if [ "${1:-}" = --release ]; then profile=release list=crates/cli/link/hot-functions-release.txt; fi
# Built as scripts/start.sh and scripts/test.sh build it (features, hence names, as there).
cargo build --profile "$profile" -p mooring-cli
cargo build --profile "$profile" -p mooring-bench --bin mcp-load
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
MOORING_LOAD_WRAP="valgrind --tool=callgrind --demangle=no --callgrind-out-file=$out/cg.%p" \
  "target/$profile/mcp-load" --secs 1 --only stdio >"$out/log" 2>&1 || { cat "$out/log" >&2; exit 1; }
python3 - "$out" "$profile" > "$list" <<'PY'
import glob, re, sys
out, profile = sys.argv[1], sys.argv[2]
names = set()
for path in glob.glob(f"{out}/cg.*"):
    objects, functions, ob = {}, {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, key, name = m.groups()
        table = objects if kind.endswith("ob") else functions
        if name:
            table[key] = name
        if kind == "ob":
            ob = key
        # valgrind 3.19 names the object "???" once its code is laid out by build.rs.
        elif kind == "fn" and objects.get(ob, "").endswith(("/mooring", "???")):
            functions.setdefault(key, None)
            names.add(functions[key] or "")
keep = set()
for name in names:
    # valgrind's own labels ("(below main)", bare addresses) are not symbols.
    if not name or re.search(r"[\s\"(){};,]", name) or name.startswith("0x"):
        continue
    keep.add(name)
print(f"# Functions a stdio session runs ({profile} profile), recorded by scripts/hot-functions.sh;")
print("# read by crates/cli/build.rs.")
print("\n".join(sorted(keep)))
PY
echo "$(grep -vc '^#' "$list") functions in $list"
