"""What the remote tier's phone scripts share: the paired person's phone (and anyone
else's) against a stand-in's /control/* (Telegram's and Slack's have the same shape),
the CLI, and an agent asking over MCP that comes back with its handle."""
import http.client
import json
import secrets
import subprocess
import time
import urllib.parse
import urllib.request

from rawmcp import open_session, post


class Phone:
    """Person `me` (a number; the stand-ins turn it into their ids) on the platform whose
    stand-in listens on `port`."""

    def __init__(self, port, me=42):
        self.port, self.me = port, me

    def control(self, path, body=None):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/control/{path}",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
        return json.loads(urllib.request.urlopen(req, timeout=10).read())

    def say(self, text, who=None, **extra):
        who = self.me if who is None else who
        self.control("message", {"from": who, "chat": who, "text": text, **extra})

    def press(self, message_id, data, who=None):
        self.control("press", {"from": self.me if who is None else who, "chat": self.me,
                               "message_id": message_id, "data": data})

    def messages(self, chat=None):
        chat = self.me if chat is None else chat
        ms = self.control("messages")["messages"]
        return [(int(k), v) for k, v in sorted(ms.items(), key=lambda kv: int(kv[0])) if v["chat"] == str(chat)]

    def wait_for(self, what, test, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            got = test()
            if got:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{what}: not within {timeout} s; the bot wrote {json.dumps(self.messages(), indent=1)[-3000:]}")

    def newest_containing(self, text, chat=None):
        hits = [(mid, m) for mid, m in self.messages(chat) if text in m["text"]]
        return hits[-1] if hits else None

    def reply_to(self, command, expect, **extra):
        before = len(self.messages())
        self.say(command, **extra)
        return self.wait_for(f"the reply to {command!r}",
                             lambda: next((m for _, m in self.messages()[before:] if expect in m["text"]), None))


    def tick(self, message_id, label):
        """Press option `label`'s toggle on a multi-select message and wait until it shows ☑."""
        self.press(message_id, button(dict(self.messages())[message_id], label))
        self.wait_for(f"{label} ticked", lambda: f"☑ {label}" in json.dumps(
            dict(self.messages())[message_id]["markup"], ensure_ascii=False))

    def replay_refused(self, message_id, data):
        """Press a spent button again: the bot says it no longer works."""
        before = len(self.messages())
        self.press(message_id, data)
        self.wait_for("the replay refused",
                      lambda: any("no longer works" in m["text"] for _, m in self.messages()[before:]))


def buttons(m):
    return [b for row in (m.get("markup") or {}).get("inline_keyboard", []) for b in row]


def button(m, label):
    return next(b["callback_data"] for b in buttons(m) if label in b["text"])


def cli(binary, data):
    """`mooring --data-dir DATA ARGS --json`, its output read."""
    def run(*args):
        out = subprocess.run([binary, "--data-dir", data, *args, "--json"], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    return run


class Agent:
    """An agent asking over MCP; past the wait limit it gets a handle and comes back."""

    def __init__(self, base):
        self.url = urllib.parse.urlparse(base)
        self.conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=60)
        self.session = open_session(self.conn, "agent", {"x-mooring-session": "msh_" + secrets.token_hex(32)})
        self.calls = 10

    def ask(self, **arguments):
        self.calls += 1
        body = {"jsonrpc": "2.0", "id": self.calls, "method": "tools/call",
                "params": {"name": "provide_choice", "arguments": arguments}}
        try:
            _, r = post(self.conn, body, self.session)
        except (BrokenPipeError, ConnectionError, http.client.HTTPException):
            # The server closes a kept-alive connection left idle; the session goes on.
            self.conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=60)
            _, r = post(self.conn, body, self.session)
        return r["result"]["structuredContent"]

    def follow(self, handle):
        end = time.time() + 20
        while time.time() < end:
            r = self.ask(session_id=handle)
            if r["action_status"] != "pending":
                return r
        raise AssertionError("the answer never reached the agent")
