# What the real-client tiers (copilot_cli.sh, qwen_code.sh, opencode.sh, cline.sh and others) share. Source it,
# then call `tier_sandbox`: a folder of its own (kept with KEEP=1), HOME inside it, the
# built `mooring` installed there as `m`, and a registered checkout `$dir` ("Ledger") whose
# memory holds a decision and a note about port 6543. `standin_up` starts the scripted
# model (STANDIN_SCRIPT decides its script) on `$tmp/port`, recording to
# `$tmp/record.jsonl`; `standin_down` stops it; `sessions_holding TEXT` waits (10 s at
# most) for a captured session holding TEXT and leaves the list in `$tmp/sessions.json`;
# `held_checkout` and `held_refused CLIENT` check a client's writes into a held file.

# Where scripts/test-tools.sh keeps the pinned clients (read as this file is sourced,
# before tier_sandbox moves HOME).
tools="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"

# The pinned client NAME's command (BIN, else NAME), or a failure saying how to get it:
# `cline=$(tier_tool cline) || exit 1`.
tier_tool() {
  local bin="$tools/$1/node_modules/.bin/${2:-$1}"
  [ -x "$bin" ] || { echo "$bin is missing: run scripts/test-tools.sh" >&2; return 1; }
  echo "$bin"
}

# A folder of its own (`$tmp`), HOME inside it, the built `mooring` installed there as
# `m` over `$data`; the caller sets what is cleaned up on exit (`tier_sandbox` does).
tier_home() {
  lib="$PWD/tests/e2e/lib"
  tmp=$(mktemp -d)
  MOORING_MODELS=$(scripts/fetch-model.sh --where); export MOORING_MODELS
  # A debug build on a busy CI machine may miss the hooks' 180 ms; these tiers check what
  # is handed over, not how fast (bench/ does).
  export MOORING_HOOK_DEADLINE_MS=4500
  export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
  mkdir -p "$HOME" "$tmp/bin"
  install -m 0755 "$MOORING_BIN/mooring" "$tmp/bin/mooring"
  data="$tmp/data"
}

tier_sandbox() {
  tier_home
  standin=""
  trap 'standin_down; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
  dir="$tmp/code/ledger"
  mkdir -p "$dir"
  (cd "$dir" && git init -q && git config user.email a@example.test && git config user.name A \
     && echo x >old_retry.py && echo n >notes.txt && git add -A && git commit -qm init)
  m projects new Ledger --code-path "$dir" >/dev/null
  m memory add ledger --kind decision "Invoices are split per tenant before export" >/dev/null
  m memory add ledger --kind note "The staging database listens on port 6543, not 5432" >/dev/null
  : >"$tmp/record.jsonl"
}

m() { "$tmp/bin/mooring" --data-dir "$data" "$@"; }

standin_up() {
  : >"$tmp/port"
  python3 "$lib/model_standin.py" "$tmp/port" "$tmp/record.jsonl" &
  standin=$!
  for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
}

standin_down() {
  [ -n "$standin" ] || return 0
  kill "$standin" 2>/dev/null || true
  wait "$standin" 2>/dev/null || true
  standin=""
}

sessions_holding() {
  for _ in $(seq 1 40); do
    m memory list ledger --kind session --json >"$tmp/sessions.json"
    grep -qF "$1" "$tmp/sessions.json" && return 0
    sleep 0.25
  done
  echo "no captured session holds \"$1\":"; head -c 1500 "$tmp/sessions.json"; return 1
}

# A checkout `$dir` (project "Held", claims asked about) whose retry.py a Claude Code
# session holds for 'split the retry policy' (its hooks run from this script's process,
# so it stays live while the tier runs); the record starts anew. With no Mooring running
# to ask the person, another session's write into retry.py is refused at once.
held_checkout() {
  dir="$tmp/code/held"
  mkdir -p "$dir"
  (cd "$dir" && git init -q && git config user.email a@example.test && git config user.name A \
     && touch notes.txt old_retry.py && git add -A && git commit -qm init)
  m projects new "Held" --code-path "$dir" >/dev/null
  m sessions held --claims ask >/dev/null
  local a="\"session_id\":\"A\",\"cwd\":\"$dir\""
  m hook claude-code <<<"{\"hook_event_name\":\"UserPromptSubmit\",$a,\"prompt\":\"split the retry policy\"}" >/dev/null
  m hook claude-code <<<"{\"hook_event_name\":\"PreToolUse\",$a,\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"retry.py\"}}" >/dev/null
  : >"$tmp/record.jsonl"
}

# After CLIENT worked in `held_checkout`: retry.py unwritten and still held by A, the
# command on free files run (NOTES.md), and the model told who holds retry.py and why.
held_refused() {
  [ ! -e "$dir/retry.py" ] || { echo "$1 wrote retry.py, which another session holds"; return 1; }
  [ -e "$dir/NOTES.md" ] || { echo "$1's command on a free file was stopped too"; return 1; }
  m sessions held --live --json | grep -q '"retry.py"' || { echo "the holder lost retry.py"; return 1; }
  python3 - "$tmp/record.jsonl" "$1" <<'PY'
import json, sys
text = json.dumps([json.loads(l)["body"] for l in open(sys.argv[1]) if l.strip()])
want = "retry.py is being edited by the claude-code session"
assert want in text and "split the retry policy" in text, f"{sys.argv[2]}'s model never read who holds retry.py"
assert "No Mooring hub is running to ask the person" in text, "the refusal did not say why no one was asked"
print(f"{sys.argv[2]}'s model read:", text[text.index(want):text.index(want) + 120])
PY
}
