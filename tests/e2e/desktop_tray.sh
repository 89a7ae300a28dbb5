#!/usr/bin/env bash
# The desktop under Xvfb with its own session bus: the tray menu (read over D-Bus, as a
# panel would) lists the active projects, a click sets the focus project, a project
# created with the CLI appears without a restart, and Quit exits.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MOORING_TEST_TOOLS="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"
export MOORING_HOME="$tmp/data" HOME="$tmp/home"
mkdir -p "$HOME"
m="$MOORING_BIN/mooring"
"$m" projects new "Alpha One" >/dev/null
"$m" projects new "Beta Two" >/dev/null
"$m" projects new "Gone Away" >/dev/null
"$m" projects gone-away --status archived >/dev/null
# Not exec, so the EXIT trap still cleans up.
xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- bash "$here/lib/tray_session.sh"
