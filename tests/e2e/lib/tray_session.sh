#!/usr/bin/env bash
# Runs inside xvfb-run + dbus-run-session (see ../desktop_tray.sh).
set -euo pipefail
[ -n "${E2E_TRACE:-}" ] && set -x
export NO_AT_BRIDGE=1
m="$MOORING_BIN/mooring"
# The idle watcher looks every 300 ms here (20 s for people).
MOORING_IDLE_POLL_MS=300 "$MOORING_BIN/mooring-desktop" --port 0 >"$MOORING_HOME/desktop.log" 2>&1 &
pid=$!
fail() { echo "FAIL: $*"; echo "--- desktop log"; cat "$MOORING_HOME/desktop.log"; cat "$MOORING_HOME"/waiting.* 2>/dev/null; kill "$pid" 2>/dev/null; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tray_bus.sh
. "$here/tray_bus.sh"
find_menu

# A menu read while it is being replaced can come back partial: wait for a whole one.
wait_for 'listing=$(items); grep -q $'"'"'\tQuit Mooring\t'"'"' <<<"$listing"' || fail "no complete menu"
echo "$listing"
grep -q $'\tAlpha One — 0 locks · never\t' <<<"$listing" || fail "Alpha One missing from the menu"
grep -q $'\tBeta Two — 0 locks · never\t' <<<"$listing" || fail "Beta Two missing from the menu"
grep -q $'\tArchived (1)\t' <<<"$listing" || fail "no Archived submenu"
grep -q $'\t2 active projects\t' <<<"$listing" || fail "no project count"
grep -q $'\tQuit Mooring\t' <<<"$listing" || fail "no Quit item"
grep -q $'\tStart at login\t0$' <<<"$listing" || fail "no unchecked Start at login item"
grep -q $'\tPause questions (send them to the browser)\t0$' <<<"$listing" || fail "no Pause questions item"

# The same MCP server as `mooring serve` runs in-process and is advertised.
wait_for '[ -f "$MOORING_HOME/endpoint.json" ]' || fail "no endpoint.json"
url=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['url'])" "$MOORING_HOME/endpoint.json")
health=$(python3 -c "import json,sys,urllib.request; print(json.load(urllib.request.urlopen(sys.argv[1].replace('/mcp','/health')))['pid'])" "$url")
[ "$health" = "$pid" ] || fail "health answered pid $health, expected $pid"
wait_for 'items | grep -q "MCP server: $url"' || fail "the menu does not show the server URL"

# One Mooring per data directory: a second desktop and a headless serve both defer to it.
second=$("$MOORING_BIN/mooring-desktop" --port 0 2>&1) || fail "a second desktop failed: $second"
grep -q "already running (pid $pid); its dashboard is in front now" <<<"$second" || fail "a second desktop did not say so: $second"
wait_for 'xwininfo -root -tree | grep -q "\"Mooring\": (\"mooring-desktop\""' || fail "the second launch did not bring up the dashboard window"
served=$("$m" serve --port 0 2>&1) || fail "mooring serve beside the desktop failed: $served"
grep -q "already running on this data directory (mooring-desktop, pid $pid)" <<<"$served" || fail "serve said: $served"

# A session with no project waits in its call; the tray shows it waiting, and clicking a
# project answers it (the call returns with that project, decided by the picker).
py="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/mcp1/bin/python"
"$py" - "$url" >"$MOORING_HOME/waiting.json" 2>"$MOORING_HOME/waiting.log" <<'PY' &
import asyncio, json, sys
from mcp import ClientSession
from mcp.client import streamable_http
connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
async def main():
    async with connect(sys.argv[1]) as (read, write, *_):
        async with ClientSession(read, write) as s:
            await s.initialize()
            r = await s.call_tool("get_last_handover", {})
            print(json.dumps(r.structuredContent))
asyncio.run(main())
PY
waiter=$!
wait_for 'items | grep -q $'"'"'\tWaiting for you (1)\t'"'"'' || fail "the waiting session is not in the menu"
# With MOORING_SCREENSHOTS=DIR, keep a picture of the picker window the desktop opened.
# and of the tray menu as a panel renders it from D-Bus (system python's GTK bindings).
if [ -n "${MOORING_SCREENSHOTS:-}" ] && command -v import >/dev/null; then
  /usr/bin/python3 "$(dirname "$0")/render_tray_menu.py" "$name" "$menu" "$MOORING_SCREENSHOTS/tray-menu.png" \
    || echo "no tray menu screenshot (needs python3-gi and gir1.2-gtk-3.0)"
fi
wait_for 'xwininfo -root -tree | grep -q "needs a project"' || fail "no picker window opened"
click "Alpha One — " || fail "could not click Alpha One"
wait_for '! kill -0 "$waiter" 2>/dev/null' || fail "the waiting call did not complete after the click"
wait "$waiter" || fail "the waiting client failed: $(cat "$MOORING_HOME/waiting.log")"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert (d['project'], d['decided_by']) == ('alpha-one', 'picker'), d" \
  "$MOORING_HOME/waiting.json" || fail "the waiting call got the wrong project: $(cat "$MOORING_HOME/waiting.json")"
wait_for '! items | grep -q "Waiting for you"' || fail "the menu still shows a waiting session"
wait_for '! xwininfo -root -tree | grep -q "needs a project"' || fail "the picker window stayed open"

# Clicking a project makes it the focus project (resolution level 7), checked in the menu.
click "Beta Two — " || fail "could not click Beta Two"
wait_for '[ "$("$m" projects active --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\"active_project\"])")" = beta-two ]' \
  || fail "clicking beta-two did not set the focus project"
wait_for 'items | grep -q $'"'"'\tBeta Two — .*\t1$'"'"'' || fail "Beta Two is not checked after the click"

# A project created elsewhere shows up without a restart.
"$m" projects new "Gamma Three" >/dev/null
wait_for 'items | grep -q $'"'"'\tGamma Three — '"'"'' || fail "new project never reached the menu"

# "Pause questions" toggles (and shows its state).
click "Pause questions" || fail "could not click Pause questions"
wait_for 'items | grep -q $'"'"'\tPause questions (send them to the browser)\t1$'"'"'' || fail "Pause questions did not turn on"
# The menu is rebuilt after each click; read it once the rebuild has landed.
wait_for 'items | grep -q $'"'"'\tCopy MCP URL\t'"'"'' || fail "no Copy MCP URL item"

# A project's own view is one click from the tray: the dashboard window goes to it.
click "Beta Two (beta-two)" || fail "no Open a project in the dashboard item for Beta Two"
wait_for 'xwininfo -root -tree | grep -q "\"Mooring — Beta Two\": (\"mooring-desktop\""' \
  || fail "the dashboard window did not open Beta Two's view"
if [ -n "${MOORING_SCREENSHOTS:-}" ]; then
  sleep 1
  win=$(xwininfo -root -tree | grep '"Mooring — Beta Two": ("mooring-desktop"' | awk '{print $1}' | head -1)
  import -window "$win" "$MOORING_SCREENSHOTS/desktop-project-view.png" 2>/dev/null || true
fi

# Two agent sessions at work in one project (their prompt hooks ran): a tray line says
# so, and opens the project's view of who holds what.
mkdir -p "$HOME/gamma"
for s in one two; do
  printf '{"hook_event_name":"UserPromptSubmit","session_id":"%s","cwd":"%s","prompt":"work %s"}' "$s" "$HOME/gamma" "$s" \
    | MOORING_PROJECT=gamma-three "$m" hook claude-code >/dev/null
done
wait_for 'items | grep -q $'"'"'\tGamma Three: 2 sessions at work (claude-code ×2)\t'"'"'' \
  || fail "no tray line for the two sessions at work in Gamma Three"
click "Gamma Three: 2 sessions at work" || fail "could not click the sessions-at-work line"
wait_for 'xwininfo -root -tree | grep -q "\"Mooring — Gamma Three\": (\"mooring-desktop\""' \
  || fail "the sessions-at-work line did not open Gamma Three's view"

# The phone in the tray: no item until a phone is paired; then away on and off by a click,
# on its own after the desktop's idle time (read from the session's idle monitor over
# D-Bus, here a stand-in of GNOME's), back at the person's return; a line when the
# platform cannot be reached.
grep -q $'\tAway: questions go to my phone\t' <<<"$(items)" && fail "an away item with no phone paired"
echo 0 >"$MOORING_HOME/idle_ms"
/usr/bin/python3 "$here/idle_monitor.py" "$MOORING_HOME/idle_ms" >"$MOORING_HOME/idle.log" 2>&1 &
idler=$!
printf '123456789:AAtray-standin-token-0000000000\n' | "$m" remote add telegram --token-file - --api http://127.0.0.1:9 >/dev/null
python3 - "$MOORING_HOME/remote.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["telegram"]["paired"] = {"user": "42", "chat": "42", "at": "2026-11-26T00:00:00Z"}
c["telegram"].pop("pairing", None)
json.dump(c, open(sys.argv[1], "w"))
PY
"$m" config away_when_idle_minutes 1 >/dev/null
away_is() { items | grep -q $'\tAway: questions go to my phone\t'"$1"'$'; }
wait_for 'away_is 0' || fail "no away item once a phone was paired"
wait_for 'items | grep -q $'"'"'\tPhone: telegram unreachable, retrying\t'"'"'' || fail "the tray did not say the platform is unreachable"
echo 120000 >"$MOORING_HOME/idle_ms"
wait_for 'away_is 1' || fail "two idle minutes did not switch to away (setting: one)"
"$m" remote status --json | python3 -c "import json,sys; assert json.load(sys.stdin)['away'] is True" || fail "away not kept"
echo 0 >"$MOORING_HOME/idle_ms"
wait_for 'away_is 0' || fail "the person's return did not switch back"
click "Away: questions go to my phone" || fail "could not click Away"
wait_for 'away_is 1' || fail "the click did not switch to away"
sleep 1.5
# Read from the settings, not the menu: a menu read mid-rebuild can come back partial.
"$m" remote status --json | python3 -c "import json,sys; assert json.load(sys.stdin)['away'] is True" \
  || fail "an away the person chose was undone by the idle watcher"
click "Away: questions go to my phone" || fail "could not click Away again"
wait_for 'away_is 0' || fail "the second click did not switch back"
kill "$idler"; wait "$idler" 2>/dev/null || true
# KDE Plasma's idle time (org.freedesktop.ScreenSaver) where GNOME's monitor is absent.
/usr/bin/python3 "$here/idle_monitor.py" "$MOORING_HOME/idle_ms" --kde >"$MOORING_HOME/idle.log" 2>&1 &
idler=$!
echo 120000 >"$MOORING_HOME/idle_ms"
wait_for 'away_is 1' || fail "two idle minutes on KDE's screen saver service did not switch to away"
echo 0 >"$MOORING_HOME/idle_ms"
wait_for 'away_is 0' || fail "the person's return on KDE did not switch back"
kill "$idler"

# Quit exits cleanly.
click "Quit Mooring" || true
wait_for '! kill -0 "$pid" 2>/dev/null' || fail "Quit did not exit"
wait "$pid" && code=0 || code=$?
[ "$code" -eq 0 ] || fail "exit code $code after Quit"
[ ! -f "$MOORING_HOME/endpoint.json" ] || fail "endpoint.json left behind after Quit"

# With `mooring serve` on this data directory, the desktop does not start beside it.
"$m" serve --port 0 >/dev/null 2>&1 &
served=$!
wait_for '[ -f "$MOORING_HOME/endpoint.json" ]' || fail "mooring serve did not start"
set +e
beside=$(timeout 20 "$MOORING_BIN/mooring-desktop" --port 0 2>&1)
code=$?
set -e
kill "$served"; wait "$served" 2>/dev/null || true
[ "$code" -eq 1 ] || fail "the desktop beside mooring serve exited $code: $beside"
grep -q "already serves this data directory" <<<"$beside" || fail "no clear message: $beside"
echo "tray checks passed"
