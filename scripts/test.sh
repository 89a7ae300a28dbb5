#!/usr/bin/env bash
# Every test tier, as CI runs it: formatting and lints, unit and integration tests, the
# headless dependency check, and the desktop under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
# Tests must never pop up a browser on a developer's desktop.
export MOORING_OPEN_BROWSER=0

echo "== format and lints"
cargo fmt --all -- --check
# Modules import each other one way only (the script's self-test shows it finds a loop).
python3 scripts/check-layers.py --self-test
python3 scripts/check-layers.py
python3 scripts/check-doc-paths.py
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== unit and integration tests"
cargo test --workspace

echo "== end-to-end: headless build, desktop under Xvfb"
cargo build --workspace --quiet
bash tests/run-e2e.sh
