#!/usr/bin/env bash
# Context and capture with the real Cline (pinned 3.0.65, from npm via
# scripts/test-tools.sh), set up by `mooring setup cline --hooks` and nothing else,
# offline against the scripted stand-in model over OpenAI's Chat Completions API. Cline
# reads what a hook says only at a tool call: the session's first tool call must hand the
# model the project's preamble, once; and the work session (a file written and edited,
# commands, a commit) must be captured from Cline's own session file at its TaskComplete
# hook, with the token in a command taken out. A write into a file another live session
# holds stops its task before the write.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
cline=$(tier_tool cline) || exit 1
tier_sandbox
# Telemetry off, as a person would set it (it would call home otherwise); no hub daemon.
mkdir -p "$HOME/.cline/data/settings" "$HOME/.cline/hooks"
echo '{"telemetryOptOut": true, "autoUpdateEnabled": false}' >"$HOME/.cline/data/settings/global-settings.json"
export CLINE_SESSION_BACKEND_MODE=local
# The person's own hook for an event Mooring uses stays, and runs too.
printf '#!/bin/sh\ncat >"%s/their-hook.json"\necho "{}"\n' "$tmp" >"$HOME/.cline/hooks/TaskComplete"
chmod +x "$HOME/.cline/hooks/TaskComplete"
m setup cline --hooks >"$tmp/setup.txt"
grep -q "now captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
grep -q "first tool call" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
for e in PreToolUse TaskComplete TaskCancel PreCompact SessionShutdown; do
  [ -x "$HOME/.cline/hooks/$e.bash" ] || { echo "no executable $e.bash"; ls -la "$HOME/.cline/hooks"; exit 1; }
done
grep -q '"mooring"' "$HOME/.cline/data/settings/cline_mcp_settings.json" \
  || { echo "no MCP entry"; cat "$HOME/.cline/data/settings/cline_mcp_settings.json"; exit 1; }
m doctor >"$tmp/doctor.txt" 2>&1 || true
grep -q "Cline: session hooks installed (each session gets the project's context with its first tool call)" "$tmp/doctor.txt" \
  || { grep -i cline "$tmp/doctor.txt"; exit 1; }

export STANDIN_SCRIPT=work
standin_up
"$cline" auth -p openai-compatible -k sk-standin -b "http://127.0.0.1:$(cat "$tmp/port")/v1" -m standin >/dev/null
(cd "$dir" && timeout 180 "$cline" --json "Add a retry helper" >"$tmp/cline.out" 2>&1) \
  || { echo "cline failed:"; tail -30 "$tmp/cline.out"; exit 1; }
[ -s "$tmp/their-hook.json" ] || { echo "the person's own TaskComplete hook did not run"; exit 1; }

# The preamble reached the model with the first tool call's result, once.
python3 - "$tmp/record.jsonl" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e/lib")
from model_requests import bodies
turns = [b for _, b in bodies(sys.argv[1]) if b.get("tools")]
assert turns, "Cline never reached the stand-in model"
assert "Invoices are split per tenant before export" not in json.dumps(turns[0]), "context before any tool call?"
last = json.dumps(turns[-1])
assert last.count("Invoices are split per tenant before export") == 1, "the preamble did not come once"
PY
echo "cline: the preamble came with the first tool call, once"
sessions_holding "Add a retry helper"
python3 "$lib/captured_work.py" "$tmp/sessions.json" cline >/dev/null
echo "cline: the work session is captured"

# A write into a file another session holds: Cline cannot refuse one tool, so its task
# stops before the write, with the reason as its error (in its log, headless).
standin_down
held_checkout
standin_up
"$cline" auth -p openai-compatible -k sk-standin -b "http://127.0.0.1:$(cat "$tmp/port")/v1" -m standin >/dev/null
(cd "$dir" && timeout 180 "$cline" --json "Add a retry helper" >"$tmp/cline.out" 2>&1) || true
[ ! -e "$dir/retry.py" ] || { echo "Cline wrote retry.py, which another session holds"; tail -30 "$tmp/cline.out"; exit 1; }
grep -q '"finishReason":"aborted"' "$tmp/cline.out" || { echo "Cline's task went on"; tail -30 "$tmp/cline.out"; exit 1; }
grep "ControlledStopError" "$HOME/.cline/data/logs/cline.log" | grep -q "retry.py is being edited by the claude-code session" \
  || { echo "Cline's stop does not say who holds retry.py"; tail -5 "$HOME/.cline/data/logs/cline.log"; exit 1; }
m sessions held --live --json | grep -q '"retry.py"' || { echo "the holder lost retry.py"; exit 1; }
echo "cline: its task stops before a write into a held file, saying who holds it"

m setup cline --remove >/dev/null
[ ! -e "$HOME/.cline/hooks/PreToolUse.bash" ] && [ -x "$HOME/.cline/hooks/TaskComplete" ] \
  || { echo "remove left Mooring's scripts or took the person's"; ls -la "$HOME/.cline/hooks"; exit 1; }
echo "ok: Cline gets the project's context at its first tool call and its sessions are captured"
