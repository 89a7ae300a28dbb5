#!/usr/bin/env bash
# The desktop's native windows through WebKitWebDriver under Xvfb with its own session
# bus: a question window and the project picker answered by clicks, the dashboard's
# desktop-only settings and a project's view, in the light and the dark system theme (see
# lib/desktop_windows.py).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"
export MOORING_TEST_TOOLS="$tools"
command -v WebKitWebDriver >/dev/null || { echo "WebKitWebDriver is missing: apt-get install webkit2gtk-driver" >&2; exit 1; }
# Twice: with the light and the dark system theme (GTK's, which WebKitGTK's
# prefers-color-scheme follows); each pass checks the pages follow it.
for theme in light dark; do
  export MOORING_HOME="$tmp/$theme/data" HOME="$tmp/$theme/home" NO_AT_BRIDGE=1 MOORING_THEME=$theme
  if [ "$theme" = dark ]; then export GTK_THEME=Adwaita:dark; else export GTK_THEME=Adwaita; fi
  mkdir -p "$HOME"
  m="$MOORING_BIN/mooring"
  src="$tmp/$theme/src"
  mkdir -p "$src/alpha-one" "$src/beta-two"
  "$m" projects new "Alpha One" --code-path "$src/alpha-one" >/dev/null
  "$m" projects new "Beta Two" --code-path "$src/beta-two" --code-path "$src/beta-two-docs" >/dev/null
  "$m" memory add beta-two --kind decision "Leases live in etcd; Consul is out." >/dev/null
  "$m" memory add beta-two --kind blocker "CI runners lack IPv6" >/dev/null
  # A paired phone, away: a question reaches it and the desktop window alike (lib/telegram_standin.py).
  token="123456789:AAwindows-standin-token-$theme-000000"
  python3 "$here/lib/telegram_standin.py" "$tmp/$theme/phone-port" "$token" &
  standin=$!
  for _ in $(seq 1 50); do [ -s "$tmp/$theme/phone-port" ] && break; sleep 0.1; done
  printf '%s\n' "$token" | "$m" remote add telegram --token-file - --api "http://127.0.0.1:$(cat "$tmp/$theme/phone-port")" >/dev/null
  python3 - "$MOORING_HOME/remote.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["telegram"]["paired"] = {"user": "42", "chat": "42", "at": "2026-11-26T00:00:00Z"}
c["telegram"].pop("pairing", None)
c["away"] = True
json.dump(c, open(sys.argv[1], "w"))
PY
  # The stand-in writes only to chats that wrote to the bot, as Telegram does.
  curl -sf -H 'content-type: application/json' -d '{"from": 42, "chat": 42, "text": "help"}' \
    "http://127.0.0.1:$(cat "$tmp/$theme/phone-port")/control/message" >/dev/null
  # Not exec, so the EXIT trap still cleans up.
  PHONE_PORT=$(cat "$tmp/$theme/phone-port") xvfb-run -a -s "-screen 0 1280x900x24" dbus-run-session -- \
    "$tools/mcp1/bin/python" "$here/lib/desktop_windows.py" || { kill "$standin"; exit 1; }
  kill "$standin"
done
