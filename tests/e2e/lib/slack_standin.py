"""A stand-in for Slack's Web API and Socket Mode, written from the published references
(https://api.slack.com/apis/socket-mode, https://api.slack.com/methods/apps.connections.open,
https://api.slack.com/methods/chat.postMessage, https://api.slack.com/methods/chat.update,
https://api.slack.com/reference/block-kit/blocks):

- `apps.connections.open` takes only the app-level token (`xapp-`), gives a one-time
  `ws://` address; the socket says `hello`, sends `events_api` envelopes (a DM `message`
  with `channel_type: im`, a thread reply with `thread_ts`, an `app_mention` in a channel,
  and the echo of the bot's own DM messages with `bot_id`, as Slack does) and
  `interactive` ones (`block_actions`), each waiting for an ack by `envelope_id`;
  an envelope not acked within three seconds comes again with `retry_attempt` + 1;
  `disconnect` with `refresh_requested` asks for a new connection.
- `chat.postMessage` / `chat.update` take only the bot token (`xoxb-`) and check
  what Block Kit checks (section text <= 3000, <= 25 elements per actions block, button
  text <= 75, value <= 2000, action ids unique in a message); errors are
  `{"ok": false, "error": ...}`; a rate limit is HTTP 429 with `Retry-After`.

The test plays the phone through /control/* in the same shape as the Telegram stand-in:
person N is Slack user `U{N}` in DM channel `D{N}`; /control/messages lists what the bot
wrote (text unescaped, buttons as rows of {text, callback_data}) with every edit.

usage: slack_standin.py PORTFILE APP_TOKEN BOT_TOKEN
"""
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

APP_TOKEN, BOT_TOKEN = sys.argv[2], sys.argv[3]
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
lock = threading.Condition()
envelopes = []        # {"id", "body", "sent_at", "acked", "attempt"}
messages = {}         # n -> {"channel", "ts", "text", "blocks", "edits", "at"}
by_ts = {}
next_message = [100]
channels = set()      # DM channels people wrote in (the bot may write there)
tickets = set()
down_until = [0.0]
limited_until = [0.0]
calls = []
acks = []
connections = [0]
live = []             # the open socket, to drop it when the platform "goes down"
port = [0]


def unescape(t):
    return t.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def bad_blocks(blocks):
    ids = set()
    for b in blocks or []:
        if b.get("type") == "section":
            if len(b.get("text", {}).get("text", "")) > 3000:
                return "invalid_blocks"
        elif b.get("type") == "actions":
            els = b.get("elements", [])
            if not 1 <= len(els) <= 25:
                return "invalid_blocks"
            for e in els:
                if e.get("type") != "button" or len(e.get("text", {}).get("text", "")) > 75 \
                        or len(e.get("value", "")) > 2000 or not e.get("action_id") or e["action_id"] in ids:
                    return "invalid_blocks"
                ids.add(e["action_id"])
        else:
            return "invalid_blocks"
    return None


def shown(m):
    """A message as the phone shows it, in the Telegram stand-in's shape."""
    text = " ".join(b["text"]["text"] for b in m["blocks"] or [] if b.get("type") == "section") or m["text"]
    rows = [[{"text": e["text"]["text"], "callback_data": e["value"]} for e in b["elements"]]
            for b in m["blocks"] or [] if b.get("type") == "actions"]
    chat = m["channel"][1:] if m["channel"].startswith("D") else m["channel"]
    return {"chat": chat, "channel": m["channel"], "ts": m["ts"], "text": unescape(text),
            "markup": {"inline_keyboard": rows} if rows else None, "at": m["at"],
            "edits": [{"text": unescape(e["text"])} for e in m["edits"]]}


def enqueue(kind, payload, attempt=0):
    with lock:
        env = {"id": str(uuid.uuid4()), "sent_at": None, "acked": False, "attempt": attempt,
               "body": {"type": kind, "payload": payload, "accepts_response_payload": kind == "interactive",
                        "retry_attempt": attempt, "retry_reason": "timeout" if attempt else ""}}
        env["body"]["envelope_id"] = env["id"]
        envelopes.append(env)
        lock.notify_all()
    return env["id"]


def event(ev, event_id=None):
    return enqueue("events_api", {"token": "standin", "team_id": "T1", "api_app_id": "A1", "type": "event_callback",
                                  "event_id": event_id or "Ev" + uuid.uuid4().hex[:10], "event_time": int(time.time()),
                                  "event": ev})


def api(method, body, token):
    if method == "apps.connections.open":
        if token == BOT_TOKEN:
            return {"ok": False, "error": "not_allowed_token_type"}
        if token != APP_TOKEN:
            return {"ok": False, "error": "invalid_auth"}
        ticket = uuid.uuid4().hex
        with lock:
            tickets.add(ticket)
        return {"ok": True, "url": f"ws://127.0.0.1:{port[0]}/link/?ticket={ticket}&app_id=A1"}
    if method not in ("chat.postMessage", "chat.update"):
        return {"ok": False, "error": "unknown_method"}
    if token == APP_TOKEN:
        return {"ok": False, "error": "not_allowed_token_type"}
    if token != BOT_TOKEN:
        return {"ok": False, "error": "invalid_auth"}
    channel, text, blocks = body.get("channel", ""), body.get("text", ""), body.get("blocks")
    if not text and not blocks:
        return {"ok": False, "error": "no_text"}
    if len(text) > 40000:
        return {"ok": False, "error": "msg_too_long"}
    bad = bad_blocks(blocks)
    if bad:
        return {"ok": False, "error": bad}
    with lock:
        if method == "chat.postMessage":
            if channel not in channels:
                return {"ok": False, "error": "channel_not_found"}
            n = next_message[0]
            next_message[0] += 1
            ts = f"{time.time():.6f}"
            messages[n] = {"channel": channel, "ts": ts, "text": text, "blocks": blocks, "edits": [], "at": time.time()}
            by_ts[(channel, ts)] = n
            lock.notify_all()
        else:
            n = by_ts.get((channel, body.get("ts")))
            if n is None:
                return {"ok": False, "error": "message_not_found"}
            m = messages[n]
            m["edits"].append({"text": m["text"], "blocks": m["blocks"]})
            m["text"], m["blocks"] = text, blocks
            ts = m["ts"]
            lock.notify_all()
    if method == "chat.postMessage":
        # Slack echoes the bot's own DM message to an app subscribed to message.im.
        event({"type": "message", "channel": channel, "channel_type": "im", "bot_id": "B1", "user": "UBOT",
               "text": text, "ts": ts})
    return {"ok": True, "channel": channel, "ts": ts, "message": {"text": text, "blocks": blocks, "ts": ts}}


def ws_frame(op, data):
    n = len(data)
    head = bytes([0x80 | op])
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack(">H", n)
    else:
        head += bytes([127]) + struct.pack(">Q", n)
    return head + data


def ws_read(rf):
    head = rf.read(2)
    if len(head) < 2:
        return None
    op, masked, n = head[0] & 0x0F, head[1] & 0x80, head[1] & 0x7F
    if n == 126:
        n = struct.unpack(">H", rf.read(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", rf.read(8))[0]
    if not masked:
        return None  # RFC 6455: a client's frames are masked; anything else ends the connection
    mask = rf.read(4)
    data = bytearray(rf.read(n))
    for i in range(n):
        data[i] ^= mask[i % 4]
    return op, bytes(data)


class Socket:
    def __init__(self, handler):
        self.h, self.wlock, self.open = handler, threading.Lock(), True

    def send(self, op, data):
        with self.wlock:
            self.h.connection.sendall(ws_frame(op, data))

    def reader(self):
        try:
            while self.open:
                f = ws_read(self.h.rfile)
                if f is None:
                    break
                op, data = f
                if op == 0x9:
                    self.send(0xA, data)
                elif op == 0x8:
                    break
                elif op == 0x1:
                    ack = json.loads(data).get("envelope_id")
                    with lock:
                        acks.append(ack)
                        for e in envelopes:
                            if e["id"] == ack:
                                e["acked"] = True
                        lock.notify_all()
        except (OSError, ValueError):
            pass
        self.open = False
        with lock:
            lock.notify_all()

    def serve(self):
        threading.Thread(target=self.reader, daemon=True).start()
        self.send(0x1, json.dumps({"type": "hello", "num_connections": 1,
                                   "debug_info": {"host": "standin", "approximate_connection_time": 18060},
                                   "connection_info": {"app_id": "A1"}}).encode())
        while self.open:
            with lock:
                now = time.time()
                due = None
                for e in envelopes:
                    if e["acked"]:
                        continue
                    if e["sent_at"] is None:
                        due = e
                        break
                    if now - e["sent_at"] > 3:
                        # Not acked in time: Slack sends it again, one attempt more.
                        e["attempt"] += 1
                        e["body"]["retry_attempt"], e["body"]["retry_reason"] = e["attempt"], "timeout"
                        due = e
                        break
                if due is None:
                    lock.wait(0.5)
                    continue
                due["sent_at"] = now
                body = json.dumps(due["body"]).encode()
            try:
                self.send(0x1, body)
            except OSError:
                break
        self.open = False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def reply(self, obj, status=200, headers=()):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) or b"{}"
        if "json" in (self.headers.get("content-type") or ""):
            return json.loads(raw)
        return {k: v[0] for k, v in parse_qs(raw.decode()).items()}

    def down(self):
        if time.time() < down_until[0]:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return True
        return False

    def do_GET(self):
        if self.path == "/control/messages":
            with lock:
                return self.reply({"messages": {str(k): shown(v) for k, v in messages.items()},
                                   "acks": len(acks), "connections": connections[0], "calls": calls,
                                   "unacked": sum(1 for e in envelopes if not e["acked"])})
        if self.path.startswith("/link/"):
            if self.down():
                return
            ticket = parse_qs(urlparse(self.path).query).get("ticket", [""])[0]
            with lock:
                good = ticket in tickets
                tickets.discard(ticket)  # one connection per ticket
            key = self.headers.get("sec-websocket-key")
            if not good or (self.headers.get("upgrade") or "").lower() != "websocket" or not key:
                return self.reply({"ok": False, "error": "invalid_ticket"}, 401)
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            self.send_response(101)
            self.send_header("upgrade", "websocket")
            self.send_header("connection", "Upgrade")
            self.send_header("sec-websocket-accept", accept)
            self.end_headers()
            self.wfile.flush()
            with lock:
                # Slack sends what the old connection left unacked on the new one.
                for e in envelopes:
                    if not e["acked"]:
                        e["sent_at"] = None
                connections[0] += 1
            s = Socket(self)
            live[:] = [s]
            s.serve()
            self.close_connection = True
            return
        self.reply({"ok": False, "error": "unknown_method"}, 404)

    def do_POST(self):
        body = self.body()
        if self.path == "/control/message":
            who = str(body["from"])
            chat = str(body.get("chat", who))
            mention = body.get("mention", False)
            channel = chat if mention else "D" + chat
            with lock:
                if not mention:
                    channels.add(channel)
                parent = messages.get(int(body["reply_to"])) if body.get("reply_to") else None
            ev = {"type": "app_mention" if mention else "message", "channel": channel, "user": "U" + who,
                  "text": body["text"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                  if not mention else body["text"], "ts": f"{time.time():.6f}", "event_ts": f"{time.time():.6f}"}
            if not mention:
                ev["channel_type"] = "im"
            if parent:
                ev["thread_ts"] = parent["ts"]
            eid = "Ev" + uuid.uuid4().hex[:10]
            event(ev, eid)
            if body.get("twice"):
                # A redelivery as Slack makes one: the same event_id in a new envelope.
                enqueue("events_api", {"type": "event_callback", "event_id": eid, "event": ev}, attempt=1)
            return self.reply({"ok": True})
        if self.path == "/control/press":
            n = int(body["message_id"])
            with lock:
                m = messages.get(n) or {"channel": "D" + str(body.get("chat", body["from"])), "ts": "0"}
            payload = {"type": "block_actions", "user": {"id": "U" + str(body["from"])},
                       "trigger_id": uuid.uuid4().hex, "team": {"id": "T1"}, "api_app_id": "A1",
                       "container": {"type": "message", "message_ts": m["ts"], "channel_id": m["channel"]},
                       "channel": {"id": m["channel"]}, "response_url": "http://127.0.0.1/unused",
                       "actions": [{"type": "button", "action_id": "b0", "block_id": "r0", "value": body["data"],
                                    "action_ts": f"{time.time():.6f}"}]}
            enqueue("interactive", payload)
            return self.reply({"ok": True})
        if self.path == "/control/down":
            down_until[0] = time.time() + float(body["seconds"])
            for s in live:
                s.open = False
                try:
                    s.h.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            return self.reply({"ok": True})
        if self.path == "/control/ratelimit":
            limited_until[0] = time.time() + float(body["seconds"])
            return self.reply({"ok": True})
        if self.path == "/control/disconnect":
            for s in live:
                s.send(0x1, json.dumps({"type": "disconnect", "reason": "refresh_requested"}).encode())
            return self.reply({"ok": True})
        if not self.path.startswith("/api/"):
            return self.reply({"ok": False, "error": "unknown_method"}, 404)
        if self.down():
            return
        method = self.path[len("/api/"):]
        if time.time() < limited_until[0] and method != "apps.connections.open":
            with lock:
                calls.append((method, False))
            return self.reply({"ok": False, "error": "ratelimited"}, 429, [("retry-after", "1")])
        auth = self.headers.get("authorization") or ""
        # apps.connections.open takes its token from the Authorization header only.
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else \
            ("" if method == "apps.connections.open" else body.get("token", ""))
        result = api(method, body, token)
        with lock:
            calls.append((method, result["ok"]))
        self.reply(result)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
port[0] = server.server_address[1]
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(port[0]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
server.serve_forever()
