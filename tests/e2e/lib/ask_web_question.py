"""Ask a question over MCP (web surface) as a shim-identified session and print the
agent's result as JSON: its page URL carries the question's token. Standard library only.

usage: ask_web_question.py BASE_URL
"""
import http.client
import json
import secrets
import sys
import urllib.parse

from rawmcp import open_session, post

u = urllib.parse.urlparse(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
me = {"x-mooring-session": "msh_" + secrets.token_hex(32)}
sid = open_session(c, "asker", me)
_, reply = post(c, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "provide_choice", "arguments": {
    "title": "Rotate the key?", "prompt": "The deploy key is old.", "selection_mode": "single", "transport": "web",
    "options": [{"id": "y", "label": "Yes", "recommended": True}, {"id": "n", "label": "No"}]}}}, sid)
print(json.dumps({"session": me["x-mooring-session"], "mcp_session": sid["mcp-session-id"],
                  "result": reply["result"]["structuredContent"]}))
