"""The dashboard and a project's own view in headless Chromium against the real server:
axe-core in light and dark, no sideways scrolling at 360 px, a keyboard-only journey
whose writes are checked through the CLI, live updates from another process, field
errors beside their field, and stored markup shown as text."""

import json
import os
import subprocess
import urllib.request
from pathlib import Path

import pytest

from conftest import BIN
from ui_driver import NEEDS, drive

pytestmark = pytest.mark.skipif(not all(NEEDS), reason="needs Node 22, playwright-core and chromium (scripts/test-tools.sh)")

HOSTILE = '<img src=x onerror="document.title=1"><script>document.title=2</script>'


def cli(data, *args):
    out = subprocess.run([str(BIN / "mooring"), "--data-dir", str(data), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def entries(data, kind):
    return json.loads(cli(data, "memory", "list", "numbat-ledger", "--kind", kind, "--json"))["entries"]


@pytest.fixture
def project(server):
    data = server["data"]
    cli(data, "projects", "new", "Numbat Ledger", "--code-path", str(server["code"]),
        "--description", "The ledger service: " + HOSTILE)
    cli(data, "memory", "add", "numbat-ledger", "--kind", "decision", "Ledger stays append-only")
    cli(data, "memory", "add", "numbat-ledger", "--kind", "decision", "Markup is text: " + HOSTILE)
    cli(data, "memory", "add", "numbat-ledger", "--kind", "blocker", "CI is red on the ledger tests")
    cli(data, "memory", "add", "numbat-ledger", "--kind", "note", "A wrong note to forget")
    token = (data / "token").read_text().strip()
    base = server["url"].replace("/mcp", "")
    return {**server, "token": token, "base": base,
            "blocker": entries(data, "blocker")[0]["id"], "note": entries(data, "note")[0]["id"]}


@pytest.mark.anyio
async def test_every_page_passes_axe_in_light_and_dark_and_fits_360_px(project):
    t, base = project["token"], project["base"]
    pages = {"dashboard": f"{base}/dashboard?token={t}", "project": f"{base}/project/numbat-ledger?token={t}",
             "open-questions": f"{base}/?token={t}"}
    for name, url in pages.items():
        steps = []
        for theme in ["light", "dark"]:
            steps += [{"theme": theme}, {"viewport": [1280, 900]}, {"axe": f"{name}-{theme}"},
                      {"viewport": [360, 740]}, {"fitsWidth": True}, {"axe": f"{name}-{theme}-narrow"}]
            if name == "dashboard":
                # Each of the dashboard's other views, narrow and wide; then back to the list.
                for view in ["new", "memory", "sessions", "events", "settings", "projects"]:
                    steps += [{"click": f"nav-{view}"}, {"axe": f"dashboard-{view}-{theme}-narrow"}, {"fitsWidth": True}]
                steps += [{"viewport": [1280, 900]}, {"click": "nav-settings"}, {"axe": f"dashboard-settings-{theme}"},
                          {"click": "nav-projects"}]
        await drive(url, steps)


@pytest.mark.anyio
async def test_by_keyboard_alone_a_blocker_is_resolved_and_an_entry_forgotten(project):
    t, base, data = project["token"], project["base"], project["data"]
    b, n = project["blocker"], project["note"]
    await drive(f"{base}/dashboard?token={t}", [
        {"tabTo": "open-numbat-ledger"}, {"press": "Enter"},
        {"expectText": ["name", "Numbat Ledger"]},
        {"tabTo": f"resolve-note-{b}"}, {"type": "Pinned the "},
        # An agent writes while the person types: the list is redrawn, the words stay and
        # so does the focus, so the rest of what they type lands in the same field.
        {"exec": [str(BIN / "mooring"), "--data-dir", str(data), "memory", "add", "numbat-ledger", "--kind", "blocker",
                  "Flaky disk on runner 3"]},
        {"expectText": ["blockers", "Flaky disk on runner 3"]},
        {"type": "flaky test"},
        {"tabTo": f"resolve-{b}"}, {"press": "Enter"},
        {"expectNoText": ["blockers", "CI is red"]},
        {"tabTo": f"forget-{n}"}, {"press": "Enter"},
        # The focus moves to the real forget; Enter confirms it.
        {"press": "Enter"},
        {"expectNoText": ["browse", "A wrong note to forget"]},
        {"expectText": ["events", "blocker resolved: CI is red"]},
    ])
    blocker = next(x for x in entries(data, "blocker") if x["id"] == b)
    assert (blocker["status"], blocker["resolution"]) == ("resolved", "Pinned the flaky test")
    assert entries(data, "note") == [], "the note is forgotten"


@pytest.mark.anyio
async def test_the_view_shows_memory_live_as_text_and_refuses_bad_fields_beside_them(project):
    t, base, data = project["token"], project["base"], project["data"]
    mooring = str(BIN / "mooring")
    await drive(f"{base}/project/numbat-ledger?token={t}", [
        {"expectText": ["decisions", "Ledger stays append-only"]},
        {"expectText": ["preamble-size", "tokens of a"]},
        # Stored markup is shown as its text and never becomes elements.
        {"expectText": ["decisions", '<img src=x onerror="document.title=1">']},
        {"expectText": ["description", "<script>"]},
        {"expectNone": "main img, main script"},
        # Another process (an agent's session) adds a decision: it shows without a reload.
        {"exec": [mooring, "--data-dir", str(data), "memory", "add", "numbat-ledger", "--kind", "decision",
                  "Settlement runs nightly at 02:00"]},
        {"expectText": ["decisions", "Settlement runs nightly at 02:00"]},
        {"expectText": ["events", "decision: Settlement runs nightly"]},
        # A bad field is refused with the reason next to it; a good edit is saved.
        {"fill": ["edit-name", ""]}, {"click": "edit-save"},
        {"expectText": ["field-error", "name"]},
        {"fill": ["edit-name", "Numbat Ledger Service"]}, {"click": "edit-save"},
        {"expectText": ["edit-result", "Saved."]},
        {"expectText": ["name", "Numbat Ledger Service"]},
        {"fill": ["path-add", "relative/dir"]}, {"click": "path-add-button"},
        {"expectText": ["path-error", "absolute"]},
    ])
    shown = json.loads(cli(data, "projects", "numbat-ledger", "--json"))
    assert shown["project"]["name"] == "Numbat Ledger Service"


@pytest.mark.anyio
async def test_a_crafted_slug_stays_one_path_segment_of_the_api(project):
    t, base = project["token"], project["base"]
    # "/project/..%2Fsettings" must not turn the page's calls into calls of /api/v1/settings.
    await drive(f"{base}/project/..%2Fsettings?token={t}", [
        {"expectAsked": "/api/v1/projects/..%2Fsettings"},
        # (the page reads /api/v1/settings itself; a traversal would add its sub-paths)
        {"expectNotAsked": "/api/v1/settings/"},
    ])


@pytest.mark.anyio
async def test_the_person_marks_a_decision_replaced_sees_the_chain_and_undoes_it(project):
    t, base, data = project["token"], project["base"], project["data"]
    old = next(x["id"] for x in entries(data, "decision") if x["title"] == "Ledger stays append-only")
    added = json.loads(cli(data, "memory", "add", "numbat-ledger", "--kind", "decision", "--json",
                           "Ledger rows may be corrected by reversal entries, no longer strictly append-only"))
    new = added["id"]
    assert [c["id"] for c in added["candidates"]] == [old], added["candidates"]
    await drive(f"{base}/project/numbat-ledger?token={t}", [
        {"expectText": ["preamble", "Ledger stays append-only"]},
        # Replacing is picking among the earlier entries Mooring found, not typing a number.
        {"click": f"replaces-{new}"}, {"select": [f"replaces-pick-{new}", str(old)]}, {"click": f"replaces-go-{new}"},
        {"expectText": [f"superseded-{old}", f"Superseded by #{new}"]},
        {"expectText": [f"supersedes-{new}", f"Supersedes #{old}"]},
        {"expectNoText": ["preamble", "Ledger stays append-only"]},
        {"axe": "project-with-a-chain"},
        {"click": f"restore-{old}"},
        {"expectText": ["preamble", "Ledger stays append-only"]},
    ])
    again = next(x for x in entries(data, "decision") if x["id"] == old)
    assert "superseded_by" not in again, again
    req = urllib.request.Request(f"{base}/api/v1/projects/numbat-ledger/events",
                                 headers={"authorization": f"Bearer {t}"})
    kinds = [e["kind"] for e in json.loads(urllib.request.urlopen(req, timeout=10).read())["events"]]
    assert "memory_superseded" in kinds and "supersede_undone" in kinds, kinds


def hook(data, payload):
    out = subprocess.run([str(BIN / "mooring"), "--data-dir", str(data), "hook", "claude-code"],
                         input=json.dumps(payload), capture_output=True, text=True,
                         env={**os.environ, "MOORING_HOOK_DEADLINE_MS": "4500"})
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.anyio
async def test_each_session_shows_what_memory_handed_it_and_the_project_totals(project, tmp_path):
    t, base, data, code = project["token"], project["base"], project["data"], str(project["code"])
    recorded = Path(__file__).resolve().parents[2] / "crates/core/tests/fixtures/claude-code-2.1.330-work.jsonl"
    transcript = tmp_path / "s1.jsonl"
    transcript.write_text(recorded.read_text().replace("/tmp/rec/work", code))
    start = hook(data, {"session_id": "s1", "cwd": code, "hook_event_name": "SessionStart", "source": "startup"})
    assert "Ledger stays append-only" in start, start
    hook(data, {"session_id": "s1", "cwd": code, "hook_event_name": "Stop", "transcript_path": str(transcript),
                "stop_hook_active": False})
    session = entries(data, "session")[0]["id"]
    req = urllib.request.Request(f"{base}/api/v1/projects/numbat-ledger/received?sessions={session}",
                                 headers={"authorization": f"Bearer {t}"})
    got = json.loads(urllib.request.urlopen(req, timeout=10).read())
    given = got["sessions"][0]["given"]
    assert [g["what"] for g in given] == ["preamble"], got
    assert given[0]["tokens"] > 50 and len(given[0]["ids"]) >= 3, got
    assert got["totals"]["sessions"] == 1 and got["totals"]["preamble_tokens"] == given[0]["tokens"], got
    req = urllib.request.Request(f"{base}/api/v1/projects/numbat-ledger/files",
                                 headers={"authorization": f"Bearer {t}"})
    files = json.loads(urllib.request.urlopen(req, timeout=10).read())["files"]
    assert [(f["path"], f["client"], f.get("request")) for f in files] == [
        ("retry.py", "claude-code", "Add a retry helper and keep a todo list")], files
    await drive(f"{base}/project/numbat-ledger?token={t}", [
        {"expectText": [f"received-{session}", f"Received {given[0]['tokens']:,} tokens: preamble"]},
        {"expectText": ["received-totals", "Memory handed to 1 session on this machine"]},
        {"axe": "project-with-received"},
        # Which session changed which file, and for which request (folded until opened).
        {"expectText": ["files-summary", "1 file the latest sessions changed"]},
        {"click": "files-summary"},
        {"expectText": ["files", "retry.py — created by the claude-code session of "]},
        {"expectText": ["files", "for “Add a retry helper and keep a todo list”"]},
        {"axe": "project-with-files"},
    ])


@pytest.mark.anyio
async def test_the_view_shows_which_session_works_on_what_and_the_claims_it_met(project):
    t, base, data, code = project["token"], project["base"], project["data"], str(project["code"])
    hook(data, {"session_id": "s1", "cwd": code, "hook_event_name": "UserPromptSubmit",
                "prompt": "split the ledger by customer"})
    write = lambda s: {"session_id": s, "cwd": code, "hook_event_name": "PreToolUse", "tool_name": "Edit",
                       "tool_input": {"file_path": "ledger.py"}}
    assert hook(data, write("s1")) == "", "free: claimed before the edit"
    asked = json.loads(hook(data, write("s2")))["hookSpecificOutput"]
    assert asked["permissionDecision"] == "ask", asked
    await drive(f"{base}/project/numbat-ledger?token={t}", [
        {"expectText": ["working", "asked “split the ledger by customer” · holds ledger.py"]},
        {"expectText": ["working", "met another's claim 1×"]},
        {"expectText": ["working", "A write into a file another session holds: ask"]},
        {"axe": "project-with-claims"},
    ])
    # The person leaves s1 a note from the card: s1's next prompt gets it once, as theirs.
    req = urllib.request.Request(f"{base}/api/v1/projects/numbat-ledger/live",
                                 headers={"Authorization": f"Bearer {t}"})
    live = json.loads(urllib.request.urlopen(req).read())["live"]
    s1 = next(w["handle"] for w in live if w.get("request") == "split the ledger by customer")
    await drive(f"{base}/project/numbat-ledger?token={t}", [
        {"click": f"note-open-{s1}"},
        {"fill": [f"note-{s1}", "leave ledger.py to the other session"]},
        {"click": f"leave-note-{s1}"},
        {"expectText": ["working", "Left: it reads it at its next prompt."]},
        {"axe": "project-with-a-note"},
    ])
    prompt = lambda words: {"session_id": "s1", "cwd": code, "hook_event_name": "UserPromptSubmit",
                            "prompt": words}
    said = json.loads(hook(data, prompt("go on")))["hookSpecificOutput"]["additionalContext"]
    assert "The person left this for this session" in said and "leave ledger.py to the other session" in said
    again = hook(data, prompt("and then"))
    assert "leave ledger.py" not in again, "delivered once"


CORPUS = Path(__file__).resolve().parents[3] / "shared" / "transcripts"


@pytest.mark.anyio
@pytest.mark.skipif(not CORPUS.is_dir(), reason="SKIPPED: needs the real transcripts beside the repository")
async def test_a_month_of_real_sessions_reads_as_structure_not_a_database_dump(project, tmp_path):
    """Real Claude Code sessions nobody here wrote, captured through the real hook and
    folded into weekly digests: the view shows labelled fields, not Markdown; kinds as a
    person names them; no storage words; and it stays a page a person can take in."""
    t, base, data, code = project["token"], project["base"], project["data"], str(project["code"])
    names = ["drm-coverage-test-fix.jsonl", "drm-hello-world-script.jsonl", "drm-python-to-rust-port.jsonl",
             "drm-stop-hook-uncommitted-changes.jsonl"]
    for n, name in enumerate(names):
        text = (CORPUS / name).read_text()
        cwd = next((json.loads(l).get("cwd") for l in text.splitlines() if '"cwd"' in l), None)
        transcript = tmp_path / name
        transcript.write_text(text.replace(cwd, code) if cwd else text)
        hook(data, {"session_id": f"real-{n}", "cwd": code, "hook_event_name": "Stop",
                    "transcript_path": str(transcript), "stop_hook_active": False})
    assert len(entries(data, "session")) == len(names)
    cli(data, "memory", "fold")
    digests = entries(data, "context_carry")
    assert digests, "the real sessions are old enough to fold"
    await drive(f"{base}/project/numbat-ledger?token={t}", [
        {"viewport": [1280, 900]},
        {"expectText": ["timeline", "Weekly digest"]},
        {"expectText": ["timeline", "Week of "]},
        {"pageHasNo": "**"}, {"pageHasNo": "context_carry"}, {"pageHasNo": "Supersedes #"},
        {"expectText": ["timeline", "Folds "]},
        # (the four sessions' hooks just ran: they are live, and their card shows too; so
        # does the folded card of which session changed which file)
        {"maxHeight": 4900},
        {"shot": "project-month-of-real-sessions"},
        {"axe": "project-month-of-real-sessions"},
        {"viewport": [360, 740]}, {"fitsWidth": True},
    ])
