#!/usr/bin/env bash
# Context and recall with the real GitHub Copilot CLI (pinned 1.0.102, from npm via
# scripts/test-tools.sh), set up by `mooring setup copilot-cli --hooks` and nothing else,
# offline against the scripted stand-in model over Anthropic's Messages API. A session in
# a registered project's checkout must hand its model the project's preamble (at the
# session's start) and the note its prompt is about (at the prompt), and Mooring's tools,
# offered through the MCP entry setup wrote, must work: the model's remember lands in the
# project. The session is captured once Copilot CLI has written its session file, which
# it does only as it exits, after its last hook. Its writes into a file another live
# session holds are refused before they run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
copilot=$(tier_tool copilot) || exit 1
# Copilot CLI unpacks itself into its cache at its first run: one cache for every run.
export XDG_CACHE_HOME="$tools/copilot/cache"
tier_sandbox

m setup copilot-cli --hooks >"$tmp/setup.txt"
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
hooks="$HOME/.copilot/hooks/mooring.json"
python3 - "$hooks" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["version"] == 1, doc
start, prompt = doc["hooks"]["sessionStart"][0], doc["hooks"]["userPromptSubmitted"][0]
assert start["bash"].endswith(" hook copilot-cli sessionStart"), start
assert prompt["bash"].endswith(" hook copilot-cli userPromptSubmitted"), prompt
stop = doc["hooks"]["agentStop"][0]
assert stop["bash"].endswith(" hook copilot-cli agentStop"), stop
pre = doc["hooks"]["preToolUse"][0]
assert pre["bash"].endswith(" hook copilot-cli preToolUse"), pre
PY

standin_up
copilot() {
  (cd "$dir" && COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_ALLOW_ALL=true \
   COPILOT_PROVIDER_TYPE=anthropic COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$(cat "$tmp/port")" \
   COPILOT_PROVIDER_API_KEY=sk-standin COPILOT_MODEL=claude-sonnet-4-5 \
   timeout 180 "$copilot" -p "$1" --allow-all-tools \
     --output-format json --disable-client-telemetry >"$tmp/copilot.out" 2>&1) \
  || { echo "copilot failed:"; tail -30 "$tmp/copilot.out"; exit 1; }
}
copilot "Which port does the staging database listen on?"

python3 "$lib/model_requests.py" "$tmp/record.jsonl" mooring-remember
echo "copilot-cli: preamble, recall and tools handed to the model"
# The stand-in called Mooring's tools through Copilot CLI (get_last_handover, remember,
# project_context): the decision it remembered is in the project the checkout decides.
m memory list ledger --kind decision --json | grep -q "recorded this decision through Mooring" \
  || { echo "the decision remembered through Copilot CLI is not in the project"; m memory list ledger --kind decision; exit 1; }
# Captured by the waiter its agentStop hook left behind, once the file was written.
sessions_holding "Which port does the staging database listen on"
python3 - "$tmp/sessions.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
assert "copilot-cli" in text and "remember" in text, text[:1500]
print("copilot-cli: the session is captured after it exits")
PY

# Its writes into a file another session holds are refused before they run.
standin_down
held_checkout
export STANDIN_SCRIPT=work
standin_up
copilot "Add a retry helper"
held_refused "Copilot CLI" || { tail -20 "$tmp/copilot.out"; exit 1; }
echo "copilot-cli: its writes into a held file are refused before they run"
echo "ok: Copilot CLI gets context and recall, Mooring's tools work through it, its session is captured, and its writes into a held file are refused"
