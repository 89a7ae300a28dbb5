"""Mooring's MCP Apps in a host: the official host bridge (@modelcontextprotocol/ext-apps)
in headless Chromium and the official TypeScript client against the real server. The
question and the project picker are drawn in the conversation and answered there; a client
that does not render apps sees no change and is refused the apps' tool."""

import json
import os
import subprocess
from importlib.metadata import version
from pathlib import Path

import pytest

from ui_driver import NEEDS, NODE, TOOLS

HOST = Path(__file__).resolve().parents[1] / "ui" / "apps_host.mjs"
APPS = TOOLS / "apps"

pytestmark = [
    pytest.mark.skipif(not all(NEEDS), reason="needs Node 22, playwright-core and chromium (scripts/test-tools.sh)"),
    pytest.mark.skipif(int(version("mcp").split(".")[0]) < 2, reason="runs once, in the mcp 2.x pass"),
]


def test_a_host_draws_the_question_and_the_picker_and_the_person_answers_there(server):
    assert (APPS / "node_modules" / "@modelcontextprotocol" / "ext-apps").exists(), "run scripts/test-tools.sh"
    env = {**os.environ, "MOORING_UI_TOOLS": str(TOOLS / "ui"), "MOORING_APPS_TOOLS": str(APPS)}
    proc = subprocess.run(
        [str(NODE), str(HOST), server["url"], str(server["data"])],
        capture_output=True, text=True, env=env, timeout=240,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-2000:]
    result = json.loads(lines[-1])
    result.pop("logs", None)
    assert result["ok"], result
    assert result["tools"]["host"] == result["tools"]["plain"] + 2
    assert result["choice"] == "The person chose Redis, SQLite."
    assert result["modes"] == 4, "all four selection modes answered in the app"
    assert result["picked"] == {"project": "beta", "decided_by": "app"}
