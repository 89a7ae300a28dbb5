#!/usr/bin/env bash
# Context, recall and capture with the real Kilo CLI (pinned 7.7.7, a fork of opencode,
# from npm via scripts/test-tools.sh), set up by `mooring setup kilo --hooks` and nothing
# else, offline against the scripted stand-in model over OpenAI's Chat Completions API.
# Mooring's plugin must hand the model, with the session's first prompt, the project's
# preamble and the note the prompt is about; Mooring's tools, offered through the MCP
# entry setup wrote, must work; and a work session (a file written and edited, a todo,
# commands, a commit) must be captured into the project from Kilo's database, with the
# token in a command taken out. `--remove` takes the plugin away again.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
kilo=$(tier_tool kilo) || exit 1
tier_sandbox
export XDG_DATA_HOME="$tmp/home/.local/share"
# Nothing of Kilo's own reaches out (updates, telemetry, the model catalogue, language
# servers, its gateway's session upload); its gateway's model list fails fast, offline.
export KILO_DISABLE_AUTOUPDATE=1 KILO_DISABLE_DEFAULT_PLUGINS=1 KILO_DISABLE_LSP_DOWNLOAD=1 \
  KILO_DISABLE_SHARE=1 KILO_DISABLE_MODELS_FETCH=1 KILO_TELEMETRY_LEVEL=off KILO_DISABLE_SESSION_INGEST=1 \
  KILO_DISABLE_PRESENCE=1 KILO_DISABLE_CODEBASE_INDEXING=1
config="$XDG_CONFIG_HOME/kilo"
mkdir -p "$config/node_modules"
# The plugin package Kilo installs beside any plugin, as npm would (offline here; the
# registry's newest is 7.3.1, older than the CLI, and Kilo takes it).
mkdir -p "$config/node_modules/@kilocode"
cp -r "$tools/kilo/node_modules/@kilocode/plugin" "$tools/kilo/node_modules/@kilocode/sdk" \
  "$config/node_modules/@kilocode/"
echo '{"dependencies":{"@kilocode/plugin":"7.3.1"}}' >"$config/package.json"

# The stand-in, and the person's own settings naming it as the provider (setup keeps them).
kilo_up() {
  standin_up
  cat >"$config/kilo.json" <<JSON
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
  m setup kilo --hooks >"$tmp/setup.txt"
}
run() {
  (cd "$dir" && timeout 180 "$kilo" run --format json -m standin/standin-model "$1" >"$tmp/kilo.out" 2>&1) \
  || { echo "kilo failed:"; tail -30 "$tmp/kilo.out"; exit 1; }
}
kilo_up
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
python3 - "$config" <<'PY'
import json, re, sys
text = open(sys.argv[1] + "/kilo.json").read()
assert "The person's own choices" in text, "the person's comment was lost"
doc = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.M))
entry = doc["mcp"]["mooring"]
assert entry["type"] == "local" and entry["command"][0].endswith("mooring") and entry["command"][1] == "stdio", entry
plugin = open(sys.argv[1] + "/plugin/mooring.js").read()
assert "mooring hook kilo" in plugin and '"hook","kilo"' in plugin.replace(" ", ""), plugin[:400]
assert '"kilo","kilo.db"' in plugin.replace(" ", ""), plugin[:600]
PY
m doctor >"$tmp/doctor.txt" 2>&1 || true
grep -q "^ok   Kilo CLI: starts $tmp/bin/mooring" "$tmp/doctor.txt" || { grep -i kilo "$tmp/doctor.txt"; exit 1; }
grep -q "^ok   Kilo CLI: session hooks installed (each session gets the project's context with its first prompt)" \
  "$tmp/doctor.txt" || { grep -i kilo "$tmp/doctor.txt"; exit 1; }
run "Which port does the staging database listen on?"

python3 "$lib/model_requests.py" "$tmp/record.jsonl" mooring_remember
echo "kilo: preamble, recall and tools handed to the model"
m memory list ledger --kind decision --json | grep -q "recorded this decision through Mooring" \
  || { echo "the decision remembered through Kilo is not in the project"; m memory list ledger --kind decision; exit 1; }

# A work session, captured from Kilo's database when the session goes idle.
standin_down
export STANDIN_SCRIPT=work
kilo_up
run "Add a retry helper"
sessions_holding "NOTES.md"
title=$(python3 "$lib/captured_work.py" "$tmp/sessions.json" kilo "created retry.py" "Document the retry policy")
[ "$title" = "Session: Add a retry helper" ] || { echo "the quotes kilo run adds were kept: $title"; exit 1; }
echo "kilo: the work session is captured"
m setup kilo --remove >/dev/null
[ ! -e "$config/plugin/mooring.js" ] || { echo "--remove left the plugin"; exit 1; }
echo "ok: Kilo gets context and recall, Mooring's tools work through it, and its sessions are captured"
