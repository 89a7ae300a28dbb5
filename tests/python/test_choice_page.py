"""The question page in headless Chromium against the real server, driven end to end
through MCP: the test's provide_choice call returns what the page clicked."""

import asyncio
import json
import os
from pathlib import Path

import urllib.error
import urllib.request
from importlib.metadata import version

import pytest

from ui_driver import NEEDS, drive

pytestmark = [
    pytest.mark.skipif(not all(NEEDS), reason="needs Node 22, playwright-core and chromium (scripts/test-tools.sh)"),
    pytest.mark.skipif(int(version("mcp").split(".")[0]) < 2, reason="drives the page from the mcp 2.x client"),
]


def get(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None

OPTIONS = [
    {"id": "etcd", "label": "etcd", "description": "already in the cluster", "recommended": True},
    {"id": "consul", "label": "Consul"},
    {"id": "zk", "label": "ZooKeeper"},
]


def question(mode, **extra):
    q = {"title": f"Lease store ({mode})", "prompt": "Leader election flaps; pick where leases live.",
         "selection_mode": mode, "options": OPTIONS, "transport": "web", **extra}
    if mode == "text_input":
        q.pop("options")
    return q


async def open_url(server):
    token = (server["data"] / "token").read_text().strip()
    for _ in range(100):
        _, body = await asyncio.to_thread(get, server["url"].replace("/mcp", "/api/v1/choices"), {"authorization": f"Bearer {token}"})
        if body["open"]:
            return server["url"].replace("/mcp", body["open"][0]["url"]), token
        await asyncio.sleep(0.1)
    raise AssertionError("no question opened")


async def ask_and_answer(server, request, steps, settings=None, fragment=""):
    from mcp import Client

    (server["data"] / "choice-settings.json").write_text(json.dumps({"wait_limit_seconds": 60, **(settings or {})}))
    async with Client(server["url"], mode="2026-07-28") as client:
        call = asyncio.create_task(client.call_tool("provide_choice", request))
        url, _ = await open_url(server)
        if steps is not None:
            # Wait for the page to show the result, so the browser does not close mid-request.
            await drive(url + fragment, steps + [{"expectText": ["done", "You can close this tab"]}])
        result = await asyncio.wait_for(call, 90)
    assert not result.is_error, result
    return result.structured_content


@pytest.mark.anyio
async def test_single_with_description_recommended_and_default(server):
    steps = [{"expectText": ["options", "recommended"]}, {"expectText": ["options", "already in the cluster"]},
             {"click": "option-zk"}, {"click": "submit"}, {"expectText": ["done", "ZooKeeper"]}]
    r = await ask_and_answer(server, question("single", default_selection_ids=["etcd"]), steps)
    assert r["action_status"] == "selected" and r["selection"]["selected_ids"] == ["zk"] and r["surface"] == "web"


@pytest.mark.anyio
async def test_multi_enforces_max_and_keeps_notes(server):
    steps = [{"expectDisabled": "submit"}, {"click": "option-zk"}, {"click": "option-etcd"},
             {"expectDisabled": "option-consul"}, {"fill": ["note-zk", "backup plan"]},
             {"fill": ["global-note", "decided in standup"]}, {"click": "submit"}]
    r = await ask_and_answer(server, question("multi", max_selections=2, allow_option_annotations=True,
                                              allow_global_annotation=True), steps)
    sel = r["selection"]
    assert sel["selected_ids"] == ["etcd", "zk"]
    assert sel["option_annotations"] == {"zk": "backup plan"}
    assert sel["global_annotation"] == "decided in standup"


@pytest.mark.anyio
async def test_text_and_hybrid(server):
    r = await ask_and_answer(server, question("text_input", placeholder="name a store"),
                             [{"fill": ["text-input", "FoundationDB"]}, {"click": "submit"}])
    assert r["action_status"] == "custom_input" and r["selection"]["custom_input"] == "FoundationDB"
    r = await ask_and_answer(server, question("hybrid"),
                             [{"click": "option-consul"}, {"fill": ["text-input", "with ACLs"]}, {"click": "submit"}])
    assert r["action_status"] == "custom_input"
    assert r["selection"]["selected_ids"] == ["consul"] and r["selection"]["custom_input"] == "with ACLs"


@pytest.mark.anyio
async def test_single_submit_cancel_and_deadline(server):
    r = await ask_and_answer(server, question("single", single_submit_mode=True), [{"click": "option-consul"}])
    assert r["selection"]["selected_ids"] == ["consul"]
    r = await ask_and_answer(server, question("single"), [{"click": "cancel"}])
    assert r["action_status"] == "cancelled"
    steps = [{"click": "more-time"}, {"fill": ["minutes", "30"]}, {"click": "set-deadline"}, {"expectCountdownAbove": 1700},
             {"click": "option-etcd"}, {"click": "submit"}]
    r = await ask_and_answer(server, question("single", timeout_seconds=60), steps)
    assert r["selection"]["selected_ids"] == ["etcd"]


@pytest.mark.anyio
async def test_timeouts_with_each_action(server):
    r = await ask_and_answer(server, question("multi", timeout_seconds=10, default_selection_ids=["zk"]), None,
                             settings={"timeout_action": "use_defaults"})
    assert r["action_status"] == "timeout" and r["selection"]["selected_ids"] == ["zk"]
    r = await ask_and_answer(server, question("single", timeout_seconds=10), None)
    assert r["action_status"] == "timeout" and r["selection"]["selected_ids"] == []


@pytest.mark.anyio
async def test_reentry_from_the_root_page(server):
    from mcp import Client

    (server["data"] / "choice-settings.json").write_text(json.dumps({"wait_limit_seconds": 60}))
    async with Client(server["url"], mode="2026-07-28") as client:
        call = asyncio.create_task(client.call_tool("provide_choice", question("single")))
        url, token = await open_url(server)
        root = server["url"].replace("/mcp", f"/?token={token}")
        qid = url.split("/choice/")[1].split("?")[0]
        await drive(root, [{"click": f"open-{qid}"}, {"expectText": ["title", "Lease store"]},
                           {"click": "option-consul"}, {"click": "submit"},
                           {"expectText": ["done", "You can close this tab"]}])
        result = await asyncio.wait_for(call, 30)
    assert result.structured_content["selection"]["selected_ids"] == ["consul"]
    # A page for this question is not reachable with another token.
    status, _ = await asyncio.to_thread(get, server["url"].replace("/mcp", f"/choice/{qid}/state?t=wrong"))
    assert status == 404


@pytest.mark.anyio
async def test_settings_panel_persists(server):
    steps = [{"expectText": ["options", "already in the cluster"]}, {"click": "settings-toggle"},
             {"clickSelector": "[data-setting=show_descriptions]"}, {"click": "save-settings"},
             {"expectNoText": ["options", "already in the cluster"]}, {"click": "option-etcd"}, {"click": "submit"}]
    # The person's own window carries the local API token in the fragment; the question's
    # token alone cannot change settings (test_question_token_changes_nothing_else).
    token = (server["data"] / "token").read_text().strip()
    r = await ask_and_answer(server, question("single"), steps, fragment=f"#token={token}")
    assert r["selection"]["selected_ids"] == ["etcd"]
    saved = json.loads((server["data"] / "choice-settings.json").read_text())
    assert saved["show_descriptions"] is False and saved["wait_limit_seconds"] == 60


@pytest.mark.anyio
async def test_dashboard_shows_projects_memory_sessions_and_events(server):
    from mcp import Client

    async with Client(server["url"], mode="2026-07-28") as client:
        await client.call_tool("create_project", {"name": "Leader Election", "code_paths": [str(server["code"]), "/nonexistent/mooring/path"]})
        await client.call_tool("remember", {"project": "leader-election", "kind": "decision", "content": "Use etcd leases"})
    token = (server["data"] / "token").read_text().strip()
    root = server["url"].replace("/mcp", f"/dashboard?token={token}")
    # The hub gives the new entry its vector for search by meaning within a second or two.
    status_url = server["url"].replace("/mcp", "/api/v1/search/status")
    for _ in range(100):
        code, status = get(status_url, {"Authorization": f"Bearer {token}"})
        if code == 200 and status["waiting"] == 0 and status["indexed"]:
            break
        await asyncio.sleep(0.1)
    assert status["mode"] == "hybrid", status
    await drive(root, [
        {"expectText": ["search-status", "by words and by meaning (1 entry indexed)"]},
        {"expectText": ["projects", "leader-election"]},
        {"expectText": ["projects", "missing"]},
        {"expectText": ["projects", "1 decision · 0 open blockers"]},
        {"expectText": ["shared-leader-election", "local"]},
        # The lead view is the project list: a card per project, read in three seconds.
        {"expectText": ["counts-leader-election", "1 decision"]},
        {"expectNone": "[data-testid=dot-leader-election]:not([data-recency=today])"},
        {"expectNone": "[data-testid=projects] table, [data-testid=query]:visible"},
        {"click": "nav-memory"},
        {"expectNone": "[data-testid=projects]:visible"},
        {"fill": ["query", "etcd"]}, {"click": "search"},
        {"expectText": ["hits", "Use etcd leases"]},
        {"expectNone": "[data-testid=hits] li:not(:has(mark))"},
        # A question sharing no word with the entry finds it by meaning, not by words.
        {"fill": ["query", "distributed lock lifetimes"]}, {"select": ["search-mode", "keyword"]}, {"click": "search"},
        {"expectText": ["hits", "No matches."]},
        {"select": ["search-mode", "semantic"]}, {"click": "search"},
        {"expectText": ["hits", "Use etcd leases"]},
        {"select": ["search-mode", "hybrid"]},
        {"click": "nav-events"},
        {"expectText": ["events", "decision: Use etcd leases"]},
        {"click": "nav-projects"},
        {"click": "toggle-leader-election"},
        {"expectText": ["projects", "archived"]},
        # New project form: a bad slug is refused with the reason, a good one is created.
        {"click": "nav-new"},
        {"fill": ["new-name", "Billing Service"]}, {"fill": ["new-slug", "Bad Slug!"]},
        {"click": "new-create"},
        {"expectText": ["new-result", "slug"]},
        {"fill": ["new-slug", ""]}, {"fill": ["new-path", str(server["code"] / "billing")]},
        {"click": "new-create"},
        {"expectText": ["new-result", "Created billing-service"]},
        {"expectText": ["projects", "billing-service"]},
        # Settings: shows where the server listens, saves, refuses out-of-range values.
        {"click": "nav-settings"},
        {"expectText": ["server-url", server["url"]]},
        {"fill": ["set-auto-pause", "30"]}, {"fill": ["set-pick-wait", "45"]},
        {"click": "set-single-submit"},
        # Session capture is on until the person switches it off here.
        {"expectChecked": ["set-capture", True]},
        {"click": "set-capture"},
        # The phone's part: no bot yet says how to add one; away and a project kept off are saved.
        {"expectText": ["phone-bots", "mooring remote add telegram"]},
        {"click": "set-away"},
        {"select": ["set-kept-off", "leader-election"]},
        {"click": "settings-save"},
        {"expectText": ["settings-result", "Saved."]},
        {"fill": ["set-port", "80"]},
        {"click": "settings-save"},
        {"expectText": ["settings-result", "port must be a whole number from 1024 to 65535"]},
    ])
    status, s = await asyncio.to_thread(get, server["url"].replace("/mcp", "/api/v1/settings"), {"authorization": f"Bearer {token}"})
    assert status == 200
    assert (s["settings"]["auto_pause_days"]["value"], s["settings"]["pick_wait_seconds"]["value"]) == (30, 45)
    assert s["settings"]["port"]["value"] == 7423, "the refused port was written"
    assert s["interaction"]["single_submit"] is True
    assert (s["settings"]["capture"]["value"], s["settings"]["recall"]["value"]) == (0, 1), "capture off, recall kept"
    status, r = await asyncio.to_thread(get, server["url"].replace("/mcp", "/api/v1/remote"), {"authorization": f"Bearer {token}"})
    assert status == 200 and r["away"] is True and r["kept_off"] == ["leader-election"], r
    assert "token" not in json.dumps(r), r
    status, b = await asyncio.to_thread(get, server["url"].replace("/mcp", "/api/v1/projects/billing-service"), {"authorization": f"Bearer {token}"})
    assert status == 200 and b["project"]["code_paths"][0]["path"].endswith("/billing")
    status, body = await asyncio.to_thread(get, server["url"].replace("/mcp", "/api/v1/projects/leader-election"), {"authorization": f"Bearer {token}"})
    assert status == 200 and body["project"]["status"] == "archived"
    status, _ = await asyncio.to_thread(get, server["url"].replace("/mcp", "/api/v1/sessions"))
    assert status == 401


@pytest.mark.anyio
async def test_the_question_page_passes_axe_in_light_and_dark_and_fits_360_px(server):
    steps = []
    for theme in ["light", "dark"]:
        steps += [{"theme": theme}, {"viewport": [1280, 900]}, {"expectText": ["options", "recommended"]},
                  {"axe": f"question-{theme}"}, {"viewport": [360, 740]}, {"fitsWidth": True},
                  {"axe": f"question-{theme}-narrow"}]
    steps += [{"click": "option-consul"}, {"click": "submit"}]
    r = await ask_and_answer(server, question("single", default_selection_ids=["etcd"]), steps)
    assert r["selection"]["selected_ids"] == ["consul"]
