#!/usr/bin/env bash
# Runs inside xvfb-run + dbus-run-session (see ../agent_picker.sh).
set -euo pipefail
export NO_AT_BRIDGE=1
tmp="$TMPDIR_E2E"
MOORING_LOG="${MOORING_LOG:-info}" "$MOORING_BIN/mooring-desktop" --port 0 >"$tmp/desktop.log" 2>&1 &
pid=$!
standin=""
fail() {
  echo "FAIL: $*"; echo "--- desktop log"; grep -v rmcp::service "$tmp/desktop.log" | tail -30; echo "--- claude"; tail -30 "$tmp/claude.out" 2>/dev/null
  python3 "$LIB/check_agent_run.py" "$tmp/record.jsonl" claude-code - beta-two picker 2>&1 | tail -3
  kill "$pid" ${standin:+"$standin"} 2>/dev/null; exit 1
}
# shellcheck source=tray_bus.sh
. "$LIB/tray_bus.sh"
find_menu
wait_for '[ -f "$MOORING_HOME/endpoint.json" ]' || fail "the desktop advertises no server"

python3 "$LIB/model_standin.py" "$tmp/port" "$tmp/record.jsonl" >/dev/null 2>&1 &
standin=$!
wait_for '[ -s "$tmp/port" ]' || fail "the model stand-in did not start"

# A directory of no project: only the person can say which project this is.
(cd "$tmp/scratch" && ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$tmp/port")" ANTHROPIC_API_KEY=sk-standin \
   ENABLE_TOOL_SEARCH=false DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
   timeout 120 "$AGENTS/claude" -p "Record the decision we just made." --allowedTools mcp__mooring \
   >"$tmp/claude.out" 2>&1) &
claude=$!

wait_for 'items | grep -q "Waiting for you (1)"' || fail "the waiting call never showed in the tray"
echo "the tray shows the waiting session:"; items | grep -A1 "Waiting for you" | cut -f2
click "Beta Two" || fail "could not click Beta Two in the tray"
wait "$claude" || fail "claude -p failed"
kill "$standin" 2>/dev/null || true
python3 "$LIB/check_agent_run.py" "$tmp/record.jsonl" claude-code - beta-two picker \
  || fail "the call did not continue in the clicked project"
"$MOORING_BIN/mooring" memory list beta-two | grep -q "Decided through claude-code" || fail "no memory in beta-two"
wait_for '! items | grep -q "Waiting for you"' || fail "the tray still shows a waiting session"
kill "$pid" 2>/dev/null || true
echo "ok: claude -p declined its form, the tray click answered, memory is in beta-two"
