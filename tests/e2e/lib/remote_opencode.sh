# Sourced by tests/e2e/remote.sh while the person is away with a paired phone: a real
# opencode's (and its fork Kilo's) permission prompt, allowed and then denied from the
# phone, and its finished turn going on with the phone's reply. The client's own server
# is what waits for an answer (`opencode run` rejects every prompt itself at once, and
# its interface needs a terminal): each prompt is posted to it as an editor would.

# family_remote NAME BIN: NAME's config folder holds its plugin package already; its
# server runs with the environment exported for it.
family_remote() {
  local fam=$1 fbin=$2 fcfg="$XDG_CONFIG_HOME/$1" fmodel fport sid said run
  echo "== a real $fam server: its permission prompt allowed, then denied, from the phone"
  [ -x "$fbin" ] || { echo "$fbin is missing: run scripts/test-tools.sh"; exit 1; }
  : >"$tmp/record.jsonl"; rm -f "$tmp/mport"
  STANDIN_SCRIPT=permission python3 "$lib/model_standin.py" "$tmp/mport" "$tmp/record.jsonl" &
  fmodel=$!
  pids+=($fmodel)
  for _ in $(seq 1 50); do [ -s "$tmp/mport" ] && break; sleep 0.1; done
  # The person's choice: the client asks before each command.
  cat >"$fcfg/$fam.json" <<JSON
{ "provider": { "standin": { "npm": "@ai-sdk/openai-compatible", "name": "Stand-in",
      "options": { "baseURL": "http://127.0.0.1:$(cat "$tmp/mport")/v1", "apiKey": "sk-standin" },
      "models": { "standin-model": { "name": "Stand-in", "tool_call": true, "limit": { "context": 128000, "output": 4096 } } } } },
  "model": "standin/standin-model", "permission": { "bash": "ask" } }
JSON
  m setup "$fam" --hooks >/dev/null
  # Each prompt below is a new session of the one server running the same command: the
  # first would hold approved.txt against the second (claims have tiers of their own;
  # the project asks again, its default, at the end).
  m sessions app --claims off >/dev/null
  fport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$tmp/code/app" && XDG_DATA_HOME="$HOME/.local/share" \
     exec "$fbin" serve --hostname 127.0.0.1 --port "$fport" >"$tmp/$fam-serve.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 1 150); do curl -sf -m 2 "http://127.0.0.1:$fport/path" >/dev/null 2>&1 && break; sleep 0.2; done
  new_session() {
    curl -sf -m 20 -X POST "http://127.0.0.1:$fport/session" -H 'content-type: application/json' -d '{}' \
      | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'
  }
  asks() {  # asks LABEL: one prompt in a new session of the App checkout; its command needs permission
    sid=$(new_session)
    curl -sf -m 150 -X POST "http://127.0.0.1:$fport/session/$sid/message" -H 'content-type: application/json' \
      -d '{"parts":[{"type":"text","text":"Do the approval step"}],"model":{"providerID":"standin","modelID":"standin-model"}}' \
      >"$tmp/$fam-message.json" &
    run=$!
    phone press "Allow bash?" "$1" >"$tmp/$fam-asked.json"
    wait "$run" || { echo "$fam's prompt failed"; tail -20 "$tmp/$fam-serve.log"; exit 1; }
    # Its finished turn waits for the person's next words too: let it stop.
    phone press-new "An agent finished" "Let it stop" "$tmp/$fam-asked.json" >/dev/null
  }
  asks "Allow once"
  [ -e "$tmp/code/app/approved.txt" ] \
    || { echo "Allow from the phone did not run $fam's command"; tail -c 600 "$tmp/$fam-message.json"; exit 1; }
  python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'run \`touch approved.txt\`' in a['text'] and 'app · '+sys.argv[2] in a['text'], a['text']" \
    "$tmp/$fam-asked.json" "$fam"
  rm "$tmp/code/app/approved.txt"
  asks "Deny"
  [ ! -e "$tmp/code/app/approved.txt" ] || { echo "Deny from the phone still ran $fam's command"; exit 1; }
  grep -q "The person refused this (answered on telegram)" "$tmp/record.jsonl" \
    || { echo "$fam's model was not told the person refused"; tail -c 800 "$tmp/record.jsonl"; exit 1; }
  echo "ok: $fam's permission prompt reached the phone: Allow ran the command, Deny told its model why"

  echo "== a real $fam server: its finished turn goes on with the phone's reply"
  # The same server, its model now the "continue" stand-in on the port it was given.
  local mport
  mport=$(cat "$tmp/mport")
  kill "$fmodel"; wait "$fmodel" 2>/dev/null || true
  : >"$tmp/record.jsonl"; rm -f "$tmp/mport.2"
  STANDIN_SCRIPT=continue python3 "$lib/model_standin.py" "$tmp/mport.2" "$tmp/record.jsonl" "$mport" &
  fmodel=$!
  pids+=($fmodel)
  for _ in $(seq 1 50); do [ -s "$tmp/mport.2" ] && break; sleep 0.1; done
  sid=$(new_session)
  curl -sf -m 20 -X POST "http://127.0.0.1:$fport/session/$sid/prompt_async" -H 'content-type: application/json' \
    -d '{"parts":[{"type":"text","text":"Do the first part"}]}' >/dev/null \
    || { echo "$fam did not take the prompt"; tail -20 "$tmp/$fam-serve.log"; exit 1; }
  phone reply "An agent finished" "now write the changelog" >"$tmp/$fam-finished.json"
  phone press-new "An agent finished" "Let it stop" "$tmp/$fam-finished.json" >/dev/null
  said=""
  for _ in $(seq 1 100); do
    said=$(curl -sf -m 5 "http://127.0.0.1:$fport/session/$sid/message" || true)
    grep -q "Writing the changelog now." <<<"$said" && break
    sleep 0.3
  done
  grep -q "Writing the changelog now." <<<"$said" \
    || { echo "$fam's session did not go on with the phone's words"; tail -c 1500 <<<"$said"; exit 1; }
  grep -q "replied from their phone with your next instruction: now write the changelog" <<<"$said" \
    || { echo "the phone's words did not reach $fam's session framed as the person's reply"; exit 1; }
  python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'First part done.' in a['text'] and 'app · '+sys.argv[2] in a['text'], a['text']" \
    "$tmp/$fam-finished.json" "$fam" || { phone texts "An agent finished"; exit 1; }
  kill "$fmodel"; wait "$fmodel" 2>/dev/null || true
  echo "ok: $fam's finished turn told the phone its last word and went on with the reply"
  m sessions app --claims ask >/dev/null
}

# The plugin packages each client installs beside any plugin, as npm would (offline here).
mkdir -p "$XDG_CONFIG_HOME/opencode/node_modules"
cp -r "$tools/opencode/node_modules/@opencode-ai" "$XDG_CONFIG_HOME/opencode/node_modules/"
echo '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}' >"$XDG_CONFIG_HOME/opencode/package.json"
OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
  OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
  family_remote opencode "$tools/opencode/node_modules/.bin/opencode"
mkdir -p "$XDG_CONFIG_HOME/kilo/node_modules/@kilocode"
cp -r "$tools/kilo/node_modules/@kilocode/plugin" "$tools/kilo/node_modules/@kilocode/sdk" \
  "$XDG_CONFIG_HOME/kilo/node_modules/@kilocode/"
echo '{"dependencies":{"@kilocode/plugin":"7.3.1"}}' >"$XDG_CONFIG_HOME/kilo/package.json"
KILO_DISABLE_AUTOUPDATE=1 KILO_DISABLE_DEFAULT_PLUGINS=1 KILO_DISABLE_LSP_DOWNLOAD=1 KILO_DISABLE_SHARE=1 \
  KILO_DISABLE_MODELS_FETCH=1 KILO_TELEMETRY_LEVEL=off KILO_DISABLE_SESSION_INGEST=1 KILO_DISABLE_PRESENCE=1 \
  KILO_DISABLE_CODEBASE_INDEXING=1 \
  family_remote kilo "$tools/kilo/node_modules/.bin/kilo"
