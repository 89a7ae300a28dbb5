"""Plain-HTTP MCP for the probes (standard library only, so it also runs as another user):
one JSON-RPC POST, and a 2025-11-25 session opened on a connection."""
import http.client
import json


def post(conn: http.client.HTTPConnection, body: dict, headers: dict):
    """POST one message to /mcp; returns the response and its JSON (from SSE data too)."""
    conn.request("POST", "/mcp", body=json.dumps(body), headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream", **headers})
    r = conn.getresponse()
    text = r.read().decode()
    for line in text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            text = line[5:].strip()
    return r, (json.loads(text) if text.startswith("{") else {})


def open_session(conn: http.client.HTTPConnection, client: str, headers: dict) -> dict:
    """initialize + initialized; returns the headers later requests of the session carry."""
    r, _ = post(conn, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": client, "version": "1"}}}, headers)
    session = {"mcp-session-id": r.getheader("mcp-session-id"), **headers}
    post(conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    return session
