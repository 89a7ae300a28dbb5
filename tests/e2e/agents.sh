#!/usr/bin/env bash
# Real agent clients, as a person runs them: Claude Code, Codex and Gemini CLI (pinned,
# from npm via scripts/test-tools.sh), each registered by `mooring setup CLIENT --hooks`
# (never by hand) on top of settings the person already had, each running one
# non-interactive turn from a subdirectory of a registered project while two projects
# exist and the hub (`mooring serve`) runs. Their model is a scripted stand-in on
# 127.0.0.1 (lib/model_standin.py) that calls get_last_handover, remember and
# project_context and records every request. Each client must get answers decided by
# where it runs (no question, no auto-selection), the memory it wrote must be visible
# through the CLI, and the project's preamble (from the session hook) must be in what the
# client sent its model. Then `mooring doctor` must find nothing to fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
lib="$PWD/tests/e2e/lib"
# shellcheck source=lib/standin.sh
. "$lib/standin.sh"
agents="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/agents/node_modules/.bin"
# The hooks give up at 180 ms so a slow answer never holds the client; a debug build on a
# busy CI machine (Gemini CLI starts node while its hook runs) can miss that and inject
# nothing, which failed this tier twice in full CI runs. It checks what is injected, not
# how fast (bench/benches/hook.rs times the release build).
export MOORING_HOOK_DEADLINE_MS=4500
for c in claude codex gemini; do
  [ -x "$agents/$c" ] || { echo "$agents/$c is missing: run scripts/test-tools.sh"; exit 1; }
done
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT

# A scratch home: every client config, cache and log lands there.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME" "$tmp/bin" "$tmp/code/le/src/deep" "$tmp/code/payments"
# Installed as scripts/start.sh does (setup refuses a build directory).
install -m 0755 "$MOORING_BIN/mooring" "$tmp/bin/mooring"
data="$tmp/data"
m() { "$tmp/bin/mooring" --data-dir "$data" "$@"; }
m projects new "Leader Election" --slug le --code-path "$tmp/code/le" >/dev/null
m projects new "Payments" --code-path "$tmp/code/payments" >/dev/null
marker="PREAMBLE-MARK-7Q2"
m memory add le --kind decision "Elections use raft ($marker)" >/dev/null

python3 "$lib/model_standin.py" "$tmp/port" "$tmp/record.jsonl" &
pids+=($!)
"$tmp/bin/mooring" --data-dir "$data" serve --port 0 --json >"$tmp/serve.json" 2>"$tmp/serve.log" &
pids+=($!)
for _ in $(seq 1 100); do [ -s "$tmp/port" ] && grep -q '"url"' "$tmp/serve.json" 2>/dev/null && break; sleep 0.1; done
port=$(cat "$tmp/port")
model="http://127.0.0.1:$port"

# What the person already had in each client's settings (kept by setup).
mkdir -p "$HOME/.codex" "$HOME/.gemini"
{ echo "# my codex settings"; codex_standin_toml "$model"; } >"$HOME/.codex/config.toml"
cat >"$HOME/.gemini/settings.json" <<JSON
{
  // my gemini settings
  "security": { "auth": { "selectedType": "gemini-api-key" } }
}
JSON
echo '{ "numStartups": 3 }' >"$HOME/.claude.json"

for client in claude-code codex gemini-cli; do
  m setup "$client" --hooks >"$tmp/setup-$client.txt"
  grep -q "written to" "$tmp/setup-$client.txt" || { cat "$tmp/setup-$client.txt"; exit 1; }
done
grep -q "# my codex settings" "$HOME/.codex/config.toml" || { echo "setup lost the person's codex settings"; exit 1; }
grep -q "// my gemini settings" "$HOME/.gemini/settings.json" || { echo "setup lost the person's gemini comment"; exit 1; }
grep -q '"numStartups": 3' "$HOME/.claude.json" || { echo "setup lost the person's claude settings"; exit 1; }

run_turn() {
  local client=$1; shift
  : >"$tmp/record.jsonl"
  if ! (cd "$tmp/code/le/src/deep" && timeout 180 "$@" >"$tmp/$client.out" 2>&1); then
    echo "$client failed:"; tail -40 "$tmp/$client.out"; exit 1
  fi
  cp "$tmp/record.jsonl" "$tmp/record-$client.jsonl"
  python3 "$lib/check_agent_run.py" "$tmp/record-$client.jsonl" "$client" "$marker" le
  m memory list le | grep -q "Decided through $client" \
    || { echo "$client: the memory it wrote is not in the project"; m memory list le; exit 1; }
}

echo "== Claude Code $("$agents/claude" --version)"
ANTHROPIC_BASE_URL="$model" ANTHROPIC_API_KEY=sk-standin ENABLE_TOOL_SEARCH=false DISABLE_AUTOUPDATER=1 \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
  run_turn claude-code "$agents/claude" -p "Record the decision we just made." --allowedTools mcp__mooring

echo "== $("$agents/codex" --version)"
# Codex runs a hook only once the person trusted it in its /hooks screen; this turn stands
# in for that with its own flag (setup says so).
STANDIN_API_KEY=x run_turn codex "$agents/codex" exec --skip-git-repo-check --dangerously-bypass-hook-trust \
  "Record the decision we just made."

echo "== Gemini CLI $("$agents/gemini" --version)"
GEMINI_API_KEY=x GOOGLE_GEMINI_BASE_URL="$model" GEMINI_CLI_TRUST_WORKSPACE=true \
  run_turn gemini-cli "$agents/gemini" -p "Record the decision we just made." --approval-mode yolo
if grep -q "unknown format" "$tmp/gemini-cli.out"; then
  echo "Gemini CLI warned about Mooring's tool schemas:"; grep -m3 "unknown format" "$tmp/gemini-cli.out"; exit 1
fi

echo "== no question was asked"
[ "$(m choice list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["open"]))')" = 0 ] \
  || { echo "a question is waiting:"; m choice list; exit 1; }
echo "== mooring doctor"
PATH="$agents:$PATH" m doctor || { echo "doctor found something to fix after setup"; exit 1; }
echo "ok: 3 clients, 9 calls, all decided by where they ran"
