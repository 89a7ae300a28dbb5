"""Ask a question over MCP (web surface) as a shim-identified session and print the
agent's result as JSON: its page URL carries the question's token. Standard library only.

usage: ask_web_question.py BASE_URL
"""
import http.client
import json
import secrets
import sys
import urllib.parse

u = urllib.parse.urlparse(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
me = {"x-mooring-session": "msh_" + secrets.token_hex(32)}


def post(body, headers):
    c.request("POST", "/mcp", body=json.dumps(body), headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream", **headers})
    r = c.getresponse()
    text = r.read().decode()
    for line in text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            text = line[5:].strip()
    return r, (json.loads(text) if text.startswith("{") else {})


r, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "asker", "version": "1"}}}, me)
sid = {"mcp-session-id": r.getheader("mcp-session-id"), **me}
post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
_, reply = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "provide_choice", "arguments": {
    "title": "Rotate the key?", "prompt": "The deploy key is old.", "selection_mode": "single", "transport": "web",
    "options": [{"id": "y", "label": "Yes", "recommended": True}, {"id": "n", "label": "No"}]}}}, sid)
print(json.dumps({"session": me["x-mooring-session"], "mcp_session": sid["mcp-session-id"],
                  "result": reply["result"]["structuredContent"]}))
