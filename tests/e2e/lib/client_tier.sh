# What the real-client tiers (copilot_cli.sh, qwen_code.sh, opencode.sh, cline.sh) share. Source it,
# then call `tier_sandbox`: a folder of its own (kept with KEEP=1), HOME inside it, the
# built `mooring` installed there as `m`, and a registered checkout `$dir` ("Ledger") whose
# memory holds a decision and a note about port 6543. `standin_up` starts the scripted
# model (STANDIN_SCRIPT decides its script) on `$tmp/port`, recording to
# `$tmp/record.jsonl`; `standin_down` stops it; `sessions_holding TEXT` waits (10 s at
# most) for a captured session holding TEXT and leaves the list in `$tmp/sessions.json`.

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
