#!/usr/bin/env bash
# Runs every end-to-end check in tests/e2e against the built binaries in target/debug
# and prints one closing line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export MOORING_BIN="$PWD/target/debug"
# Tiers move HOME into a sandbox; the model for search by meaning stays where it is.
MOORING_MODELS=$(scripts/fetch-model.sh --where); export MOORING_MODELS
# MOORING_SCREENSHOTS=DIR keeps the pictures the desktop checks take (see CONTRIBUTING.md).
if [ -n "${MOORING_SCREENSHOTS:-}" ]; then
  mkdir -p "$MOORING_SCREENSHOTS"
  MOORING_SCREENSHOTS=$(realpath "$MOORING_SCREENSHOTS"); export MOORING_SCREENSHOTS
fi
passed=0; failed=0; failures=()
for t in tests/e2e/*.sh; do
  name=$(basename "$t" .sh)
  log=$(mktemp)
  if timeout 300 bash "$t" >"$log" 2>&1; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "FAIL $name"; sed 's/^/     | /' "$log"
  fi
  rm -f "$log"
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
