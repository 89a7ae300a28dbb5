#!/usr/bin/env bash
# Security probes against the real `mooring serve` (the Rust suites cover the rest):
# another local user (`nobody`) is refused on every endpoint and writes nothing while the
# person's own clients work; hostile .mooring.toml files (a FIFO, a symlink to /dev/zero)
# cost a warning, not a hang or memory; no token or session id reaches the log, even at
# trace level; 10,000 initializes leave RSS bounded.
set -euo pipefail
cd "$(dirname "$0")/../.."
lib="$PWD/tests/e2e/lib"
tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
data="$tmp/data"
m() { "$MOORING_BIN/mooring" --data-dir "$data" "$@"; }
m projects new "Alpha" >/dev/null
m projects new "Beta" >/dev/null
echo '{ "wait_limit_seconds": 1 }' >"$data/choice-settings.json"

MOORING_LOG=trace "$MOORING_BIN/mooring" --data-dir "$data" serve --port 0 --json >"$tmp/serve.json" 2>"$tmp/serve.log" &
pid=$!
for _ in $(seq 1 100); do grep -q '"url"' "$tmp/serve.json" 2>/dev/null && break; sleep 0.1; done
base=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['url'].removesuffix('/mcp'))" "$tmp/serve.json")
token=$(m token)
# The server's own memory (heap, stacks): what a hostile marker read whole would grow. Its
# resident binary pages come and go (an idle server lets go of the code its start-up ran,
# and they come back page by page when run), so they are not counted.
rss() { awk '/RssAnon/ {print $2}' "/proc/$pid/status"; }
sessions() { curl -sf -H "authorization: Bearer $token" "$base/api/v1/sessions" | python3 -c "import json,sys; print(len(json.load(sys.stdin)['sessions']))"; }

echo "== another local user"
if id nobody >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  # Even holding the person's token (copied where nobody can read it), nobody gets in.
  install -m 0644 /dev/null "$tmp/token-copy"; printf '%s' "$token" >"$tmp/token-copy"
  chmod 0711 "$tmp"
  before=$(sessions)
  setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 "$lib/other_user_probe.py" "$base" "$tmp/token-copy"
  [ "$(sessions)" = "$before" ] || { echo "another user's requests created sessions"; exit 1; }
  # The person's own client, same server, no token: in.
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/mcp" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"me","version":"1"}}}')
  [ "$code" = 200 ] || { echo "the person's own client was refused ($code)"; exit 1; }
  echo "the person's own client: 200"
  # Another user holding slow connections (headers a byte a second, reconnecting as they
  # are cut) holds nothing of ours: each is refused at accept, so the person's requests
  # still answer at once.
  setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 "$lib/slow_user.py" "$base" 12 300 \
    >"$tmp/slow.out" &
  slow=$!
  sleep 2
  worst=$(python3 - "$base" "$token" <<'PY'
import json, sys, time, urllib.request
base, token = sys.argv[1], sys.argv[2]
worst = 0.0
for i in range(16):
    for path, headers in [("/health", {}), ("/api/v1/projects", {"authorization": f"Bearer {token}"})]:
        t = time.monotonic()
        with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=10) as r:
            assert r.status == 200, (path, r.status)
        worst = max(worst, time.monotonic() - t)
    time.sleep(0.5)
print(f"{worst:.3f}")
PY
)
  wait "$slow"
  echo "another user's slow connections: $(cat "$tmp/slow.out"); the person's slowest request: ${worst} s"
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 2.0 else 1)" "$worst" \
    || { echo "another user's slow connections held the person's requests up (${worst} s)"; exit 1; }
  grep -q "cut=[1-9]" "$tmp/slow.out" || { echo "the server never cut another user's connection"; exit 1; }
else
  echo "skipped: needs root and a 'nobody' user to act as another user"
fi

echo "== hostile .mooring.toml"
mkdir -p "$tmp/repos/fifo" "$tmp/repos/zero"
mkfifo "$tmp/repos/fifo/.mooring.toml"
ln -s /dev/zero "$tmp/repos/zero/.mooring.toml"
rss_before=$(rss)
for kind in fifo zero; do
  python3 "$lib/hostile_marker.py" "$base" "$tmp/repos/$kind"
  for cmd in "context" "resolve"; do
    start=$(date +%s%N)
    timeout 10 "$MOORING_BIN/mooring" --data-dir "$data" $cmd --cwd "$tmp/repos/$kind" >/dev/null 2>"$tmp/$cmd.err" \
      || { [ $? -eq 124 ] && { echo "mooring $cmd hung in the $kind repository"; exit 1; }; }
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    grep -q "ignored .*\.mooring\.toml: not a regular file" "$tmp/$cmd.err" \
      || { echo "mooring $cmd did not say why it ignored the marker:"; cat "$tmp/$cmd.err"; exit 1; }
    echo "mooring $cmd in the $kind repository: ${ms} ms, said: $(grep -o 'ignored .*' "$tmp/$cmd.err" | head -1 | sed "s|$tmp|…|")"
  done
done
rss_after=$(rss)
echo "server's own memory (RssAnon): ${rss_before} kB before, ${rss_after} kB after"
[ $((rss_after - rss_before)) -lt 20480 ] || { echo "the server's own memory grew by more than 20 MB"; exit 1; }
warnings=$(grep -c "ignored .*\.mooring\.toml" "$tmp/serve.log" || true)
[ "$warnings" -eq 2 ] || { echo "expected one warning per hostile marker in the server log, got $warnings"; exit 1; }

echo "== secrets stay out of the log (trace level)"
asked=$(python3 "$lib/ask_web_question.py" "$base")
# The agent's result carries no page key; the person's dashboard lists the page with it,
# and their browser opens it (so the key passes through the log's request lines).
case "$asked" in *"t="*) echo "the agent's result carries a page key: $asked"; exit 1;; esac
page=$(curl -sf -H "authorization: Bearer $token" "$base/api/v1/choices" | python3 -c "import json,sys; print(json.load(sys.stdin)['open'][0]['url'])")
qtoken=${page##*t=}
curl -sf "$base${page%%\?*}/state?t=$qtoken" >/dev/null || { echo "the person's page did not open with its key"; exit 1; }
shim=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['session'])" "$asked")
mcp_session=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['mcp_session'])" "$asked")
[ "$(wc -l <"$tmp/serve.log")" -gt 100 ] || { echo "the trace log is suspiciously short"; exit 1; }
for secret in "$token" "$qtoken" "$shim" "$mcp_session" "${qtoken#mqt_}" "${shim#msh_}" "${mcp_session#mcs_}"; do
  if grep -qF -- "$secret" "$tmp/serve.log"; then echo "a secret reached the log: ${secret:0:8}…"; exit 1; fi
done
# They were there to leak: the log shows where the scrubber took the session ids out
# (the question's key no longer passes through MCP at all).
grep -q 'mcs_…' "$tmp/serve.log" \
  || { echo "the log never carried a session id, so this proved nothing"; exit 1; }
echo "no token or session id in $(wc -l <"$tmp/serve.log") trace lines (scrubbed: $(grep -o 't=…\|mcs_…\|msh_…' "$tmp/serve.log" | wc -l))"

echo "== 10,000 initializes"
python3 "$lib/flood.py" "$base" "$pid" 10000 | tee "$tmp/flood.out"
grow=$(python3 -c "import sys; d=dict(kv.split('=') for kv in open(sys.argv[1]).read().split()); print(int(d['rss_after_kb'])-int(d['rss_before_kb']))" "$tmp/flood.out")
[ "$grow" -lt 102400 ] || { echo "RSS grew by ${grow} kB over 10,000 sessions"; exit 1; }
curl -sf --max-time 1 "$base/health" >/dev/null || { echo "/health did not answer after the flood"; exit 1; }
echo "security probes passed"
