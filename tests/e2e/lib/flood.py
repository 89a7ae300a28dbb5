"""N `initialize` requests on one kept-alive connection, then the server's RSS growth.

usage: flood.py BASE_URL PID N  → prints "initializes=N rss_before_kb=… rss_after_kb=…"
"""
import http.client
import json
import sys
import urllib.parse

base, pid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
u = urllib.parse.urlparse(base)


def rss_kb():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "flood", "version": "1"}}})
headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
before = rss_kb()
c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
for i in range(n):
    try:
        c.request("POST", "/mcp", body=body, headers=headers)
        r = c.getresponse()
        r.read()
        assert r.status == 200, r.status
    except (http.client.HTTPException, ConnectionError):
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
        c.request("POST", "/mcp", body=body, headers=headers)
        r = c.getresponse()
        r.read()
        assert r.status == 200, r.status
print(f"initializes={n} rss_before_kb={before} rss_after_kb={rss_kb()}")
