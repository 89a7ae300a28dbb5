#!/usr/bin/env bash
# Context, recall and capture with the real opencode (pinned 1.18.33, from npm via
# scripts/test-tools.sh), set up by `mooring setup opencode --hooks` and nothing else,
# offline against the scripted stand-in model over OpenAI's Chat Completions API.
# Mooring's plugin must hand the model, with the session's first prompt, the project's
# preamble and the note the prompt is about; Mooring's tools, offered through the MCP
# entry setup wrote, must work; and a work session (a file written and edited, a todo,
# commands, a commit) must be captured into the project from opencode's database, with
# the token in a command taken out. `--remove` takes the plugin away again.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
opencode=$(tier_tool opencode) || exit 1
tier_sandbox
export XDG_DATA_HOME="$tmp/home/.local/share"
# Nothing of opencode's own reaches out (updates, the model catalogue, language servers).
export OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
  OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_MODELS_FETCH=1
config="$XDG_CONFIG_HOME/opencode"
mkdir -p "$config/node_modules"
# The plugin package opencode installs beside any plugin, as npm would (offline here).
cp -r "$tools/opencode/node_modules/@opencode-ai" "$config/node_modules/"
echo '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}' >"$config/package.json"

# The stand-in, and the person's own settings naming it as the provider (setup keeps them).
opencode_up() {
  standin_up
  cat >"$config/opencode.json" <<JSON
{
  // The person's own choices.
  "provider": { "standin": {
      "npm": "@ai-sdk/openai-compatible", "name": "Stand-in",
      "options": { "baseURL": "http://127.0.0.1:$(cat "$tmp/port")/v1", "apiKey": "sk-standin" },
      "models": { "standin-model": { "name": "Stand-in", "tool_call": true,
                                     "limit": { "context": 128000, "output": 4096 } } } } },
  "model": "standin/standin-model",
  "permission": { "bash": "allow", "edit": "allow" }
}
JSON
  m setup opencode --hooks >"$tmp/setup.txt"
}
run() {
  (cd "$dir" && timeout 180 "$opencode" run --format json -m standin/standin-model "$1" >"$tmp/opencode.out" 2>&1) \
  || { echo "opencode failed:"; tail -30 "$tmp/opencode.out"; exit 1; }
}
opencode_up
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
python3 - "$config" <<'PY'
import json, re, sys
text = open(sys.argv[1] + "/opencode.json").read()
assert "The person's own choices" in text, "the person's comment was lost"
doc = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.M))
entry = doc["mcp"]["mooring"]
assert entry["type"] == "local" and entry["command"][0].endswith("mooring") and entry["command"][1] == "stdio", entry
plugin = open(sys.argv[1] + "/plugin/mooring.js").read()
assert "mooring hook opencode" in plugin and '"hook","opencode"' in plugin.replace(" ", ""), plugin[:400]
PY
m doctor >"$tmp/doctor.txt" 2>&1 || true
grep -q "^ok   opencode: starts $tmp/bin/mooring" "$tmp/doctor.txt" || { grep opencode "$tmp/doctor.txt"; exit 1; }
grep -q "^ok   opencode: session hooks installed (each session gets the project's context with its first prompt)" \
  "$tmp/doctor.txt" || { grep opencode "$tmp/doctor.txt"; exit 1; }
run "Which port does the staging database listen on?"

python3 "$lib/model_requests.py" "$tmp/record.jsonl" mooring_remember
echo "opencode: preamble, recall and tools handed to the model"
m memory list ledger --kind decision --json | grep -q "recorded this decision through Mooring" \
  || { echo "the decision remembered through opencode is not in the project"; m memory list ledger --kind decision; exit 1; }

# A work session, captured from opencode's database when the session goes idle.
standin_down
export STANDIN_SCRIPT=work
opencode_up
run "Add a retry helper"
sessions_holding "NOTES.md"
title=$(python3 "$lib/captured_work.py" "$tmp/sessions.json" opencode "created retry.py" "Document the retry policy")
[ "$title" = "Session: Add a retry helper" ] || { echo "the quotes opencode run adds were kept: $title"; exit 1; }
echo "opencode: the work session is captured"
m setup opencode --remove >/dev/null
[ ! -e "$config/plugin/mooring.js" ] || { echo "--remove left the plugin"; exit 1; }
echo "ok: opencode gets context and recall, Mooring's tools work through it, and its sessions are captured"
