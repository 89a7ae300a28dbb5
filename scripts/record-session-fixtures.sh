#!/usr/bin/env bash
# Records the session files capture is tested on, from the pinned real clients (scripts/
# test-tools.sh) against the scripted stand-in model (STANDIN_SCRIPT=work): Codex's
# rollout file and Gemini CLI's chat file of a session that writes and edits a file,
# runs a command carrying a token, renames and deletes files and commits — plus what
# each client hands its hooks. Then (STANDIN_SCRIPT=real) Claude Code's transcript of what
# real sessions do: a slash command with arguments, `cd` before writing, an edit and a
# command the permission system refuses, a subagent that writes a file (its own
# transcript too), a prompt over 1 MiB, and `/compact` with the model's summary.
# Writes into crates/core/tests/fixtures/. Run by hand when a pinned client changes
# (`claude-real` records only the last part); the tests read the files it wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/crates/core/tests/fixtures"
lib="$PWD/tests/e2e/lib"
# shellcheck source=../tests/e2e/lib/standin.sh
. "$lib/standin.sh"
agents="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/agents/node_modules/.bin"
cline_bin="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/cline/node_modules/.bin/cline"
pi_bin="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/pi/node_modules/.bin/pi"
tmp=/tmp/rec
rm -rf "$tmp"; mkdir -p "$tmp"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME/.codex" "$HOME/.gemini"
# Each hook keeps its input; the start and prompt hooks also hand the model context, as
# Mooring's do, so the session files show where the clients put it.
cat >"$tmp/dump.sh" <<SH
#!/bin/sh
cat >"$tmp/hook-\$1.json"
case "\$1" in
  *SessionStart|*BeforeAgent|*UserPromptSubmit) echo '{"hookSpecificOutput":{"hookEventName":"'"\${1#*-}"'","additionalContext":"Context from a hook"}}' ;;
  *) echo '{}' ;;
esac
SH
chmod +x "$tmp/dump.sh"
STANDIN_SCRIPT=work python3 "$lib/model_standin.py" "$tmp/port" "$tmp/record.jsonl" &
standin=$!
trap 'kill $standin 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
model="http://127.0.0.1:$(cat "$tmp/port")"
{ codex_standin_toml "$model"; printf '\n[features]\nhooks = true\n'; } >"$HOME/.codex/config.toml"
hook() { echo "\"$2\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"$tmp/dump.sh $1-$2\"}]}]"; }
echo "{\"hooks\": {$(hook codex SessionStart), $(hook codex UserPromptSubmit), $(hook codex Stop)}}" >"$HOME/.codex/hooks.json"
echo "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}, \"hooks\": {$(hook gemini SessionStart), $(hook gemini BeforeAgent), $(hook gemini AfterAgent), $(hook gemini SessionEnd)}}" \
  >"$HOME/.gemini/settings.json"
repo() {
  mkdir -p "$1" && cd "$1" && git init -q && git config user.email a@example.test && git config user.name A
  touch notes.txt old_retry.py && git add -A && git commit -qm init
}
# shellcheck source=../tests/e2e/lib/real_checkout.sh
. "$lib/real_checkout.sh"
record_claude_real() {
  STANDIN_SCRIPT=real python3 "$lib/model_standin.py" "$tmp/port-real" "$tmp/record-real.jsonl" &
  local real=$!
  for _ in $(seq 1 50); do [ -s "$tmp/port-real" ] && break; sleep 0.1; done
  local dir="$tmp/real" sid=7c0ffee0-1234-4abc-9def-0123456789ab
  real_checkout "$dir" "$tmp/upstream"
  echo '{ "numStartups": 3 }' >"$HOME/.claude.json"
  mkdir -p "$HOME/.claude"
  echo "{\"hooks\": {$(hook claude SubagentStop), $(hook claude Stop)}}" >"$HOME/.claude/settings.json"
  claude() {
    (cd "$dir/${CD:-}" && ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$tmp/port-real")" ANTHROPIC_API_KEY=sk-standin \
       ENABLE_TOOL_SEARCH=false DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
       timeout 180 "$agents/claude" -p "$@") >>"$tmp/claude-real.out" 2>&1
  }
  claude "/review the auth module" --session-id "$sid" --allowedTools "$REAL_TOOLS"
  python3 -c "print('Why does this log repeat? ' + 'GET /health 200 ' * 80000)" >"$tmp/big-prompt.txt"
  claude --resume "$sid" <"$tmp/big-prompt.txt"
  claude /compact --resume "$sid"
  kill "$real"
  local v t
  v=$("$agents/claude" --version | awk '{print $1}')
  t=$(ls "$HOME"/.claude/projects/*/"$sid.jsonl")
  cp "$t" "$out/claude-code-$v-real.jsonl"
  cp "$(ls "${t%.jsonl}"/subagents/agent-*.jsonl | head -1)" "$out/claude-code-$v-real-subagent.jsonl"
  cp "$tmp/hook-claude-SubagentStop.json" "$out/claude-code-$v-subagent-stop-hook.json"
}
# Cline 3.0.65 (`cline`): its session file and what its hook scripts are handed.
record_cline() {
  local bin="$cline_bin"
  local hooks="$HOME/.cline/hooks"
  mkdir -p "$hooks" "$HOME/.cline/data/settings"
  echo '{"telemetryOptOut": true, "autoUpdateEnabled": false}' >"$HOME/.cline/data/settings/global-settings.json"
  for e in TaskStart PreToolUse PostToolUse TaskComplete; do
    printf '#!/bin/sh\ncat >"%s/hook-cline-%s.json"\necho "{}"\n' "$tmp" "$e" >"$hooks/$e"
    chmod +x "$hooks/$e"
  done
  rm -rf "$tmp/work"; repo "$tmp/work"
  export CLINE_SESSION_BACKEND_MODE=local
  "$bin" auth -p openai-compatible -k sk-standin -b "$model/v1" -m standin >/dev/null
  timeout 120 "$bin" --json "Add a retry helper" >"$tmp/cline.out" 2>&1
  local v
  v=$("$bin" --version | awk '{print $NF}')
  cp "$(ls "$HOME"/.cline/data/sessions/*/*.messages.json)" "$out/cline-$v-work.messages.json"
  mkdir -p "$out/../../../clients/tests/fixtures/cline-$v"
  for e in TaskStart PreToolUse TaskComplete; do
    cp "$tmp/hook-cline-$e.json" "$out/../../../clients/tests/fixtures/cline-$v/$e.json"
  done
}
# Pi 0.73.1 (`pi`): its session file, and what Mooring's own extension (written by
# `mooring setup pi`, running a dump in Mooring's place) hands its hooks.
record_pi() {
  local bin="$pi_bin"
  local dump="$tmp/pi-dump.sh"
  # The event is the last argument.
  printf '#!/bin/sh\nfor e; do :; done\ncat >"%s/hook-pi-$e.json"\n[ "$e" = before_agent_start ] && echo %s\nexit 0\n' \
    "$tmp" "'{\"additionalContext\":\"Context from a hook\"}'" >"$dump"
  chmod +x "$dump"
  "${MOORING_BIN:-$PWD/target/debug}/mooring" --data-dir "$tmp/data" setup pi --binary "$dump" >/dev/null
  pi_standin_models "$model" >"$HOME/.pi/agent/models.json"
  rm -rf "$tmp/work"; repo "$tmp/work"
  PI_OFFLINE=1 timeout 120 "$bin" --provider standin --model standin-model -p "Add a retry helper" >"$tmp/pi.out" 2>&1
  local v
  v=$("$bin" --version 2>&1)
  cp "$(ls "$HOME"/.pi/agent/sessions/*/*.jsonl)" "$out/pi-$v-work.jsonl"
  mkdir -p "$out/../../../clients/tests/fixtures/pi-$v"
  for e in before_agent_start agent_end session_shutdown; do
    cp "$tmp/hook-pi-$e.json" "$out/../../../clients/tests/fixtures/pi-$v/$e.json"
  done
}
if [ "${1:-}" = pi ]; then
  record_pi
  exit 0
fi
if [ "${1:-}" = cline ]; then
  record_cline
  exit 0
fi
if [ "${1:-}" = claude-real ]; then
  record_claude_real
  ls -la "$out"
  exit 0
fi

repo "$tmp/work"
STANDIN_API_KEY=x timeout 120 "$agents/codex" exec --skip-git-repo-check --dangerously-bypass-hook-trust \
  --dangerously-bypass-approvals-and-sandbox "Add a retry helper" >"$tmp/codex.out" 2>&1
v=$("$agents/codex" --version | awk '{print $NF}')
cp "$(ls "$HOME"/.codex/sessions/*/*/*/rollout-*.jsonl)" "$out/codex-$v-work.jsonl"
cp "$tmp/hook-codex-Stop.json" "$out/codex-$v-stop-hook.json"
rm -rf "$tmp/work"; repo "$tmp/work"
GEMINI_API_KEY=x GOOGLE_GEMINI_BASE_URL="$model" GEMINI_CLI_TRUST_WORKSPACE=true timeout 120 "$agents/gemini" \
  -p "Add a retry helper" --approval-mode yolo >"$tmp/gemini.out" 2>&1
v=$("$agents/gemini" --version)
cp "$(ls "$HOME"/.gemini/tmp/*/chats/session-*.jsonl)" "$out/gemini-cli-$v-work.jsonl"
cp "$tmp/hook-gemini-AfterAgent.json" "$out/gemini-cli-$v-after-agent-hook.json"
record_claude_real
ls -la "$out"
