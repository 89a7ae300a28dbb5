"""The Python `mcp` SDK as an outside client: 1.x speaks 2025-11-25 with sessions, 2.x
speaks 2026-07-28 (stateless) and validates structured results against output schemas."""

from importlib.metadata import version

import pytest

SDK_MAJOR = int(version("mcp").split(".")[0])

EXPECTED_TOOLS = {
    "active_project", "create_project", "edit_project", "forget", "get_last_handover", "get_project",
    "list_memory", "list_projects", "lock_context", "project_context", "provide_choice", "recall_context",
    "remember",
    "resolve_blocker", "resolve_project", "save_handover", "search_memory", "select_project_for_session",
    "set_workspace_id", "who_is_working", "claim", "tell_session",
}


def field(obj, snake):
    """2.x models use snake_case attributes, 1.x camelCase."""
    if hasattr(obj, snake):
        return getattr(obj, snake)
    head, *rest = snake.split("_")
    return getattr(obj, head + "".join(w.title() for w in rest))


def is_error(result):
    return bool(field(result, "is_error"))


def content(result):
    return field(result, "structured_content")


def structured(result):
    assert not is_error(result), result
    data = content(result)
    assert isinstance(data, dict), result
    return data


async def story(call, list_tools, code, stateful):
    tools = await list_tools()
    assert {t.name for t in tools} == EXPECTED_TOOLS
    assert all(field(t, "output_schema") for t in tools)

    created = structured(await call("create_project", {"name": "Py Story", "code_paths": [str(code)]}))
    assert created["project"]["slug"] == "py-story"
    structured(await call("create_project", {"name": "Other"}))

    # Nothing decides yet: the agent is told exactly what to call.
    pending = await call("get_last_handover", {})
    assert is_error(pending)
    assert content(pending)["code"] == "PROJECT_SELECTION_REQUIRED"
    assert content(pending)["next_call"]["tool"] == "select_project_for_session"

    selected = structured(await call("select_project_for_session", {"project": "py-story"}))
    assert selected["remembered"] is stateful
    assert selected["handover"] is None

    scope = {} if stateful else {"project": "py-story"}
    saved = structured(await call("save_handover", {
        **scope, "work_done": "wired the parser", "next_steps": "add tests", "files": ["src/p.py"],
    }))
    assert saved["project"] == "py-story"
    assert saved["decided_by"] == ("session" if stateful else "explicit")

    last = structured(await call("get_last_handover", scope))
    assert last["handover"]["work_done"] == "wired the parser"
    assert last["handover"]["files"] == ["src/p.py"]

    # Memory tools: results must match their output schemas (2.x validates them).
    decision = structured(await call("remember", {**scope, "kind": "decision", "content": "parse with nom"}))
    assert decision["entry"]["kind"] == "decision"
    blocker = structured(await call("remember", {**scope, "kind": "blocker", "content": "nom 8 breaks the API"}))
    listed = structured(await call("list_memory", {**scope, "kind": "blocker"}))
    assert [e["id"] for e in listed["entries"]] == [blocker["entry"]["id"]]
    resolved = structured(await call("resolve_blocker", {**scope, "id": blocker["entry"]["id"], "resolution": "pinned 7"}))
    assert resolved["entry"]["status"] == "resolved"
    hits = structured(await call("search_memory", {**scope, "query": "nom"}))
    # The two entries naming nom come first; by meaning, the handover may follow them.
    top = {h["entry"]["id"] for h in hits["hits"][:2]}
    assert top == {decision["entry"]["id"], blocker["entry"]["id"]}, hits
    assert structured(await call("lock_context", {**scope, "topic": "grammar", "content": "v1"}))["version"] == 1
    assert structured(await call("lock_context", {**scope, "topic": "grammar", "content": "v2"}))["version"] == 2
    assert structured(await call("recall_context", {**scope, "topic": "grammar", "version": 1}))["lock"]["content"] == "v1"
    preamble = structured(await call("project_context", {**scope, "budget_tokens": 1000}))
    assert preamble["tokens"] <= 1000 and "parse with nom" in preamble["text"]
    forgotten = structured(await call("forget", {**scope, "id": decision["entry"]["id"]}))
    assert forgotten["entry"]["id"] == decision["entry"]["id"]

    bad = await call("create_project", {"name": "Bad", "slug": "Not A Slug"})
    assert is_error(bad)
    assert content(bad)["error"]["field"] == "slug"


@pytest.mark.anyio
@pytest.mark.skipif(SDK_MAJOR != 1, reason="mcp 1.x client")
async def test_sdk_1x_session_story(server):
    from mcp import ClientSession
    from mcp.client import streamable_http

    connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
    async with connect(server["url"]) as (read, write, *_):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.serverInfo.name == "mooring"
            assert "select_project_for_session" in (init.instructions or "")

            async def list_tools():
                return (await session.list_tools()).tools

            await story(session.call_tool, list_tools, server["code"], stateful=True)


@pytest.mark.anyio
@pytest.mark.skipif(SDK_MAJOR < 2, reason="mcp 2.x client")
async def test_sdk_2x_stateless_story(server):
    from mcp import Client

    async with Client(server["url"], mode="2026-07-28") as client:
        assert client.protocol_version == "2026-07-28"

        async def list_tools():
            return (await client.list_tools()).tools

        await story(client.call_tool, list_tools, server["code"], stateful=False)


@pytest.fixture
def anyio_backend():
    return "asyncio"
