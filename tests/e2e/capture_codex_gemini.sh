#!/usr/bin/env bash
# Capture and recall with the real Codex and Gemini CLI (pinned, from npm via scripts/
# test-tools.sh), each set up by `mooring setup CLIENT --hooks` and nothing else. In a
# git checkout of a registered project, a session (scripted stand-in model,
# STANDIN_SCRIPT=work) adds and edits a file with the client's own edit tools, deletes
# one, renames one, runs a command carrying a token and commits — and calls no Mooring
# tool. Each must leave one record in the project saying so, with the commit read from
# the checkout; the token must be in no file of Mooring's; and a next session whose
# prompt is about an older decision must hand that decision to its model.
set -euo pipefail
cd "$(dirname "$0")/../.."
lib="$PWD/tests/e2e/lib"
# shellcheck source=lib/standin.sh
. "$lib/standin.sh"
# Its `m` and the held checkout's helpers (held_checkout, held_refused).
# shellcheck source=lib/client_tier.sh
. "$lib/client_tier.sh"
agents="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}/agents/node_modules/.bin"
for c in codex gemini; do
  [ -x "$agents/$c" ] || { echo "$agents/$c is missing: run scripts/test-tools.sh"; exit 1; }
done
tmp=$(mktemp -d)
standin=""
cleanup() { [ -n "$standin" ] && kill "$standin" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT

# The model for search by meaning stays where the test tools installed it.
MOORING_MODELS=$(scripts/fetch-model.sh --where); export MOORING_MODELS
# The hooks give up at 180 ms so a slow answer never holds the client (the release build
# answers in a few ms, see bench/benches/hook.rs); a debug build on a cold, busy CI machine
# can miss that and inject nothing. These tiers check what is injected, not how fast.
export MOORING_HOOK_DEADLINE_MS=4500
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME/.codex" "$HOME/.gemini" "$tmp/bin"
install -m 0755 "$MOORING_BIN/mooring" "$tmp/bin/mooring"
data="$tmp/data"

start_standin() {
  : >"$tmp/record.jsonl"; rm -f "$tmp/port"
  STANDIN_SCRIPT=$1 python3 "$lib/model_standin.py" "$tmp/port" "$tmp/record.jsonl" &
  standin=$!
  for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
}
stop_standin() { kill "$standin"; wait "$standin" 2>/dev/null || true; standin=""; }

# The port changes per run; the clients read their model's address from their settings.
configure() {
  local model="http://127.0.0.1:$(cat "$tmp/port")"
  codex_standin_toml "$model" >"$HOME/.codex/config.toml.base"
  echo "$model" >"$tmp/model"
}

run() {
  local client=$1 dir=$2 prompt=$3
  local model; model=$(cat "$tmp/model")
  if [ "$client" = codex ]; then
    sed -i "s#base_url = \".*\"#base_url = \"$model/v1\"#" "$HOME/.codex/config.toml"
    (cd "$dir" && STANDIN_API_KEY=x timeout 180 "$agents/codex" exec --skip-git-repo-check \
       --dangerously-bypass-hook-trust --dangerously-bypass-approvals-and-sandbox "$prompt" >"$tmp/$client.out" 2>&1) \
      || { echo "codex failed:"; tail -30 "$tmp/$client.out"; exit 1; }
  else
    (cd "$dir" && GEMINI_API_KEY=x GOOGLE_GEMINI_BASE_URL="$model" GEMINI_CLI_TRUST_WORKSPACE=true \
       timeout 180 "$agents/gemini" -p "$prompt" --approval-mode yolo >"$tmp/$client.out" 2>&1) \
      || { echo "gemini failed:"; tail -30 "$tmp/$client.out"; exit 1; }
  fi
}

start_standin work
configure
cp "$HOME/.codex/config.toml.base" "$HOME/.codex/config.toml"
echo '{ "security": { "auth": { "selectedType": "gemini-api-key" } } }' >"$HOME/.gemini/settings.json"
for client in codex gemini-cli; do
  m setup "$client" --hooks >"$tmp/setup.txt"
  grep -q "captured into their project's memory" "$tmp/setup.txt" || { cat "$tmp/setup.txt"; exit 1; }
done

for client in codex gemini; do
  slug="retry-$client"
  dir="$tmp/code/$slug"
  mkdir -p "$dir"
  (cd "$dir" && git init -q && git config user.email a@example.test && git config user.name A \
     && touch notes.txt old_retry.py && git add -A \
     && GIT_COMMITTER_DATE="$(date -d "1 hour ago" -R)" git commit -qm init --date "$(date -d "1 hour ago" -R)")
  m projects new "Retry $client" --slug "$slug" --code-path "$dir" >/dev/null
  echo "== $client: a session that never calls Mooring"
  run "$client" "$dir" "Add a retry helper"
  [ -f "$dir/retry.py" ] || { echo "$client did not write its file"; tail -20 "$tmp/$client.out"; exit 1; }
  m memory list "$slug" --kind session --json >"$tmp/sessions.json"
  python3 - "$tmp/sessions.json" "$client" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))["entries"]
assert len(entries) == 1, f"{sys.argv[2]}: one record for the session, got {len(entries)}"
text = entries[0]["content"]
for want in ["Add a retry helper", "created retry.py", "deleted old_retry.py", "renamed notes.txt → NOTES.md",
             "git status", "Committed", "\"Add the retry helper\"", "still needs documenting"]:
    assert want in text, f"{sys.argv[2]}: {want!r} not in the record:\n{text}"
assert "def retry" not in text and "min(n, 3)" not in text, "file contents reached the record"
print(sys.argv[2], "record:", text.replace("\n", " | ")[:400])
PY
done
stop_standin
if grep -rqa "ghp_Z7k2Qm9x" "$data"; then echo "the token a session typed reached Mooring's files"; exit 1; fi

for client in codex gemini; do
  slug="retry-$client"
  m memory add "$slug" --kind decision "Lease renewals retry twice with jitter, then the leader steps down" >/dev/null
  for i in $(seq 1 25); do m memory add "$slug" --kind decision "Decision $i: metrics go to shard $i" >/dev/null; done
  echo "== $client: a prompt about an older decision brings it to the model"
  start_standin plain
  configure
  run "$client" "$tmp/code/$slug" "Why do lease renewals retry only twice?"
  stop_standin
  python3 - "$tmp/record.jsonl" "$client" <<'PY'
import json, sys
bodies = [json.loads(l)["body"] or {} for l in open(sys.argv[1]) if l.strip()]
text = json.dumps(bodies)
for want in ["Mooring recalled it for this prompt", "Lease renewals retry twice", "Last session (captured by Mooring"]:
    assert want in text, f"{sys.argv[2]}: {want!r} not in any model request"
print(sys.argv[2], ": the recalled decision and the last session reached the model")
PY
done
echo "== Gemini CLI's own memory: the client writes its private project memory, mooring import gemini-memory brings it in once"
start_standin remember
configure
run gemini "$tmp/code/retry-gemini" "Remember that ledger amounts are integer cents"
stop_standin
ls "$HOME/.gemini/tmp/"*/memory/MEMORY.md >/dev/null \
  || { echo "the client wrote no memory file"; find "$HOME/.gemini" -type f; tail -20 "$tmp/gemini.out"; exit 1; }
m import gemini-memory --project retry-gemini --json >"$tmp/import1.json"
m import gemini-memory --project retry-gemini --json >"$tmp/import2.json"
m memory list retry-gemini --kind note --json >"$tmp/notes.json"
python3 - "$tmp/import1.json" "$tmp/import2.json" "$tmp/notes.json" <<'PY'
import json, sys
first, second, notes = (json.load(open(p)) for p in sys.argv[1:])
assert first["done"]["added"] == 2, first
assert second["done"]["added"] == 0 and second["done"]["unchanged"] == 2, second
titles = sorted(n["title"] for n in notes["entries"])
assert titles == ["Money", "Releases"], titles
assert all("From Gemini CLI's memory" in n["content"] for n in notes["entries"]), notes
print("imported from Gemini CLI's memory:", titles)
PY
echo "== Codex's edits meet another session's claim before they run (it has no ask, and no Mooring runs to ask the person: refused with the reason)"
held_checkout
# The held checkout as first committed, for the next client.
first_commit() {
  git -C "$dir" reset -q --hard "$(git -C "$dir" rev-list --max-parents=0 HEAD)" && git -C "$dir" clean -qfd
}
start_standin work
configure
run codex "$dir" "Add a retry helper"
stop_standin
held_refused "Codex" || { tail -20 "$tmp/codex.out"; exit 1; }
[ -e "$dir/old_retry.py" ] || { echo "Codex's second patch (retry.py and old_retry.py) ran"; exit 1; }

echo "== Gemini CLI's writes into the held file are refused before they run too"
first_commit
start_standin work
configure
run gemini "$dir" "Add a retry helper"
stop_standin
held_refused "Gemini CLI" || { tail -20 "$tmp/gemini.out"; exit 1; }

echo "== With Mooring running, Codex's write into a held file is asked of the person, whose Let it write lets it run"
first_commit
MOORING_OPEN_BROWSER=0 "$tmp/bin/mooring" --data-dir "$data" serve --port 0 --json >"$tmp/serve.json" 2>"$tmp/serve.log" &
hub=$!
for _ in $(seq 1 100); do grep -q '}' "$tmp/serve.json" 2>/dev/null && break; sleep 0.1; done
base=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"].rsplit("/mcp", 1)[0])' "$tmp/serve.json")
# Both of its patches touch retry.py: each is asked about, and let through.
python3 "$lib/answer_held_writes.py" "$base" "$tmp/bin/mooring" "$data" 2 150 "$tmp/answered.json" &
person=$!
start_standin work
configure
run codex "$dir" "Add a retry helper"
stop_standin
wait "$person"
kill "$hub"; wait "$hub" 2>/dev/null || true
[ -e "$dir/retry.py" ] || { echo "the person let Codex write retry.py, but it did not"; tail -20 "$tmp/codex.out"; exit 1; }
python3 - "$tmp/answered.json" <<'PY'
import json, sys
answered = json.load(open(sys.argv[1]))
assert len(answered) == 2, f"the person was asked {len(answered)} times, not once per patch: {answered}"
for a in answered:
    prompt = a["page"]["request"]["prompt"]
    assert "The codex session is about to write" in prompt and "retry.py" in prompt, prompt
    assert "split the retry policy" in prompt, prompt
    assert a["page"]["status"] == "pending", a
print("the person's page read:", answered[0]["page"]["request"]["prompt"].splitlines()[1][:100])
PY
echo "== In a project that only warns, Codex's write into a held file runs, and its model is told whose file it is"
first_commit
m sessions held --claims warn >/dev/null
start_standin work
configure
run codex "$dir" "Add a retry helper"
stop_standin
[ -e "$dir/retry.py" ] || { echo "a warning stopped Codex's write"; tail -20 "$tmp/codex.out"; exit 1; }
python3 - "$tmp/record.jsonl" <<'PY'
import json, sys
text = json.dumps([json.loads(l)["body"] for l in open(sys.argv[1]) if l.strip()])
want = "retry.py is being edited by the claude-code session"
assert want in text, "Codex's model was not told of the claim it wrote over"
print("Codex's model read the warning:", text[text.index(want):text.index(want) + 80])
PY
echo "ok: Codex and Gemini CLI sessions captured without the agent; recall reaches their models; Gemini CLI's own memory brought in once; Codex's edits into a held file refused before they run, and with Mooring running asked of the person, whose answer decides"
