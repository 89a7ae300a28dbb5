"""The phone's side of the remote tier: plays the paired person (Telegram user 42) and a
stranger (666) against the Telegram stand-in while a real `mooring serve` runs the bot;
agents ask over MCP. Prints one line per check; any failed check raises.

usage: remote_checks.py STANDIN_PORT MCP_BASE_URL DATA_DIR MOORING PAIRING_CODE
"""
import http.client
import json
import secrets
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from phone_kit import Agent, Phone, button, buttons, cli
from rawmcp import open_session, post

STANDIN, BASE, DATA, MOORING, CODE = sys.argv[1:6]
ME, STRANGER = 42, 666
timings = {}


phone = Phone(STANDIN, ME)
control, say, press, messages = phone.control, phone.say, phone.press, phone.messages
wait_for, newest_containing, reply_to = phone.wait_for, phone.newest_containing, phone.reply_to
mooring = cli(MOORING, DATA)
# An agent asks over MCP; past the one-second wait limit it gets a handle and comes back.
agent = Agent(BASE)
ask, follow, u = agent.ask, agent.follow, agent.url


print("== pairing: a stranger's code is ignored, the person's pairs")
say("/start 0000-0000", who=STRANGER)
say("/start " + CODE)
wait_for("the pairing reply", lambda: newest_containing("Paired with Mooring"))
assert not messages(STRANGER), "the stranger got an answer"
say("/start " + CODE, who=STRANGER)
say("projects", who=STRANGER)
time.sleep(1.5)
assert not messages(STRANGER), "a stranger was answered after pairing"
control("message", {"from": ME, "chat": -1001, "text": "projects"})
time.sleep(1.5)
assert not messages(-1001), "the bot answered the paired person in a group"
print("ok: paired with the code; the stranger got nothing; a group is not answered")

print("== the phone's commands")
dash = reply_to("projects", "leader-election")["text"]
assert "🔵 leader-election" in dash or "🟢 leader-election" in dash, dash
assert "|" not in dash, "a table on a phone: " + dash
done = reply_to("decide leader-election we use etcd 3.5", "decision #")["text"]
decisions = mooring("memory", "list", "leader-election", "--kind", "decision")["entries"]
assert any("etcd 3.5" in e["content"] for e in decisions), decisions
blocked = reply_to("blocker leader-election waiting on SRE for TLS certs", "blocker #")["text"]
number = blocked.split("#")[1].split()[0]
view = reply_to("leader-election", "Open blockers")["text"]
assert f"#{number} waiting on SRE" in view and "📌 we use etcd 3.5" in view, view
reply_to(f"resolve leader-election #{number} certs came", "resolved")
assert mooring("memory", "list", "leader-election", "--kind", "blocker")["entries"][0]["status"] == "resolved"
# A decision that contradicts an earlier one is kept, and the phone names the earlier one.
redo = reply_to("decide leader-election leases move from etcd to Consul", "decision #")["text"]
first = next(e for e in decisions if "etcd 3.5" in e["content"])
assert f"may contradict #{first['id']}" in redo or f"same as #{first['id']}" in redo, redo
reply_to("projeler", "leader-election")
reply_to("decide nope something", "No project or command `nope`")
print("ok: projects, SLUG, decide, blocker, resolve and the Turkish word, checked through the CLI:", done)

print("== a project kept off the phone")
mooring("remote", "off", "leader-election")
dash = reply_to("projects", "project")["text"]
assert "leader-election" not in dash, dash
reply_to("decide leader-election not from here", "kept off the phone")
assert not any("not from here" in e["content"] for e in mooring("memory", "list", "leader-election", "--kind", "decision")["entries"])
mooring("remote", "on", "leader-election")
reply_to("leader-election", "Newest decisions")
print("ok: off, the dashboard leaves it out and a decision for it is refused; on, it is back")

print("== away: a single-choice question answered with a button; a replayed press changes nothing")
reply_to("away", "Away")
assert mooring("remote", "status")["away"] is True
asked = time.time()
r = ask(title="Which database?", prompt="The session store needs one.", selection_mode="single",
        options=[{"id": "pg", "label": "Postgres", "recommended": True}, {"id": "lite", "label": "SQLite"}])
assert r["action_status"] == "pending", r
mid, q = wait_for("the question on the phone", lambda: newest_containing("Which database?"))
timings["question_to_phone_ms"] = round((q["at"] - asked) * 1000)
assert "⭐ recommended" in q["text"] and "min left" in q["text"], q["text"]
data = button(q, "Postgres")
press(mid, data, who=STRANGER)
time.sleep(1)
tapped = time.time()
press(mid, data)
answer = follow(r["selection"]["session_id"])
timings["tap_to_agent_ms"] = round((time.time() - tapped) * 1000)
assert answer["action_status"] == "selected" and answer["selection"]["selected_ids"] == ["pg"], answer
assert answer.get("surface") == "telegram", answer
wait_for("the message rewritten as answered", lambda: "Answered here" in dict(messages())[mid]["text"])
assert not buttons(dict(messages())[mid]), "buttons left on an answered question"
phone.replay_refused(mid, data)
print("ok: the recommended option marked, the stranger's press and the replay did nothing, the agent got pg")

print("== multi-select as toggles with Done; a typed answer as a reply")
r = ask(title="Which checks?", prompt="Pick the CI checks.", selection_mode="multi",
        options=[{"id": "lint", "label": "Lint", "recommended": True}, {"id": "unit", "label": "Unit"}, {"id": "e2e", "label": "E2E"}])
mid, q = wait_for("the multi question", lambda: newest_containing("Which checks?"))
first_unit = button(dict(messages())[mid], "Unit")
phone.tick(mid, "Lint")
# The keyboard was redrawn: a button of the one before it is refused, and Unit stays off.
phone.replay_refused(mid, first_unit)
assert "☐ Unit" in json.dumps(dict(messages())[mid]["markup"], ensure_ascii=False), "a stale toggle ticked Unit"
phone.tick(mid, "E2E")
press(mid, button(dict(messages())[mid], "Done"))
answer = follow(r["selection"]["session_id"])
assert sorted(answer["selection"]["selected_ids"]) == ["e2e", "lint"], answer
r = ask(title="Name the release", prompt="What should we call it?", selection_mode="text_input")
mid, q = wait_for("the text question", lambda: newest_containing("Name the release"))
assert "Reply to this message" in q["text"], q["text"]
say("Otter", reply_to=mid)
answer = follow(r["selection"]["session_id"])
assert answer["selection"]["custom_input"] == "Otter", answer
print("ok: toggles then Done gave two ids (a stale keyboard's toggle refused); a reply gave the typed answer")

print("== answered elsewhere: the phone's message says so and its buttons stop")
r = ask(title="Ship tonight?", prompt="All green.", selection_mode="single",
        options=[{"id": "y", "label": "Yes", "recommended": True}, {"id": "n", "label": "No"}])
mid, q = wait_for("the question", lambda: newest_containing("Ship tonight?"))
# The person's page (its link, with the question's token, from the local API).
token = subprocess.run([MOORING, "--data-dir", DATA, "token"], capture_output=True, text=True, check=True).stdout.strip()
listing = urllib.request.Request(f"{BASE}/api/v1/choices", headers={"authorization": f"Bearer {token}"})
link = next(c["url"] for c in json.loads(urllib.request.urlopen(listing, timeout=10).read())["open"]
            if c["title"] == "Ship tonight?")
path, _, query = link.partition("?")
req = urllib.request.Request(f"{BASE}{path}/answer?{query}", data=json.dumps({"selected_ids": ["n"]}).encode(),
                             headers={"content-type": "application/json"})
urllib.request.urlopen(req, timeout=10).read()
wait_for("the rewrite", lambda: "Answered on the web" in dict(messages())[mid]["text"])
old = button(q, "Yes")
press(mid, old)
assert follow(r["selection"]["session_id"])["selection"]["selected_ids"] == ["n"], "the phone's late press changed the answer"
print("ok: the page answered first; the phone's later press changed nothing")

print("== the platform out of reach: the question waits, then arrives once")
control("down", {"seconds": 6})
r = ask(title="While offline?", prompt="Asked while Telegram was unreachable.", selection_mode="single",
        options=[{"id": "a", "label": "A", "recommended": True}, {"id": "b", "label": "B"}])
time.sleep(2)
status = mooring("remote", "status")
mid, q = wait_for("the question after the outage", lambda: newest_containing("While offline?"), timeout=60)
press(mid, button(q, "B"))
assert follow(r["selection"]["session_id"])["selection"]["selected_ids"] == ["b"]
time.sleep(1.5)
copies = [m for _, m in messages() if "While offline?" in m["text"]]
assert len(copies) == 1, f"posted {len(copies)} times"
print("ok: posted once after the outage and answered; status during it:", json.dumps(status["bots"]))

print("== a session that needs its project gets it from the phone")
import threading  # noqa: E402
got = {}


def needs_project():
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=90)
    me = open_session(c, "picker-client", {"x-mooring-session": "msh_" + secrets.token_hex(32)})
    _, r = post(c, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "list_memory", "arguments": {}}}, me)
    got["result"] = r["result"]


waiting = threading.Thread(target=needs_project)
waiting.start()
mid, pick = wait_for("the pick on the phone", lambda: newest_containing("needs to know its project"))
assert any(b["text"].endswith("app") for b in buttons(pick)), pick
press(mid, next(b["callback_data"] for b in buttons(pick) if b["text"].endswith("app")))
waiting.join(30)
assert not got["result"].get("isError"), got
assert "app" in json.dumps(got["result"]), got
wait_for("the pick rewritten", lambda: "works in app now" in dict(messages())[mid]["text"])
print("ok: the waiting session was given app from the phone")

reply_to("back", "Back at the desk")
print("TIMINGS " + json.dumps(timings))
