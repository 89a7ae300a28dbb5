# The body of the tiers of opencode and its fork Kilo (sourced by tests/e2e/opencode.sh
# and tests/e2e/kilo.sh once they have set up their sandbox): the same plugin hooks, the
# same database, under the client's own names. Expects `name` (the command, its setup
# name and its config folder's), `title` (its name in doctor's lines), `bin` (the client)
# and `config` (its config folder, holding the plugin package it would fetch from npm).

# The stand-in, and the person's own settings naming it as the provider (setup keeps them).
client_up() {
  standin_up
  cat >"$config/$name.json" <<JSON
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
  m setup "$name" --hooks >"$tmp/setup.txt"
}
run() {
  (cd "$dir" && timeout 180 "$bin" run --format json -m standin/standin-model "$1" >"$tmp/$name.out" 2>&1) \
  || { echo "$name failed:"; tail -30 "$tmp/$name.out"; exit 1; }
}
client_up
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
python3 - "$config" "$name" <<'PY'
import json, re, sys
config, name = sys.argv[1], sys.argv[2]
text = open(f"{config}/{name}.json").read()
assert "The person's own choices" in text, "the person's comment was lost"
doc = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.M))
entry = doc["mcp"]["mooring"]
assert entry["type"] == "local" and entry["command"][0].endswith("mooring") and entry["command"][1] == "stdio", entry
plugin = open(config + "/plugin/mooring.js").read()
assert f"mooring hook {name}" in plugin and f'"hook","{name}"' in plugin.replace(" ", ""), plugin[:400]
assert f'"{name}","{name}.db"' in plugin.replace(" ", ""), plugin[:600]
PY
m doctor >"$tmp/doctor.txt" 2>&1 || true
grep -q "^ok   $title: starts $tmp/bin/mooring" "$tmp/doctor.txt" || { grep -i "$name" "$tmp/doctor.txt"; exit 1; }
grep -q "^ok   $title: session hooks installed (each session gets the project's context with its first prompt)" \
  "$tmp/doctor.txt" || { grep -i "$name" "$tmp/doctor.txt"; exit 1; }
run "Which port does the staging database listen on?"

python3 "$lib/model_requests.py" "$tmp/record.jsonl" mooring_remember
echo "$name: preamble, recall and tools handed to the model"
m memory list ledger --kind decision --json | grep -q "recorded this decision through Mooring" \
  || { echo "the decision remembered through $title is not in the project"; m memory list ledger --kind decision; exit 1; }

# A work session, captured from the client's database when the session goes idle.
standin_down
export STANDIN_SCRIPT=work
client_up
run "Add a retry helper"
sessions_holding "NOTES.md"
captured=$(python3 "$lib/captured_work.py" "$tmp/sessions.json" "$name" "created retry.py" "Document the retry policy")
[ "$captured" = "Session: Add a retry helper" ] || { echo "the quotes $name run adds were kept: $captured"; exit 1; }
echo "$name: the work session is captured"

# Its writes into a file another session holds are refused before they run.
standin_down
held_checkout
client_up
run "Add a retry helper"
held_refused "$title" || { tail -20 "$tmp/$name.out"; exit 1; }
echo "$name: its writes into a held file are refused before they run"
m setup "$name" --remove >/dev/null
[ ! -e "$config/plugin/mooring.js" ] || { echo "--remove left the plugin"; exit 1; }
echo "ok: $title gets context and recall, Mooring's tools work through it, its sessions are captured, and its writes into a held file are refused"
