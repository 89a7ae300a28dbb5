"""Agent sessions in a directory whose .mooring.toml is hostile (a FIFO, a symlink to
/dev/zero): several at once, while /health is timed. Standard library only.

usage: hostile_marker.py BASE_URL DIR → prints "calls=N slowest_call_s=… slowest_health_s=…"
and each call's error code; exits 1 if a call hung or /health took 1 s or more.
"""
import http.client
import json
import secrets
import sys
import threading
import time
import urllib.parse

from rawmcp import open_session, post

base, directory = sys.argv[1], sys.argv[2]
u = urllib.parse.urlparse(base)
cwd = "file://" + urllib.parse.quote(directory)


results = []


def agent():
    started = time.monotonic()
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    me = {"x-mooring-session": "msh_" + secrets.token_hex(32), "x-mooring-cwd": cwd}
    sid = open_session(c, "probe", me)
    _, reply = post(c, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                        "params": {"name": "get_last_handover", "arguments": {}}}, sid)
    code = ((reply.get("result") or {}).get("structuredContent") or {}).get("error", {}).get("code")
    results.append((time.monotonic() - started, code))


threads = [threading.Thread(target=agent) for _ in range(4)]
for t in threads:
    t.start()
slowest_health = 0.0
while any(t.is_alive() for t in threads):
    started = time.monotonic()
    h = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    h.request("GET", "/health")
    h.getresponse().read()
    slowest_health = max(slowest_health, time.monotonic() - started)
    time.sleep(0.05)
for t in threads:
    t.join(30)
slowest_call = max((d for d, _ in results), default=99)
print(f"calls={len(results)} slowest_call_s={slowest_call:.2f} slowest_health_s={slowest_health:.3f} "
      f"codes={sorted(set(str(c) for _, c in results))}")
sys.exit(0 if len(results) == 4 and slowest_call < 10 and slowest_health < 1 else 1)
