"""The phone over Slack, against the Slack stand-in, while a real `mooring serve` runs the
app and the Telegram bot stays paired: pairing in a DM (not in a channel; five wrong codes
spend the code), the phone's commands (a mention in a channel answered in the DM, a
redelivered envelope heard once), questions answered with buttons, toggles and a thread
reply, the first answer rewriting the other platform's message, a forged or replayed press
refused, an outage, a rate limit and a refresh that lose and double nothing.
Prints one line per check; any failed check raises.

usage: slack_checks.py SLACK_PORT TELEGRAM_PORT MCP_BASE_URL DATA_DIR MOORING PAIRING_CODE
"""
import json
import sys
import time

from phone_kit import Agent, Phone, button, buttons, cli

SLACK, TELEGRAM, BASE, DATA, MOORING, CODE = sys.argv[1:7]
ME, STRANGER = 42, 666
timings = {}


phone, tg = Phone(SLACK, ME), Phone(TELEGRAM, ME)
control, say, press, messages = phone.control, phone.say, phone.press, phone.messages
wait_for, newest_containing, reply_to = phone.wait_for, phone.newest_containing, phone.reply_to
mooring = cli(MOORING, DATA)
agent = Agent(BASE)
ask, follow = agent.ask, agent.follow


print("== Slack: the socket opens with the app-level token")
wait_for("the socket", lambda: control("messages")["connections"] >= 1)
print("== Slack pairing: not in a channel; five wrong codes spend the code; a new one pairs in the DM")
say(f"<@UBOT> pair {CODE}", chat="C1", mention=True)
for n in range(5):
    say(f"pair 0000-000{n}", who=STRANGER)
wait_for("five codes heard", lambda: control("messages")["unacked"] == 0)
time.sleep(0.5)
say(f"pair {CODE}")
time.sleep(1.5)
assert not messages() and not messages(STRANGER), "someone was answered before pairing"
slack = next(b for b in mooring("remote", "status")["bots"] if b["platform"] == "slack")
assert not slack["paired"] and not slack["pairing_open"], slack
code = mooring("remote", "pair", "slack")["pairing_code"]
say(f"pair {code}")
wait_for("the pairing reply", lambda: newest_containing("Paired with Mooring"))
say("projects", who=STRANGER)
time.sleep(1.5)
assert not messages(STRANGER), "a stranger was answered after pairing"
print("ok: a channel's code and a stranger's guesses did not pair; the code was spent after five; the DM paired")

print("== the phone's commands over Slack; a mention in a channel is answered in the DM")
dash = reply_to("projects", "leader-election")["text"]
assert "leader-election" in dash and "|" not in dash, dash
view = reply_to("<@UBOT> leader-election", "Newest decisions", chat="C1", mention=True)["text"]
assert not messages("C1"), "Mooring answered in a shared channel"
reply_to("decide app keep <pg> & redis", "decision #", twice=True)
time.sleep(1.5)
kept = [e for e in mooring("memory", "list", "app", "--kind", "decision")["entries"] if "keep <pg> & redis" in e["content"]]
assert len(kept) == 1, f"a redelivered envelope was heard {len(kept)} times: {kept}"
reply_to("blocker app waiting on the DBA", "blocker #")
assert any("waiting on the DBA" in e["content"] for e in mooring("memory", "list", "app", "--kind", "blocker")["entries"])
own = [m for _, m in messages() if "Paired with Mooring" in m["text"]]
assert len(own) == 1, "the bot answered its own echoed message"
print("ok: projects, SLUG by mention (answered in the DM), decide (heard once, escaped text kept) and blocker")

print("== away: a question on both phones, answered from Slack; Telegram's copy says so")
reply_to("away", "Away")
asked = time.time()
r = ask(title="Which cache?", prompt="Pick the cache.", selection_mode="single",
        options=[{"id": "redis", "label": "Redis", "recommended": True}, {"id": "mem", "label": "In memory"}])
mid, q = wait_for("the question on Slack", lambda: newest_containing("Which cache?"))
timings["question_to_slack_ms"] = round((q["at"] - asked) * 1000)
tmid, tq = wait_for("the question on Telegram",
                    lambda: tg.newest_containing("Which cache?"))
assert "⭐ recommended" in q["text"], q["text"]
data = button(q, "In memory")
press(mid, data, who=STRANGER)
press(mid, "forged-" + data)
time.sleep(1)
tapped = time.time()
press(mid, data)
answer = follow(r["selection"]["session_id"])
timings["slack_tap_to_agent_ms"] = round((time.time() - tapped) * 1000)
assert answer["selection"]["selected_ids"] == ["mem"] and answer.get("surface") == "slack", answer
wait_for("Slack's message rewritten", lambda: "Answered here" in dict(messages())[mid]["text"])
assert not buttons(dict(messages())[mid]), "buttons left on Slack"
wait_for("Telegram's message rewritten",
         lambda: "Answered on Slack" in dict(tg.messages())[tmid]["text"])
assert not (dict(tg.messages())[tmid].get("markup") or {}).get("inline_keyboard"), "buttons left on Telegram"
phone.replay_refused(mid, data)
print("ok: the stranger's and a forged press did nothing; Slack answered; Telegram's copy rewritten; a replay refused")

print("== toggles with Done, and a typed answer as a thread reply")
r = ask(title="Which regions?", prompt="Deploy where?", selection_mode="multi",
        options=[{"id": "eu", "label": "EU", "recommended": True}, {"id": "us", "label": "US"}, {"id": "ap", "label": "AP"}])
mid, q = wait_for("the multi question", lambda: newest_containing("Which regions?"))
phone.tick(mid, "EU")
phone.tick(mid, "AP")
press(mid, button(dict(messages())[mid], "Done"))
assert sorted(follow(r["selection"]["session_id"])["selection"]["selected_ids"]) == ["ap", "eu"]
r = ask(title="Codename?", prompt="Name it.", selection_mode="text_input")
mid, q = wait_for("the text question", lambda: newest_containing("Codename?"))
assert "Reply in this message's thread" in q["text"], q["text"]
say("Heron <3", reply_to=mid)
assert follow(r["selection"]["session_id"])["selection"]["custom_input"] == "Heron <3"
r = ask(title="Rollout plan?", prompt="Pick one or say your own.", selection_mode="hybrid",
        options=[{"id": "canary", "label": "Canary", "recommended": True}, {"id": "all", "label": "All at once"}])
mid, q = wait_for("the hybrid question", lambda: newest_containing("Rollout plan?"))
assert button(q, "Canary") and "Reply in this message's thread" in q["text"], q
say("canary, but EU first", reply_to=mid)
got = follow(r["selection"]["session_id"])["selection"]
assert got["custom_input"] == "canary, but EU first", got
print("ok: two toggles and Done gave two ids; the thread reply gave the typed words (text and hybrid)")

print("== Slack out of reach, then rate-limited, then refreshing its socket: nothing lost or doubled")
opened = control("messages")["connections"]
control("down", {"seconds": 5})
r = ask(title="Offline on Slack?", prompt="Asked while Slack was unreachable.", selection_mode="single",
        options=[{"id": "a", "label": "A", "recommended": True}, {"id": "b", "label": "B"}])
time.sleep(1.5)
slack = next(b for b in mooring("remote", "status")["bots"] if b["platform"] == "slack")
assert slack["reachable"] is False and slack["error"], slack
mid, q = wait_for("the question after the outage", lambda: newest_containing("Offline on Slack?"), timeout=60)
press(mid, button(q, "B"))
assert follow(r["selection"]["session_id"])["selection"]["selected_ids"] == ["b"]
control("ratelimit", {"seconds": 2})
r = ask(title="Rate limited?", prompt="Asked under a rate limit.", selection_mode="single",
        options=[{"id": "a", "label": "A", "recommended": True}, {"id": "b", "label": "B"}])
mid, q = wait_for("the question after the limit", lambda: newest_containing("Rate limited?"), timeout=30)
control("disconnect", {})
wait_for("a new socket", lambda: control("messages")["connections"] > opened + 1, timeout=30)
press(mid, button(q, "A"))
assert follow(r["selection"]["session_id"])["selection"]["selected_ids"] == ["a"]
time.sleep(1.5)
for title in ("Offline on Slack?", "Rate limited?"):
    copies = [m for _, m in messages() if title in m["text"]]
    assert len(copies) == 1, f"{title} posted {len(copies)} times"
print("ok: status said unreachable; each question posted once and answered; the refreshed socket still heard the press")
print("SLACK_TIMINGS " + json.dumps(timings))
reply_to("back", "Back at the desk")
