#!/usr/bin/env bash
# Claude Code in `claude -p` declines MCP forms at once. Started in a directory of no
# project while two projects exist and the tray app runs (Xvfb, its own session bus), its
# first Mooring call must still get a project: the call waits, the tray shows it under
# "Waiting for you", a click on a project in the tray menu answers it, and the call
# continues in that project (decided_by "picker").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
agents="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/agents/node_modules/.bin"
[ -x "$agents/claude" ] || { echo "$agents/claude is missing: run scripts/test-tools.sh"; exit 1; }
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export AGENTS="$agents" LIB="$here/lib" TMPDIR_E2E="$tmp"
export MOORING_HOME="$tmp/data" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME" "$tmp/bin" "$tmp/scratch"
install -m 0755 "$MOORING_BIN/mooring" "$tmp/bin/mooring"
"$tmp/bin/mooring" projects new "Alpha One" >/dev/null
"$tmp/bin/mooring" projects new "Beta Two" >/dev/null
"$tmp/bin/mooring" setup claude-code >/dev/null
# Not exec, so the EXIT trap still cleans up.
xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- bash "$here/lib/agent_picker_session.sh"
