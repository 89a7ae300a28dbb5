#!/usr/bin/env bash
# Context, recall and capture with the real Qwen Code (pinned 0.15.10, from npm via
# scripts/test-tools.sh), set up by `mooring setup qwen-code --hooks` and nothing else,
# offline against the scripted stand-in model over OpenAI's Chat Completions API.
# Headless, Qwen Code runs no SessionStart hook: the session's first prompt must hand the
# model the project's preamble and the note it is about; Mooring's tools, offered through
# the MCP entry setup wrote, must work; and a work session (a file written and edited,
# commands, a commit) must be captured into the project from Qwen Code's own chat file,
# with the token in a command taken out. Its writes into a file another live session
# holds are refused before they run, with whose file it is for the model to read.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
qwen=$(tier_tool qwen) || exit 1
tier_sandbox
mkdir -p "$HOME/.qwen"
# The person's own settings stay: usage statistics off (it would call home otherwise).
cat >"$HOME/.qwen/settings.json" <<'JSON'
{
  // The person's own choices.
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false }
}
JSON
m setup qwen-code --hooks >"$tmp/setup.txt"
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
grep -q "first prompt" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
python3 - "$HOME/.qwen/settings.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
assert "The person's own choices" in text, "the person's comment was lost"
doc = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.M))
assert doc["privacy"] == {"usageStatisticsEnabled": False}, doc
assert doc["mcpServers"]["mooring"]["command"].endswith("mooring"), doc["mcpServers"]
for event in ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd", "PreToolUse"):
    command = doc["hooks"][event][0]["hooks"][0]["command"]
    assert command.endswith(" hook qwen-code"), (event, command)
PY

qwen() {
  (cd "$dir" && OPENAI_API_KEY=sk-standin OPENAI_BASE_URL="http://127.0.0.1:$(cat "$tmp/port")/v1" \
   OPENAI_MODEL=standin-model timeout 180 "$qwen" --auth-type openai -m standin-model -y \
     -o stream-json "$1" >"$tmp/qwen.out" 2>&1) \
  || { echo "qwen failed:"; tail -30 "$tmp/qwen.out"; exit 1; }
}
standin_up
qwen "Which port does the staging database listen on?"

# Qwen Code defers MCP tools: the model fetches them with its tool_search first.
python3 "$lib/model_requests.py" "$tmp/record.jsonl" mcp__mooring__remember
echo "qwen-code: preamble, recall and tools handed to the model"
m memory list ledger --kind decision --json | grep -q "recorded this decision through Mooring" \
  || { echo "the decision remembered through Qwen Code is not in the project"; m memory list ledger --kind decision; exit 1; }

# A work session, captured from Qwen Code's chat file at its Stop hook.
standin_down
export STANDIN_SCRIPT=work
standin_up
qwen "Add a retry helper"
sessions_holding "Add a retry helper"
python3 "$lib/captured_work.py" "$tmp/sessions.json" qwen-code >/dev/null
echo "qwen-code: the work session is captured"

echo "== Its writes into a file another session holds are refused before they run"
standin_down
held_checkout
standin_up
qwen "Add a retry helper"
held_refused "Qwen Code" || { tail -20 "$tmp/qwen.out"; exit 1; }
echo "ok: Qwen Code gets context and recall, Mooring's tools work through it, its sessions are captured, and its writes into a held file are refused before they run"
