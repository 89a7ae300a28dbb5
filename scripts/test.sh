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
python3 scripts/check-client-dialects.py --self-test
python3 scripts/check-client-dialects.py
python3 scripts/check-doc-paths.py
python3 scripts/check-sizes.py
python3 scripts/check-invariants.py --self-test
python3 scripts/check-invariants.py
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== unit and integration tests"
cargo test --workspace

echo "== end-to-end: headless build, desktop under Xvfb"
cargo build --workspace --quiet
bash tests/run-e2e.sh

echo "== speed guard: the binary people run (start profile), ratios within one run"
# Fails only on a gross regression (a hook that loads the model although the hub runs,
# one that costs more than 3x `mooring projects`); figures: bench/process_speed.py.
cargo build --profile start -p mooring-cli --quiet
# The code a stdio session runs, laid out together (crates/cli/build.rs).
python3 scripts/check-hot-layout.py target/start/mooring
MOORING_MODELS=$(scripts/fetch-model.sh --where) \
  python3 bench/process_speed.py --bin target/start/mooring --entries 100 --runs 10 --guard
# A write with its duplicate check against the bare write, at 10,000 entries.
cargo build --profile start -p mooring-bench --bin write-guard --quiet
MOORING_MODELS=$(scripts/fetch-model.sh --where) target/start/write-guard
