#!/usr/bin/env bash
# Runs inside xvfb-run + dbus-run-session (see ../desktop_team.sh).
set -euo pipefail
export NO_AT_BRIDGE=1
"$MOORING_BIN/mooring-desktop" --port 0 >"$MOORING_HOME/desktop.log" 2>&1 &
pid=$!
fail() { echo "FAIL: $*"; echo "--- menu"; items || true; echo "--- desktop log"; cat "$MOORING_HOME/desktop.log"; kill "$pid" 2>/dev/null; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
ada() { MOORING_HOME="$ADA_DATA" HOME="$ADA_HOME" "$MOORING_BIN/mooring" "$@"; }
# shellcheck source=tray_bus.sh
. "$here/tray_bus.sh"
find_menu

# The team project Ada made (Bob is a member) is in Bob's menu, marked as the team's;
# his own project is not.
wait_for 'items | grep -q $'"'"'\tBilling — team · '"'"'' || fail "the team project is not marked in the menu"
listing=$(items)
grep -q $'\tScratch — 0 locks · ' <<<"$listing" || fail "the local project is missing or marked"

# Ada renames it on her machine: Bob's tray shows the new name within a second (the
# change reaches his desktop through the database's announcement, not a poll).
ada projects billing --name "Billing Platform" >/dev/null
changed=$(date +%s%N)
# (A menu read is taken whole before grep sees it: grep -q would cut the reader off.)
until listing=$(items) && grep -q $'\tBilling Platform — team · ' <<<"$listing"; do
  [ $(( ($(date +%s%N) - changed) / 1000000 )) -lt 5000 ] || fail "Ada's rename never reached Bob's tray"
  sleep 0.05
done
took=$(( ($(date +%s%N) - changed) / 1000000 ))
echo "Ada's rename reached Bob's tray in $took ms"
[ "$took" -le 1000 ] || fail "Ada's rename took $took ms to reach Bob's tray (over 1 s)"

# Ada hands the project to Bob: his desktop raises a notification (the desktop logs each
# one it shows; delivery is the notification plugin's, over the same session bus).
ada projects billing --handoff Bob >/dev/null
wait_for 'grep -q "Ada handed you billing: you own it now." "$MOORING_HOME/desktop.log"' \
  || fail "no handoff notification on Bob's desktop"

click "Quit Mooring" || true
wait_for '! kill -0 "$pid" 2>/dev/null' || fail "Quit did not exit"
echo "team tray checks passed"
