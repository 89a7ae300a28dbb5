"""The paired person's phone, one step at a time, against the Telegram stand-in.

usage: remote_phone.py PORT say TEXT [EXPECT]   (waits for a reply with EXPECT)
       remote_phone.py PORT press TITLE LABEL   (waits for the newest message with TITLE)
       remote_phone.py PORT reply TITLE TEXT     (answers the newest message with TITLE in words)
       remote_phone.py PORT press-new TITLE LABEL FILE  (as press, on a message newer than FILE's)
       remote_phone.py PORT count TITLE          (how many messages carry TITLE)
       remote_phone.py PORT texts TITLE          (every message with TITLE, for a failure's report)
"""
import json
import sys
import time
import urllib.request

PORT, verb, *rest = sys.argv[1:]
ME = 42


def control(path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{PORT}/control/{path}",
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def with_title(title):
    ms = control("messages")["messages"]
    return [(int(k), v) for k, v in sorted(ms.items(), key=lambda kv: int(kv[0])) if title in v["text"]]


if verb == "say":
    # say TEXT [EXPECT]: with EXPECT, wait until the bot's reply contains it.
    before = len(control("messages")["messages"])
    control("message", {"from": ME, "chat": ME, "text": rest[0]})
    end = time.time() + 30
    while len(rest) > 1 and not any(rest[1] in m["text"] for k, m in control("messages")["messages"].items()
                                    if int(k) >= 100 + before):
        if time.time() > end:
            sys.exit(f"no reply with {rest[1]!r} to {rest[0]!r}")
        time.sleep(0.05)
elif verb == "count":
    print(len(with_title(rest[0])))
elif verb == "texts":
    for mid, m in with_title(rest[0]):
        print(mid, json.dumps(m["text"]))
elif verb in ("press", "press-new", "reply"):
    title, label = rest[:2]
    after = json.load(open(rest[2]))["message_id"] if verb == "press-new" else 0
    end = time.time() + 60
    while time.time() < end:
        hits = [h for h in with_title(title) if (h[1].get("markup") or {}).get("inline_keyboard") and h[0] > after]
        if hits and verb == "reply":
            mid, m = hits[-1]
            control("message", {"from": ME, "chat": ME, "text": label, "reply_to": mid})
            print(json.dumps({"message_id": mid, "asked_at": m["at"], "text": m["text"]}))
            sys.exit(0)
        if hits:
            mid, m = hits[-1]
            data = next(b["callback_data"] for row in m["markup"]["inline_keyboard"] for b in row if label in b["text"])
            control("press", {"from": ME, "chat": ME, "message_id": mid, "data": data})
            print(json.dumps({"message_id": mid, "pressed_at": time.time(), "asked_at": m["at"], "text": m["text"]}))
            sys.exit(0)
        time.sleep(0.05)
    sys.exit(f"no message with {title!r} and buttons reached the phone")
