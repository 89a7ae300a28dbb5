#!/usr/bin/env bash
# Context, recall and capture with the real Pi (pinned 0.73.1, from npm via
# scripts/test-tools.sh), set up by `mooring setup pi` and nothing else, offline against
# the scripted stand-in model over OpenAI's Chat Completions API. Pi has no MCP and no
# hook that speaks at a session's start: Mooring's extension must hand the model, with
# the session's first prompt, the project's preamble and the note the prompt is about;
# the next prompt gets its recall but not the preamble again; a work session (a file
# written and edited, commands, a commit) must be captured into the project from Pi's own
# session file, with the token in a command taken out; `--remove` takes the extension
# away, and a session after that is neither handed anything nor kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
source tests/e2e/lib/standin.sh
pi=$(tier_tool pi) || exit 1
tier_sandbox
# No update check, no telemetry: nothing of Pi's own reaches out.
export PI_OFFLINE=1 PI_TELEMETRY=0
agent="$HOME/.pi/agent"

m setup pi >"$tmp/setup.txt"
grep -q "Mooring's extension written to $agent/extensions/mooring.ts" "$tmp/setup.txt" \
  || { cat "$tmp/setup.txt"; exit 1; }
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
grep -q "no MCP servers" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
grep -q "mooring hook pi" "$agent/extensions/mooring.ts"
m setup --list >"$tmp/list.txt"
grep -Eq "^pi +yes +hooks +capture, recall" "$tmp/list.txt" || { cat "$tmp/list.txt"; exit 1; }
m doctor >"$tmp/doctor.txt" 2>&1 || true
grep -q "^ok   Pi: Mooring's extension installed" "$tmp/doctor.txt" || { grep -i "pi" "$tmp/doctor.txt"; exit 1; }

run() {
  (cd "$dir" && timeout 180 "$pi" --provider standin --model standin-model ${PI_ARGS:-} -p "$1" >"$tmp/pi.out" 2>&1) \
  || { echo "pi failed:"; tail -30 "$tmp/pi.out"; exit 1; }
}
client_up() {
  standin_up
  pi_standin_models "http://127.0.0.1:$(cat "$tmp/port")" >"$agent/models.json"
}
client_up
run "Which port does the staging database listen on?"
# The session goes on: its next prompt gets its own recall, and the preamble only once.
m memory add ledger --kind note "Invoice exports run nightly at 02:00 UTC" >/dev/null
PI_ARGS=--continue run "When do the invoice exports run?"
python3 - "$tmp/record.jsonl" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e/lib")
from model_requests import bodies
turns = [b for _, b in bodies(sys.argv[1]) if b.get("messages")]
assert len(turns) >= 2, f"{len(turns)} requests"
first, second = json.dumps(turns[0]), json.dumps(turns[-1])
assert "Invoices are split per tenant before export" in first, "no preamble with the session's first prompt"
assert "6543" in first, "the note the first prompt is about was not recalled"
assert second.count("Invoices are split per tenant before export") == 1, "the preamble was handed over twice"
assert "quoted records, not instructions" in first, "Mooring's context is not marked as quoted records"
assert "02:00 UTC" not in first and "02:00 UTC" in second, "the second prompt was not handed its own recall"
PY
echo "pi: preamble and recall handed to the model with the prompts"

# A work session, captured from Pi's session file at the run's end.
standin_down
export STANDIN_SCRIPT=work
client_up
run "Add a retry helper"
# The new session was handed the last one's record.
python3 - "$tmp/record.jsonl" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e/lib")
from model_requests import bodies
first = [json.dumps(b) for _, b in bodies(sys.argv[1]) if "Add a retry helper" in json.dumps(b)][0]
assert "Last session" in first and "When do the invoice exports run?" in first, "the last record was not handed over"
PY
sessions_holding "NOTES.md"
captured=$(python3 "$lib/captured_work.py" "$tmp/sessions.json" pi "wrote retry.py")
[ "$captured" = "Session: Add a retry helper" ] || { echo "unexpected record title: $captured"; exit 1; }
echo "pi: the work session is captured"

# Taken away, nothing of Mooring's runs.
m setup pi --remove >/dev/null
[ ! -e "$agent/extensions/mooring.ts" ] || { echo "--remove left the extension"; exit 1; }
: >"$tmp/record.jsonl"
before=$(m memory list ledger --kind session --json | grep -c '"id"' || true)
run "Add a retry helper"
sleep 1
! grep -q "Invoices are split" "$tmp/record.jsonl" || { echo "context handed over after --remove"; exit 1; }
after=$(m memory list ledger --kind session --json | grep -c '"id"' || true)
[ "$before" = "$after" ] || { echo "a session was kept after --remove ($before → $after)"; exit 1; }
echo "ok: Pi gets context and recall from Mooring's extension, and its sessions are captured"
