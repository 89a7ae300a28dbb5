#!/usr/bin/env bash
# The phone, away from the desk, over Telegram: a real `mooring serve` runs the bot
# against a stand-in of the Bot API written from its published reference (no platform
# can be reached from the test machines). Pairing with the code `mooring remote add`
# prints, strangers and replayed buttons refused, seed 003's commands checked through
# the CLI, questions in away mode answered with buttons, toggles and a reply, a question
# answered on the page first, and an outage that loses and doubles nothing. The token
# never reaches the log or the command line.
set -euo pipefail
cd "$(dirname "$0")/../.."
lib="$PWD/tests/e2e/lib"
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
data="$tmp/data"
m() { "$MOORING_BIN/mooring" --data-dir "$data" "$@"; }
token="123456789:AAstandin-token-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

python3 "$lib/telegram_standin.py" "$tmp/port" "$token" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")

m projects new "Leader Election" >/dev/null
echo '{ "wait_limit_seconds": 1 }' >"$data/choice-settings.json"
# A token on the command line would show in every process listing: only a file or stdin.
if m remote add telegram --token "$token" >/dev/null 2>&1; then echo "a token was taken from the command line"; exit 1; fi
printf '%s\n' "$token" | m remote add telegram --token-file - --api "http://127.0.0.1:$port" --json >"$tmp/add.json"
code=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['pairing_code'])" "$tmp/add.json")
[ "$(stat -c %a "$data/remote.json")" = 600 ] || { echo "remote.json is not private"; exit 1; }
if m remote add telegram --token-file - --api "http://api.telegram.example" <<<"$token" >/dev/null 2>&1; then
  echo "a token was sent over plain HTTP to another machine"; exit 1
fi

MOORING_LOG=debug "$MOORING_BIN/mooring" --data-dir "$data" serve --port 0 --json >"$tmp/serve.json" 2>"$tmp/serve.log" &
pids+=($!)
for _ in $(seq 1 100); do grep -q '"url"' "$tmp/serve.json" 2>/dev/null && break; sleep 0.1; done
base=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['url'].removesuffix('/mcp'))" "$tmp/serve.json")

PYTHONPATH="$lib" python3 "$lib/remote_checks.py" "$port" "$base" "$data" "$MOORING_BIN/mooring" "$code" \
  || { echo "--- serve.log"; tail -30 "$tmp/serve.log"; exit 1; }
grep -q "refused a message from someone who is not the paired person" "$tmp/serve.log" \
  || { echo "the stranger's message was not logged"; exit 1; }
if grep -qF "${token#*:}" "$tmp/serve.log"; then echo "the bot token reached the log"; exit 1; fi
echo "ok: paired, strangers and replays refused, commands and questions from the phone, an outage survived"
