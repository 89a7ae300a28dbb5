#!/usr/bin/env bash
# The phone, away from the desk, over Telegram and Slack: a real `mooring serve` runs
# the bot and the app against stand-ins of the Bot API and of Slack's Web API and Socket
# Mode written from their published references (no platform can be reached from the
# test machines). Pairing with the code `mooring remote add`
# prints, strangers and replayed buttons refused, the phone's commands checked through
# the CLI, questions in away mode answered with buttons, toggles and a reply, a question
# answered on the page first, and an outage that loses and doubles nothing. The token
# never reaches the log or the command line.
set -euo pipefail
cd "$(dirname "$0")/../.."
lib="$PWD/tests/e2e/lib"
tmp=$(mktemp -d)
pids=()
cleanup() {
  tmux kill-session -t "mooring-codex-$$" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] && { echo "kept $tmp"; return 0; }
  # A hook the killed sessions started may still be finishing its write.
  for _ in 1 2 3 4 5; do rm -rf "$tmp" 2>/dev/null && return 0; sleep 1; done
  rm -rf "$tmp"
}
trap cleanup EXIT
command -v tmux >/dev/null || { echo "tmux is missing: run scripts/deps.sh test"; exit 1; }
data="$tmp/data"
tools="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"
agents="$tools/agents/node_modules/.bin"
[ -x "$agents/claude" ] || { echo "$agents/claude is missing: run scripts/test-tools.sh"; exit 1; }
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME" "$tmp/code/app" "$tmp/bin"
# `mooring setup` writes hooks only for an installed binary, not a build directory's.
install -m 0755 "$MOORING_BIN/mooring" "$tmp/bin/mooring"
m() { "$tmp/bin/mooring" --data-dir "$data" "$@"; }
token="123456789:AAstandin-token-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

python3 "$lib/telegram_standin.py" "$tmp/port" "$token" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")

m projects new "Leader Election" >/dev/null
m projects new "App" --code-path "$tmp/code/app" >/dev/null
echo '{ "numStartups": 3 }' >"$HOME/.claude.json"
m setup claude-code --hooks >/dev/null
echo '{ "wait_limit_seconds": 1 }' >"$data/choice-settings.json"
# A token on the command line would show in every process listing: only a file or stdin.
if m remote add telegram --token "$token" >/dev/null 2>&1; then echo "a token was taken from the command line"; exit 1; fi
printf '%s\n' "$token" | m remote add telegram --token-file - --api "http://127.0.0.1:$port" --json >"$tmp/add.json"
code=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['pairing_code'])" "$tmp/add.json")
[ "$(stat -c %a "$data/remote.json")" = 600 ] || { echo "remote.json is not private"; exit 1; }
if m remote add telegram --token-file - --api "http://api.telegram.example" <<<"$token" >/dev/null 2>&1; then
  echo "a token was sent over plain HTTP to another machine"; exit 1
fi

MOORING_LOG=debug "$tmp/bin/mooring" --data-dir "$data" serve --port 0 --json >"$tmp/serve.json" 2>"$tmp/serve.log" &
pids+=($!)
for _ in $(seq 1 100); do grep -q '"url"' "$tmp/serve.json" 2>/dev/null && break; sleep 0.1; done
base=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['url'].removesuffix('/mcp'))" "$tmp/serve.json")

PYTHONPATH="$lib" python3 "$lib/remote_checks.py" "$port" "$base" "$data" "$tmp/bin/mooring" "$code" \
  || { echo "--- serve.log"; tail -30 "$tmp/serve.log"; exit 1; }
echo "== Slack, added while the hub runs"
rand() { head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
app_token="xapp-1-A1-standin-$(rand)" bot_token="xoxb-1-standin-$(rand)"
python3 "$lib/slack_standin.py" "$tmp/sport" "$app_token" "$bot_token" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$tmp/sport" ] && break; sleep 0.1; done
sport=$(cat "$tmp/sport")
printf '%s\n' "$app_token" >"$tmp/app.tok"; printf '%s\n' "$bot_token" >"$tmp/bot.tok"
if m remote add slack --token-file "$tmp/bot.tok" --bot-token-file "$tmp/app.tok" --api "http://127.0.0.1:$sport/api" >/dev/null 2>&1; then
  echo "Slack's two tokens were taken the wrong way round"; exit 1
fi
m remote add slack --token-file "$tmp/app.tok" --bot-token-file "$tmp/bot.tok" --api "http://127.0.0.1:$sport/api" --json >"$tmp/sadd.json"
rm "$tmp/app.tok" "$tmp/bot.tok"
scode=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['pairing_code'])" "$tmp/sadd.json")
if m remote test slack >"$tmp/test.out" 2>&1; then echo "a test message went to an unpaired Slack app"; exit 1; fi
grep -q "not paired yet" "$tmp/test.out" || { echo "remote test said: $(cat "$tmp/test.out")"; exit 1; }
PYTHONPATH="$lib" python3 "$lib/slack_checks.py" "$sport" "$port" "$base" "$data" "$tmp/bin/mooring" "$scode" \
  || { echo "--- serve.log"; tail -30 "$tmp/serve.log"; exit 1; }
m remote test telegram >/dev/null && m remote test slack >/dev/null
python3 "$lib/remote_phone.py" "$port" count "Mooring can reach you here" | grep -qx 1 \
  && python3 "$lib/remote_phone.py" "$sport" count "Mooring can reach you here" | grep -qx 1 \
  || { echo "remote test did not reach both phones once"; exit 1; }
echo "ok: remote test reached both phones; an unpaired app was refused with the reason"
echo "== a real Claude Code's permission prompt: silent at the desk, answered from the phone when away"
claude_run() {  # claude_run SCRIPT PROMPT: one session in the App checkout; the tool needs permission
  : >"$tmp/record.jsonl"; rm -f "$tmp/mport"
  STANDIN_SCRIPT=$1 python3 "$lib/model_standin.py" "$tmp/mport" "$tmp/record.jsonl" &
  local standin=$!
  for _ in $(seq 1 50); do [ -s "$tmp/mport" ] && break; sleep 0.1; done
  (cd "$tmp/code/app" && ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$tmp/mport")" ANTHROPIC_API_KEY=sk-standin \
     ENABLE_TOOL_SEARCH=false DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
     timeout 150 "$agents/claude" -p "$2" >"$tmp/claude.out" 2>&1) || { echo "claude failed:"; tail -20 "$tmp/claude.out"; kill "$standin"; exit 1; }
  kill "$standin"; wait "$standin" 2>/dev/null || true
}
phone() { python3 "$lib/remote_phone.py" "$port" "$@"; }
sphone() { python3 "$lib/remote_phone.py" "$sport" "$@"; }
# At the desk (the checks ended with `back`): the hook says nothing, and `-p` has no dialog.
claude_run permission "Do the approval step"
[ ! -e "$tmp/code/app/approved.txt" ] || { echo "at the desk the hook allowed a tool"; exit 1; }
[ "$(phone count 'Allow Bash?')" = 0 ] && [ "$(sphone count 'Allow Bash?')" = 0 ] || { echo "a prompt reached a phone at the desk"; exit 1; }
phone say away "Away"
claude_run permission "Do the approval step" &
run=$!
phone press "Allow Bash?" "Allow once" >"$tmp/allow.json"
phone press "An agent finished" "Let it stop" >/dev/null
wait "$run"
done_at=$(date +%s.%N)
[ -e "$tmp/code/app/approved.txt" ] || { echo "Allow from the phone did not run the command"; tail -5 "$tmp/claude.out"; exit 1; }
grep -q "Finished the approval step" "$tmp/claude.out" || { echo "the session did not go on"; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'run \`touch approved.txt\`' in a['text'] and 'The agent says why: \"Mark the approval\"' in a['text'] and 'app · claude-code' in a['text'], a['text']; print('ok: allowed from the phone; tap to the agent\'s end', round((float(sys.argv[2]) - a['pressed_at']) * 1000), 'ms')" "$tmp/allow.json" "$done_at"
rm "$tmp/code/app/approved.txt"
claude_run permission "Do the approval step" &
run=$!
sphone press "Allow Bash?" "Deny" >/dev/null
phone press "An agent finished" "Let it stop" >/dev/null
wait "$run"
[ ! -e "$tmp/code/app/approved.txt" ] || { echo "Deny from the phone still ran the command"; exit 1; }
# Allow for this session: Claude Code's own offer (its permission_suggestions), kept for
# the session only; the same command again runs without asking.
asked_before=$(phone count 'Allow Bash?')
claude_run twice "Do the approval step twice" &
run=$!
phone press "Allow Bash?" "Allow for this session" >"$tmp/session.json"
phone press "An agent finished" "Let it stop" >/dev/null
wait "$run"
grep -q "Marked it twice." "$tmp/claude.out" || { echo "the session did not finish"; tail -5 "$tmp/claude.out"; exit 1; }
[ "$(phone count 'Allow Bash?')" = $((asked_before + 1)) ] || { echo "the same command asked again after Allow for this session"; exit 1; }
grep -qF "For this session would also allow: work in $tmp/code/app, every edit" "$tmp/session.json" || { echo "the phone did not say what the session allows"; cat "$tmp/session.json"; exit 1; }
if grep -rqs approved "$tmp/code/app/.claude" "$HOME/.claude/settings.json"; then echo "a session rule was written to the settings"; exit 1; fi
rm -f "$tmp/code/app/approved.txt"
echo "ok: Allow for this session ran the same command again without asking, and wrote no settings"
token_api=$(m token)
curl -sf -H "authorization: Bearer $token_api" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['url'].removesuffix('/mcp'))" "$tmp/serve.json")/api/v1/projects/app/events" >"$tmp/events.json"
python3 -c "import json,sys; e=[x for x in json.load(open(sys.argv[1]))['events'] if x['kind']=='permission_answered']; assert [x['detail']['allowed'] for x in e] == [True, False, True], e; assert e[2]['text'] == 'Bash allowed from the phone (telegram)', e; assert e[1]['text'] == 'Bash refused from the phone (slack)', e; assert e[0]['text'] == 'Bash allowed for the session from the phone (telegram)', e; print('ok: denied from Slack; every answer is in the project history:', ' / '.join(x['text'] for x in e))" "$tmp/events.json"
echo "== away: words for a project reach its next session's prompt; a finished session goes on with the phone's reply"
phone say "app please also update the README" "Kept for app"
claude_run continue "Do the first part" &
run=$!
phone reply "An agent finished" "now write the changelog" >"$tmp/finished.json"
phone press-new "An agent finished" "Let it stop" "$tmp/finished.json" >/dev/null
wait "$run"
grep -q "Writing the changelog now." "$tmp/claude.out" || { echo "the session did not go on with the phone's words"; cat "$tmp/claude.out"; exit 1; }
grep -q "please also update the README" "$tmp/record.jsonl" || { echo "the phone's words for app never reached the session's model"; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'First part done.' in a['text'] and 'app · claude-code' in a['text'], a['text']; print('ok: the phone heard the last word and the agent went on with the reply')" "$tmp/finished.json"
# A real headless client's finished turn, told to the phone, goes on with the reply:
# `continue_from_phone NAME TITLE COMMAND…`, run in the checkout against the "continue"
# stand-in on $tmp/mport (COMMAND may read it); its output goes to $tmp/NAME.out.
continue_from_phone() {
  local name=$1 title=$2; shift 2
  : >"$tmp/record.jsonl"; rm -f "$tmp/mport"
  STANDIN_SCRIPT=continue python3 "$lib/model_standin.py" "$tmp/mport" "$tmp/record.jsonl" &
  local model=$!
  for _ in $(seq 1 50); do [ -s "$tmp/mport" ] && break; sleep 0.1; done
  (cd "$tmp/code/app" && timeout 150 "$@" >"$tmp/$name.out" 2>&1) &
  local run=$!
  phone reply "An agent finished" "now write the changelog" >"$tmp/$name-finished.json"
  phone press-new "An agent finished" "Let it stop" "$tmp/$name-finished.json" >/dev/null
  wait "$run" || { echo "$name failed:"; tail -20 "$tmp/$name.out"; exit 1; }
  kill "$model"; wait "$model" 2>/dev/null || true
  grep -q "Writing the changelog now." "$tmp/$name.out" || { echo "$title did not go on with the phone's words"; cat "$tmp/$name.out"; exit 1; }
  # A client that names no last word at its turn's end (LAST= empty) is shown without one.
  python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert sys.argv[3] in a['text'] and 'app · '+sys.argv[2] in a['text'], a['text']" \
    "$tmp/$name-finished.json" "$name" "${LAST-First part done.}"
  echo "ok: $title's finished turn reached the phone and went on with the reply"
}
echo "== a real Gemini CLI: its finished turn (AfterAgent) goes on with the phone's reply"
mkdir -p "$HOME/.gemini"
echo '{ "security": { "auth": { "selectedType": "gemini-api-key" } } }' >"$HOME/.gemini/settings.json"
m setup gemini-cli --hooks >/dev/null
continue_from_phone gemini-cli "Gemini CLI" sh -c 'GEMINI_API_KEY=x GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$(cat "$1")" \
  GEMINI_CLI_TRUST_WORKSPACE=true exec "$2" -p "Do the first part"' sh "$tmp/mport" "$agents/gemini"
echo "== a real Qwen Code: its finished turn (Stop) goes on with the phone's reply"
mkdir -p "$HOME/.qwen"
echo '{ "privacy": { "usageStatisticsEnabled": false }, "telemetry": { "enabled": false } }' >"$HOME/.qwen/settings.json"
m setup qwen-code --hooks >/dev/null
continue_from_phone qwen-code "Qwen Code" sh -c 'OPENAI_API_KEY=x OPENAI_BASE_URL="http://127.0.0.1:$(cat "$1")/v1" \
  OPENAI_MODEL=standin-model exec "$2" --auth-type openai -m standin-model -y "Do the first part"' \
  sh "$tmp/mport" "$tools/qwen/node_modules/.bin/qwen"
echo "== a real Copilot CLI: its finished turn (agentStop) goes on with the phone's reply"
m setup copilot-cli --hooks >/dev/null
# Its agentStop names no last word, and its session file is written only as it exits.
LAST="" XDG_CACHE_HOME="$tools/copilot/cache" continue_from_phone copilot-cli "Copilot CLI" sh -c \
  'COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_ALLOW_ALL=true COPILOT_PROVIDER_TYPE=anthropic \
   COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$(cat "$1")" COPILOT_PROVIDER_API_KEY=sk-standin \
   COPILOT_MODEL=claude-sonnet-4-5 exec "$2" -p "Do the first part" --allow-all-tools --output-format json \
   --disable-client-telemetry' sh "$tmp/mport" "$tools/copilot/node_modules/.bin/copilot"
echo "== a real Qwen Code's permission prompt (it asks with stream-json input): allowed, then denied, from the phone"
grep -q '"PermissionRequest"' "$HOME/.qwen/settings.json" || { echo "setup qwen-code --hooks installed no permission hook"; exit 1; }
qwen_asks() {  # qwen_asks LABEL: one Qwen Code session in the App checkout; its command needs permission
  : >"$tmp/record.jsonl"; rm -f "$tmp/mport"
  STANDIN_SCRIPT=permission python3 "$lib/model_standin.py" "$tmp/mport" "$tmp/record.jsonl" &
  local model=$!
  for _ in $(seq 1 50); do [ -s "$tmp/mport" ] && break; sleep 0.1; done
  (cd "$tmp/code/app" && echo '{"type":"user","message":{"role":"user","content":"Do the approval step"}}' \
     | OPENAI_API_KEY=x OPENAI_BASE_URL="http://127.0.0.1:$(cat "$tmp/mport")/v1" OPENAI_MODEL=standin-model \
       timeout 150 "$tools/qwen/node_modules/.bin/qwen" --auth-type openai -m standin-model \
       --input-format stream-json --output-format stream-json >"$tmp/qwen-asks.out" 2>&1) &
  local run=$!
  phone press "Allow run_shell_command?" "$1" >"$tmp/qasked.json"
  phone press "An agent finished" "Let it stop" >/dev/null
  wait "$run" || { echo "qwen failed:"; tail -20 "$tmp/qwen-asks.out"; exit 1; }
  kill "$model"; wait "$model" 2>/dev/null || true
}
qwen_asks "Allow once"
[ -e "$tmp/code/app/approved.txt" ] || { echo "Allow from the phone did not run Qwen Code's command"; tail -5 "$tmp/qwen-asks.out"; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'run \`touch approved.txt\`' in a['text'] and 'The agent says why: \"Mark the approval\"' in a['text'] and 'app · qwen-code' in a['text'] and 'Allow for this session' not in json.dumps(a), a['text']" "$tmp/qasked.json"
rm "$tmp/code/app/approved.txt"
qwen_asks "Deny"
[ ! -e "$tmp/code/app/approved.txt" ] || { echo "Deny from the phone still ran Qwen Code's command"; exit 1; }
grep -q '"is_error":true,"content":"The person refused this' "$tmp/qwen-asks.out" || { echo "Qwen Code's model was not told the person refused"; grep tool_result "$tmp/qwen-asks.out"; exit 1; }
echo "ok: Qwen Code's permission prompt reached the phone: Allow ran the command, Deny told its model why"
# shellcheck source=lib/remote_opencode.sh
. "$lib/remote_opencode.sh"
echo "== a real Codex, interactive (in tmux): its permission prompt allowed from Slack; its finished turn goes on with the phone's reply"
source "$lib/standin.sh"
: >"$tmp/record.jsonl"; rm -f "$tmp/mport"
STANDIN_SCRIPT=permission python3 "$lib/model_standin.py" "$tmp/mport" "$tmp/record.jsonl" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$tmp/mport" ] && break; sleep 0.1; done
mkdir -p "$HOME/.codex"
# Codex asks for approval only in its interactive session (`codex exec` never asks).
{ echo 'approval_policy = "on-request"'; echo 'sandbox_mode = "workspace-write"'
  codex_standin_toml "http://127.0.0.1:$(cat "$tmp/mport")"
  echo "[projects.\"$tmp/code/app\"]"; echo 'trust_level = "trusted"'; } >"$HOME/.codex/config.toml"
echo '{ "OPENAI_API_KEY": "standin", "auth_mode": "apikey" }' >"$HOME/.codex/auth.json"
m setup codex --hooks >/dev/null
grep -q PermissionRequest "$HOME/.codex/hooks.json" || { echo "setup codex --hooks installed no permission hook"; exit 1; }
tmux new-session -d -s "mooring-codex-$$" -x 150 -y 45 \
  "cd '$tmp/code/app' && HOME='$HOME' STANDIN_API_KEY=x '$agents/codex' --dangerously-bypass-hook-trust 'Do the approval step'; sleep 60"
pane() { tmux capture-pane -p -t "mooring-codex-$$"; }
sphone press "Allow Bash?" "Allow once" >"$tmp/callow.json" || { pane; exit 1; }
for _ in $(seq 1 100); do [ -e "$tmp/code/app/approved.txt" ] && break; sleep 0.1; done
[ -e "$tmp/code/app/approved.txt" ] || { echo "Allow from Slack did not run Codex's command"; pane; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'run \`touch approved.txt\`' in a['text'] and 'app · codex' in a['text'], a['text']" "$tmp/callow.json"
sphone reply "An agent finished" "now write the changelog" >"$tmp/cfinished.json"
for _ in $(seq 1 150); do pane | grep -q "Writing the changelog now." && break; sleep 0.2; done
pane | grep -q "Writing the changelog now." || { echo "Codex did not go on with the phone's words"; pane; exit 1; }
grep -q "Finished the approval step." "$tmp/cfinished.json" || { echo "the phone did not hear Codex's last word"; cat "$tmp/cfinished.json"; exit 1; }
sphone press-new "An agent finished" "Let it stop" "$tmp/cfinished.json" >/dev/null
tmux kill-session -t "mooring-codex-$$"
echo "ok: Codex's permission prompt reached Slack and Allow ran the command; its finished turn went on with the phone's reply"
m doctor --json >"$tmp/doctor.json" || true
python3 -c "import json,sys; c={x['name']: x for x in json.load(open(sys.argv[1]))['checks']}; [print('ok: doctor:', p, c[p]['message']) for p in ('remote:telegram', 'remote:slack') if c[p]['status']=='ok' and 'reachable; away' in c[p]['message'] or sys.exit(f'doctor: {c.get(p)}')]" "$tmp/doctor.json"
phone say back
# At the desk Qwen Code's own dialog asks: the hook says nothing and nothing reaches the phone.
asked=$(phone count 'Allow run_shell_command?')
echo '{"session_id":"q1","cwd":"'"$tmp/code/app"'","hook_event_name":"PermissionRequest","permission_mode":"default","tool_name":"run_shell_command","tool_input":{"command":"touch approved.txt"}}' \
  | (cd "$tmp/code/app" && "$tmp/bin/mooring" --data-dir "$data" hook qwen-code PermissionRequest) >"$tmp/qdesk.out"
[ ! -s "$tmp/qdesk.out" ] && [ "$(phone count 'Allow run_shell_command?')" = "$asked" ] \
  || { echo "at the desk Qwen Code's permission hook answered or reached the phone"; cat "$tmp/qdesk.out"; exit 1; }
echo "== words for a project with several live sessions: the phone asks which, and only that session gets them"
fixture="$PWD/crates/core/tests/fixtures/claude-code-2.1.330-work.jsonl"
for s in one two; do sed "s/Add a retry helper and keep a todo list/Work on part $s/g" "$fixture" >"$tmp/$s.jsonl"; done
hook() {  # hook EVENT SESSION [PROMPT]: Claude Code's hook as the client runs it, in the App checkout
  python3 -c 'import json,sys; e,s,t,c,p=sys.argv[1:6]; print(json.dumps({"hook_event_name": e, "session_id": s, "transcript_path": t, "cwd": c, "prompt": p}))' \
    "$1" "sess-$2" "$tmp/$2.jsonl" "$tmp/code/app" "${3:-}" | (cd "$tmp/code/app" && "$tmp/bin/mooring" --data-dir "$data" hook claude-code)
}
hook Stop one >/dev/null; hook Stop two >/dev/null
phone say "app run the linter too" "Which one gets this"
phone press "Which one gets this" "part two" >/dev/null
phone say projects "leader-election"  # the press is handled before the next message
hook UserPromptSubmit one "next" >"$tmp/p1.out"; hook UserPromptSubmit two "next" >"$tmp/p2.out"
if grep -q "run the linter too" "$tmp/p1.out"; then echo "words sent to one session reached another"; exit 1; fi
grep -q "run the linter too" "$tmp/p2.out" || { echo "the chosen session did not get the words"; cat "$tmp/p2.out"; exit 1; }
[ "$(phone count 'Kept for claude-code “Work on part two”')" = 1 ] || { echo "the phone's question was not rewritten with the choice"; exit 1; }
phone say away "Away"
MOORING_AWAY_HOLD_SECONDS=60 hook Stop one >"$tmp/hold.out" &
held=$!
for _ in $(seq 1 100); do [ "$(phone count 'Work on part one')" -gt 1 ] && break; sleep 0.1; done
phone say "app then update the docs" "Which one gets this"
phone press "Which one gets this" "part one" >/dev/null
wait "$held"
python3 -c "import json,sys; o=json.load(open(sys.argv[1])); assert o['decision']=='block' and 'then update the docs' in o['reason'], o" "$tmp/hold.out" \
  || { echo "a session holding at its turn end did not get the words sent for it"; cat "$tmp/hold.out"; exit 1; }
echo "== a write into a file another live session holds: the phone's permission question says who holds it"
edit() {  # edit EVENT SESSION FILE: Claude Code's hook for a Write of FILE, in the App checkout
  python3 -c 'import json,sys; e,s,c,f=sys.argv[1:5]; print(json.dumps({"hook_event_name": e, "session_id": s, "cwd": c, "tool_name": "Write", "tool_input": {"file_path": f, "content": "x"}, "permission_suggestions": []}))' \
    "$1" "sess-$2" "$tmp/code/app" "$3" | (cd "$tmp/code/app" && "$tmp/bin/mooring" --data-dir "$data" hook claude-code)
}
edit PreToolUse one src/ledger.py >/dev/null
edit PreToolUse two src/ledger.py >"$tmp/pre-two.out"
grep -q '"permissionDecision":"ask"' "$tmp/pre-two.out" || { echo "the second writer was not asked"; cat "$tmp/pre-two.out"; exit 1; }
edit PermissionRequest two src/ledger.py >"$tmp/perm-two.out" &
asker=$!
phone press "Allow Write?" "Deny" >"$tmp/held-asked.json"
wait "$asker"
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'write src/ledger.py' in a['text'] and 'src/ledger.py is being edited by the claude-code session started' in a['text'], a['text']" "$tmp/held-asked.json" \
  || { echo "the phone's question did not say who holds the file"; exit 1; }
grep -q '"behavior":"deny"' "$tmp/perm-two.out" || { echo "Deny from the phone did not refuse the write"; cat "$tmp/perm-two.out"; exit 1; }
# A client that cannot ask before a tool (Copilot CLI, its preToolUse): Mooring asks the
# person itself, and with the person away the question is on the phone.
printf '%s' '{"sessionId":"cp1","cwd":"'"$tmp/code/app"'","toolName":"edit","toolArgs":{"path":"src/ledger.py","old_str":"a","new_str":"b"}}' \
  | (cd "$tmp/code/app" && "$tmp/bin/mooring" --data-dir "$data" hook copilot-cli preToolUse) >"$tmp/cp-held.out" &
asker=$!
phone press "write a held file?" "Refuse" >"$tmp/cp-asked.json"
wait "$asker"
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'copilot-cli session is about to write src/ledger.py' in a['text'] and 'src/ledger.py is being edited by the claude-code session started' in a['text'], a['text']" "$tmp/cp-asked.json" \
  || { echo "the phone's question did not say who writes and who holds the file"; exit 1; }
grep -q '"permissionDecision":"deny"' "$tmp/cp-held.out" && grep -q "The person refused this write" "$tmp/cp-held.out" \
  || { echo "Refuse from the phone did not refuse Copilot CLI's write"; cat "$tmp/cp-held.out"; exit 1; }
phone say back
echo "ok: with several live sessions the phone asked which; the words reached that one, at its prompt or while it held; a write into another's claim asked on the phone with who holds it, by the client's own ask (Claude Code) or by Mooring's (Copilot CLI)"
grep -q "refused a message from someone who is not the paired person" "$tmp/serve.log" \
  || { echo "the stranger's message was not logged"; exit 1; }
for secret in "${token#*:}" "$app_token" "$bot_token"; do
  if grep -qF "$secret" "$tmp/serve.log"; then echo "a bot token reached the log"; exit 1; fi
done
echo "ok: both platforms paired, strangers and replays refused, commands and questions from the phone, outages survived"
