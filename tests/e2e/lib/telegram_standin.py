"""A stand-in for Telegram's Bot API, written from its published reference
(https://core.telegram.org/bots/api): `getUpdates` with `offset` and long-poll `timeout`,
`sendMessage` and `editMessageText` with inline keyboards or a forced reply,
`answerCallbackQuery`; answers `{"ok": true, "result": ...}` or `{"ok": false,
"error_code", "description"}` as the platform does, and holds the platform's limits
(4096-character text, 1-64 bytes of `callback_data`, "message is not modified", an unknown
chat, a wrong token). The test plays the phone through /control/*: a person's message or
button press becomes an update; /control/messages lists what the bot wrote, with every
edit; /control/down makes the API unreachable for a while.

usage: telegram_standin.py PORTFILE TOKEN
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = sys.argv[2]
lock = threading.Condition()
updates = []          # pending updates, in order
next_update = [1]
messages = {}         # message_id -> {"chat", "text", "markup", "edits": [...], "reply_to"}
next_message = [100]
callbacks = []        # answered callback query ids
chats = set()         # chats that wrote to the bot (only those can be written to)
down_until = [0.0]
calls = []            # (method, ok) per API call


def fail(code, description):
    return {"ok": False, "error_code": code, "description": description}


def check_markup(markup):
    for row in (markup or {}).get("inline_keyboard", []):
        for b in row:
            data = b.get("callback_data", "")
            if not (1 <= len(data.encode()) <= 64) or not b.get("text"):
                return fail(400, "Bad Request: BUTTON_DATA_INVALID")
    return None


def api(method, body):
    if method == "getUpdates":
        offset = int(body.get("offset") or 0)
        timeout = min(int(body.get("timeout") or 0), 50)
        deadline = time.time() + timeout
        with lock:
            # Updates before the offset are confirmed: forgotten for good.
            updates[:] = [u for u in updates if u["update_id"] >= offset]
            while not updates and time.time() < deadline:
                lock.wait(deadline - time.time())
            return {"ok": True, "result": list(updates[:100])}
    if method == "sendMessage":
        chat, text = str(body.get("chat_id", "")), body.get("text", "")
        if chat not in chats:
            return fail(400, "Bad Request: chat not found")
        if not 1 <= len(text) <= 4096:
            return fail(400, "Bad Request: message is too long" if text else "Bad Request: message text is empty")
        markup = body.get("reply_markup")
        bad = check_markup(markup)
        if bad:
            return bad
        with lock:
            mid = next_message[0]
            next_message[0] += 1
            messages[mid] = {"chat": chat, "text": text, "markup": markup, "edits": [], "at": time.time()}
            lock.notify_all()
        return {"ok": True, "result": {"message_id": mid, "chat": {"id": int(chat), "type": "private"},
                                       "date": int(time.time()), "text": text, "reply_markup": markup}}
    if method == "editMessageText":
        mid = int(body.get("message_id") or 0)
        with lock:
            m = messages.get(mid)
            if not m or m["chat"] != str(body.get("chat_id")):
                return fail(400, "Bad Request: message to edit not found")
            markup = body.get("reply_markup")
            bad = check_markup(markup)
            if bad:
                return bad
            if m["text"] == body.get("text") and m["markup"] == markup:
                return fail(400, "Bad Request: message is not modified")
            m["edits"].append({"text": m["text"], "markup": m["markup"]})
            m["text"], m["markup"] = body.get("text", ""), markup
            lock.notify_all()
        return {"ok": True, "result": {"message_id": mid, "text": m["text"]}}
    if method == "answerCallbackQuery":
        with lock:
            callbacks.append(body.get("callback_query_id"))
        return {"ok": True, "result": True}
    return fail(404, "Not Found")


def enqueue(update):
    with lock:
        update["update_id"] = next_update[0]
        next_update[0] += 1
        updates.append(update)
        lock.notify_all()
    return update["update_id"]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("content-length") or 0)
        return json.loads(self.rfile.read(n) or b"{}")

    def do_GET(self):
        if self.path == "/control/messages":
            with lock:
                return self.reply({"messages": {str(k): v for k, v in messages.items()}, "callbacks": callbacks,
                                   "pending_updates": len(updates), "calls": calls})
        self.reply(fail(404, "Not Found"), 404)

    def do_POST(self):
        body = self.body()
        if self.path == "/control/message":
            chat = str(body["chat"])
            with lock:
                chats.add(chat)
            msg = {"message_id": body.get("message_id", 1), "date": int(time.time()),
                   "from": {"id": int(body["from"]), "is_bot": False, "first_name": "P"},
                   "chat": {"id": int(chat), "type": "private"}, "text": body["text"]}
            if body.get("reply_to"):
                msg["reply_to_message"] = {"message_id": int(body["reply_to"])}
            return self.reply({"update_id": enqueue({"message": msg})})
        if self.path == "/control/press":
            mid = int(body["message_id"])
            with lock:
                m = messages.get(mid, {"chat": str(body.get("chat", 0))})
            q = {"id": str(int(time.time() * 1e6)), "from": {"id": int(body["from"]), "is_bot": False},
                 "message": {"message_id": mid, "chat": {"id": int(m["chat"]), "type": "private"}},
                 "chat_instance": "1", "data": body["data"]}
            return self.reply({"update_id": enqueue({"callback_query": q})})
        if self.path == "/control/down":
            down_until[0] = time.time() + float(body["seconds"])
            return self.reply({"ok": True})
        if not self.path.startswith("/bot"):
            return self.reply(fail(404, "Not Found"), 404)
        token, _, method = self.path[4:].partition("/")
        if time.time() < down_until[0]:
            # The platform out of reach: the connection drops without an answer.
            self.close_connection = True
            self.connection.close()
            return
        if token != TOKEN:
            return self.reply(fail(401, "Unauthorized"), 401)
        result = api(method, body)
        with lock:
            calls.append((method, result["ok"]))
        self.reply(result, 200 if result["ok"] else result["error_code"])


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os  # noqa: E402
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
server.serve_forever()
