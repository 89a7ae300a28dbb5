"""Run as another local user: every endpoint of someone else's Mooring must refuse us
(403 OTHER_USER), even with their token in hand. Standard library only (it runs as
`nobody`, outside any venv). Prints one line per probe; exits 1 on the first that gets in.

usage: other_user_probe.py BASE_URL TOKEN_FILE
"""
import http.client
import json
import socket
import sys
import urllib.parse

base, token_file = sys.argv[1], sys.argv[2]
token = open(token_file).read().strip()
u = urllib.parse.urlparse(base)
init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "intruder", "version": "1"}}})
search = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
    "name": "search_memory", "arguments": {"query": "secret", "all_projects": True},
    "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
mcp_headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
probes = [
    ("GET", "/health", None, {}),
    ("POST", "/mcp", init, mcp_headers),
    ("POST", "/mcp", search, {**mcp_headers, "mcp-protocol-version": "2026-07-28"}),
    ("POST", "/mcp", init, {**mcp_headers, "authorization": f"Bearer {token}"}),
    ("GET", "/api/v1/projects", None, {"authorization": f"Bearer {token}"}),
    ("GET", "/api/v1/search?q=secret", None, {"authorization": f"Bearer {token}"}),
    ("PATCH", "/api/v1/settings", json.dumps({"settings": {"auto_pause_days": 1}}),
     {"authorization": f"Bearer {token}", "content-type": "application/json"}),
    ("GET", "/", None, {}),
    ("GET", f"/dashboard?token={token}", None, {}),
    ("GET", "/choice/c-000000000000/state?t=x", None, {}),
    ("GET", "/pick/p-000000000000/state?t=x", None, {}),
]
failed = False
for method, path, body, headers in probes:
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read().decode(errors="replace")
    ok = r.status == 403 and "OTHER_USER" in data
    print(f"{'refused' if ok else 'GOT IN '} {r.status} {method} {path.split('?')[0]}")
    failed |= not ok

# A WebSocket upgrade, by hand.
s = socket.create_connection((u.hostname, u.port), timeout=5)
s.sendall((f"GET /choice/c-000000000000/ws?t=x HTTP/1.1\r\nHost: {u.netloc}\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
head = s.recv(4096).decode(errors="replace")
ok = head.startswith("HTTP/1.1 403")
print(f"{'refused' if ok else 'GOT IN '} {head.split(chr(13))[0]} websocket upgrade")
failed |= not ok
sys.exit(1 if failed else 0)
