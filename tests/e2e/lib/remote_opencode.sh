# Sourced by tests/e2e/remote.sh while the person is away with a paired phone: a real
# opencode's permission prompt, allowed and then denied from the phone, and its finished
# turn going on with the phone's reply. opencode's own
# server is what waits for an answer (`opencode run` rejects every prompt itself at once,
# and its interface needs a terminal): each prompt is posted to it as an editor would.
echo "== a real opencode server: its permission prompt allowed, then denied, from the phone"
oc="$tools/opencode/node_modules/.bin/opencode"
[ -x "$oc" ] || { echo "$oc is missing: run scripts/test-tools.sh"; exit 1; }
ocfg="$XDG_CONFIG_HOME/opencode"
mkdir -p "$ocfg/node_modules"
# The plugin package opencode installs beside any plugin, as npm would (offline here).
cp -r "$tools/opencode/node_modules/@opencode-ai" "$ocfg/node_modules/"
echo '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}' >"$ocfg/package.json"
: >"$tmp/record.jsonl"; rm -f "$tmp/mport"
STANDIN_SCRIPT=permission python3 "$lib/model_standin.py" "$tmp/mport" "$tmp/record.jsonl" &
ocmodel=$!
pids+=($ocmodel)
for _ in $(seq 1 50); do [ -s "$tmp/mport" ] && break; sleep 0.1; done
# The person's choice: opencode asks before each command.
cat >"$ocfg/opencode.json" <<JSON
{ "provider": { "standin": { "npm": "@ai-sdk/openai-compatible", "name": "Stand-in",
      "options": { "baseURL": "http://127.0.0.1:$(cat "$tmp/mport")/v1", "apiKey": "sk-standin" },
      "models": { "standin-model": { "name": "Stand-in", "tool_call": true, "limit": { "context": 128000, "output": 4096 } } } } },
  "model": "standin/standin-model", "permission": { "bash": "ask" } }
JSON
m setup opencode --hooks >/dev/null
ocport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$tmp/code/app" && XDG_DATA_HOME="$HOME/.local/share" OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 \
   OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
   exec "$oc" serve --hostname 127.0.0.1 --port "$ocport" >"$tmp/opencode-serve.log" 2>&1) &
pids+=($!)
for _ in $(seq 1 150); do curl -sf -m 2 "http://127.0.0.1:$ocport/path" >/dev/null 2>&1 && break; sleep 0.2; done
oc_asks() {  # oc_asks LABEL: one prompt in a new session of the App checkout; its command needs permission
  local sid run
  sid=$(curl -sf -m 20 -X POST "http://127.0.0.1:$ocport/session" -H 'content-type: application/json' -d '{}' \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
  curl -sf -m 150 -X POST "http://127.0.0.1:$ocport/session/$sid/message" -H 'content-type: application/json' \
    -d '{"parts":[{"type":"text","text":"Do the approval step"}],"model":{"providerID":"standin","modelID":"standin-model"}}' \
    >"$tmp/oc-message.json" &
  run=$!
  phone press "Allow bash?" "$1" >"$tmp/ocasked.json"
  wait "$run" || { echo "opencode's prompt failed"; tail -20 "$tmp/opencode-serve.log"; exit 1; }
  # Its finished turn waits for the person's next words too: let it stop.
  phone press-new "An agent finished" "Let it stop" "$tmp/ocasked.json" >/dev/null
}
oc_asks "Allow once"
[ -e "$tmp/code/app/approved.txt" ] || { echo "Allow from the phone did not run opencode's command"; tail -c 600 "$tmp/oc-message.json"; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'run \`touch approved.txt\`' in a['text'] and 'app · opencode' in a['text'], a['text']" "$tmp/ocasked.json"
rm "$tmp/code/app/approved.txt"
oc_asks "Deny"
[ ! -e "$tmp/code/app/approved.txt" ] || { echo "Deny from the phone still ran opencode's command"; exit 1; }
grep -q "The person refused this (answered on telegram)" "$tmp/record.jsonl" \
  || { echo "opencode's model was not told the person refused"; tail -c 800 "$tmp/record.jsonl"; exit 1; }
echo "ok: opencode's permission prompt reached the phone: Allow ran the command, Deny told its model why"

echo "== a real opencode server: its finished turn goes on with the phone's reply"
# The same server, its model now the "continue" stand-in on the port it was given.
ocmport=$(cat "$tmp/mport")
kill "$ocmodel"; wait "$ocmodel" 2>/dev/null || true
: >"$tmp/record.jsonl"
STANDIN_SCRIPT=continue python3 "$lib/model_standin.py" "$tmp/mport.2" "$tmp/record.jsonl" "$ocmport" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$tmp/mport.2" ] && break; sleep 0.1; done
sid=$(curl -sf -m 20 -X POST "http://127.0.0.1:$ocport/session" -H 'content-type: application/json' -d '{}' \
      | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
curl -sf -m 20 -X POST "http://127.0.0.1:$ocport/session/$sid/prompt_async" -H 'content-type: application/json' \
  -d '{"parts":[{"type":"text","text":"Do the first part"}]}' >/dev/null \
  || { echo "opencode did not take the prompt"; tail -20 "$tmp/opencode-serve.log"; exit 1; }
phone reply "An agent finished" "now write the changelog" >"$tmp/oc-finished.json"
phone press-new "An agent finished" "Let it stop" "$tmp/oc-finished.json" >/dev/null
said=""
for _ in $(seq 1 100); do
  said=$(curl -sf -m 5 "http://127.0.0.1:$ocport/session/$sid/message" || true)
  grep -q "Writing the changelog now." <<<"$said" && break
  sleep 0.3
done
grep -q "Writing the changelog now." <<<"$said" \
  || { echo "opencode's session did not go on with the phone's words"; tail -c 1500 <<<"$said"; exit 1; }
grep -q "replied from their phone with your next instruction: now write the changelog" <<<"$said" \
  || { echo "the phone's words did not reach opencode's session framed as the person's reply"; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert 'First part done.' in a['text'] and 'app · opencode' in a['text'], a['text']" "$tmp/oc-finished.json" \
  || { phone texts "An agent finished"; tail -5 "$data/hook.log"; exit 1; }
echo "ok: opencode's finished turn told the phone its last word and went on with the reply"
