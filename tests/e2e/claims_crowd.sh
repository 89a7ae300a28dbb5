#!/usr/bin/env bash
# Several real agents on one checkout (pinned Claude Code and Codex from npm via scripts/
# test-tools.sh, set up by `mooring setup CLIENT --hooks` and nothing else, each against
# its own scripted stand-in model), in a project whose claims are refused:
# - Claude Code session A writes retry.py with a shell command and stays mid-turn (live);
# - Claude Code session B, on the same checkout, is refused the same write before it runs,
#   and its model reads who holds the file; A's file is A's;
# - Codex session C's patches into retry.py are refused likewise;
# - Claude Code session D, in another worktree of the clone, writes its retry.py freely;
# - the hub restarts meanwhile, and shows A's claim before and after;
# - A is killed mid-turn (no end hook): its claim goes with its process.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=lib/client_tier.sh
. tests/e2e/lib/client_tier.sh
# shellcheck source=lib/standin.sh
. tests/e2e/lib/standin.sh
claude=$(tier_tool agents claude) || exit 1
codex=$(tier_tool agents codex) || exit 1
tier_home
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; [ -n "${KEEP:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$HOME/.codex"

work="$tmp/code/crowd"
mkdir -p "$work"
(cd "$work" && git init -q -b main && git config user.email a@example.test && git config user.name A \
   && touch notes.txt old_retry.py && git add -A && git commit -qm init \
   && git worktree add -q -b side "$tmp/code/crowd-side")
m projects new "Crowd" --code-path "$work" >/dev/null
m sessions crowd --claims deny >/dev/null
echo '{ "numStartups": 3 }' >"$HOME/.claude.json"
m setup claude-code --hooks >/dev/null
m setup codex --hooks >/dev/null

# A stand-in model NAME running SCRIPT (with VAR=value settings), on its own port.
standin() {
  local name=$1 script=$2; shift 2
  : >"$tmp/record.$name.jsonl"
  env STANDIN_SCRIPT="$script" "$@" python3 "$lib/model_standin.py" "$tmp/port.$name" "$tmp/record.$name.jsonl" &
  pids+=($!)
  for _ in $(seq 1 50); do [ -s "$tmp/port.$name" ] && break; sleep 0.1; done
}

# Real Claude Code session NAME in DIR, `-p PROMPT`, in the background; its pid in $client.
claude_bg() {
  local name=$1 dir=$2 prompt=$3
  (cd "$dir" && ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$tmp/port.$name")" ANTHROPIC_API_KEY=sk-standin \
    ENABLE_TOOL_SEARCH=false DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    exec timeout 180 "$claude" -p "$prompt" --allowedTools Bash >"$tmp/claude.$name.out" 2>&1) &
  client=$!
  pids+=("$client")
}

# Wait up to 30 s for CHECK (a command) to hold; else say WHAT, show the end of LOG, fail.
until_true() {
  local what=$1 log=$2; shift 2
  for _ in $(seq 1 150); do "$@" 2>/dev/null && return 0; sleep 0.2; done
  echo "$what"; tail -20 "$log" 2>/dev/null; exit 1
}
holds() { m sessions crowd --live --json | python3 -c '
import json, sys
live = json.load(sys.stdin)["live"]
sys.exit(0 if any(s["request"] == sys.argv[1] and "retry.py" in s["claims"] for s in live) else 1)' "$1"; }
read_refusal() { grep -q "retry.py is being edited by the claude-code session" "$tmp/record.$1.jsonl"; }

echo "== Claude Code $("$claude" --version) session A writes retry.py and stays mid-turn"
standin a hold STANDIN_HOLD_FILE=retry.py STANDIN_HOLD_TEXT=from-A
claude_bg a "$work" "Split the retry policy"
a=$client
until_true "A never claimed retry.py" "$tmp/claude.a.out" holds "Split the retry policy"
until_true "A's write did not run" "$tmp/claude.a.out" grep -q from-A "$work/retry.py"

echo "== the hub shows A's claim, and again after it restarts"
hub_up() {
  MOORING_OPEN_BROWSER=0 "$tmp/bin/mooring" --data-dir "$data" serve --port 0 --json >"$tmp/serve.json" 2>>"$tmp/serve.log" &
  hub=$!
  pids+=("$hub")
  until_true "the hub did not start" "$tmp/serve.log" grep -q '}' "$tmp/serve.json"
  base=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"].rsplit("/mcp", 1)[0])' "$tmp/serve.json")
}
hub_sees_a() {
  curl -sf -H "authorization: Bearer $(m token)" "$base/api/v1/projects/crowd/live" | python3 -c '
import json, sys
live = json.load(sys.stdin)["live"]
sys.exit(0 if any(s["request"] == "Split the retry policy" and "retry.py" in s["claims"] for s in live) else 1)'
}
hub_up
hub_sees_a || { echo "the hub does not show A's claim"; exit 1; }
kill "$hub"; wait "$hub" 2>/dev/null || true
: >"$tmp/serve.json"
hub_up
hub_sees_a || { echo "A's claim did not survive the hub's restart"; exit 1; }

echo "== session B on the same checkout is refused the same write before it runs"
standin b hold STANDIN_HOLD_FILE=retry.py STANDIN_HOLD_TEXT=from-B
claude_bg b "$work" "Tune the retry backoff"
b=$client
until_true "B's model never read who holds retry.py" "$tmp/claude.b.out" read_refusal b
grep -q "Split the retry policy" "$tmp/record.b.jsonl" || { echo "the refusal did not say what A works on"; exit 1; }
[ "$(cat "$work/retry.py")" = from-A ] || { echo "B's write reached A's file: $(cat "$work/retry.py")"; exit 1; }
holds "Split the retry policy" || { echo "A lost its claim to B"; exit 1; }

echo "== Codex $("$codex" --version | tail -1) session C's patches into retry.py are refused too"
standin c work
codex_standin_toml "http://127.0.0.1:$(cat "$tmp/port.c")" >"$HOME/.codex/config.toml"
(cd "$work" && STANDIN_API_KEY=x timeout 180 "$codex" exec --skip-git-repo-check \
   --dangerously-bypass-hook-trust --dangerously-bypass-approvals-and-sandbox "Add a retry helper" \
   >"$tmp/codex.out" 2>&1) || { echo "codex failed:"; tail -30 "$tmp/codex.out"; exit 1; }
read_refusal c || { echo "Codex's model never read who holds retry.py"; tail -20 "$tmp/codex.out"; exit 1; }
[ "$(cat "$work/retry.py")" = from-A ] || { echo "Codex's patch reached A's file: $(cat "$work/retry.py")"; exit 1; }
[ -e "$work/old_retry.py" ] || { echo "Codex's second patch (retry.py and old_retry.py) ran"; exit 1; }
[ -e "$work/NOTES.md" ] || { echo "Codex's command on a free file was stopped too"; exit 1; }

echo "== session D in another worktree of the clone writes its own retry.py"
standin d hold STANDIN_HOLD_FILE=retry.py STANDIN_HOLD_TEXT=from-D
claude_bg d "$tmp/code/crowd-side" "Try a jittered retry"
d=$client
until_true "D, in its own worktree, never wrote retry.py" "$tmp/claude.d.out" grep -q from-D "$tmp/code/crowd-side/retry.py"
if read_refusal d; then echo "a worktree met another's claim"; exit 1; fi

echo "== A is killed mid-turn: its claim goes with its process"
kill -9 $(pgrep -P "$a") "$a" 2>/dev/null || true
wait "$a" 2>/dev/null || true
other_writes() {
  m hook claude-code <<<"{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"after\",\"cwd\":\"$work\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"retry.py\"}}"
}
# A killed process takes a moment to be gone (a big client's memory is torn down first).
free() { [ -z "$(other_writes)" ]; }
for _ in $(seq 1 50); do free && break; sleep 0.1; done
free || { echo "a killed session still held retry.py: $(other_writes)"; exit 1; }
for p in "$b" "$d"; do kill -9 $(pgrep -P "$p") "$p" 2>/dev/null || true; done
echo "ok: two real Claude Code sessions and a real Codex session on one checkout: the later writers refused before they write, the holder untouched, its claim shown by the hub across a restart, a worktree apart, a killed holder's claim gone"
