"""Team mode in the dashboard, in headless Chromium: two people's Moorings on one real
PostgreSQL (started here with initdb/pg_ctl in a temporary directory, as the `postgres`
user when root). The owner sees the project's people, hands it off from the dashboard,
and its events say who did what; the new owner's Mooring sees it is theirs."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
from importlib.metadata import version
from pathlib import Path

import pytest

from conftest import BIN, serve
from ui_driver import NEEDS, drive

PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
pytestmark = [
    pytest.mark.skipif(not all(NEEDS), reason="needs Node 22, playwright-core and chromium (scripts/test-tools.sh)"),
    pytest.mark.skipif(not PG_BIN, reason="needs Debian's postgresql (scripts/deps.sh test)"),
    # No MCP here: once is enough, with the venv the page tests use.
    pytest.mark.skipif(int(version("mcp").split(".")[0]) < 2, reason="runs once, under the mcp 2.x venv"),
]
PASSWORD = "team-dashboard-password"


def as_postgres(args):
    """Server binaries refuse root: run them as `postgres` then."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    out = subprocess.run(prefix + args, capture_output=True, text=True)
    assert out.returncode == 0, f"{args[0]} failed: {out.stdout}{out.stderr}"


@pytest.fixture(scope="module")
def postgres():
    bin_dir = PG_BIN[-1].parent
    # Not under pytest's own temp root: that is private to us, and the server runs as postgres.
    root = Path(tempfile.mkdtemp(prefix="mooring-pg-"))
    (root / "pw").write_text(PASSWORD)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        shutil.chown(root / "pw", "postgres", "postgres")
    data = root / "data"
    as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-U", "mooring", "--auth=scram-sha-256",
                 "--pwfile", str(root / "pw"), "-E", "UTF8", "--locale=C"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(root / "log"), "-w", "start"])
    try:
        yield f"postgres://mooring@127.0.0.1:{port}/postgres?sslmode=disable"
    finally:
        as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"])
        shutil.rmtree(root, ignore_errors=True)


def mooring(data, *args):
    out = subprocess.run([str(BIN / "mooring"), "--data-dir", str(data), "--json", *args],
                         capture_output=True, text=True, env={**os.environ, "MOORING_OPEN_BROWSER": "0"})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout) if out.stdout.strip() else None


@pytest.mark.anyio
async def test_the_owner_hands_a_team_project_off_from_the_dashboard(postgres, tmp_path):
    pw = tmp_path / "pw"
    pw.write_text(PASSWORD)
    ada, bob = tmp_path / "ada", tmp_path / "bob"
    for data, name in ((ada, "Ada"), (bob, "Bob")):
        mooring(data, "team", "join", postgres, "--name", name, "--password-file", str(pw))
    mooring(ada, "team", "new", "Payments")
    mooring(ada, "team", "member", "payments", "Bob")
    with serve(ada) as srv:
        token = (ada / "token").read_text().strip()
        await drive(srv["url"].replace("/mcp", f"/dashboard?token={token}"), [
            {"expectText": ["shared-payments", "team · owner Ada · you: owner · 2 people"]},
            {"select": ["handoff-to-payments", "Bob"]},
            {"click": "handoff-payments"},
            {"expectText": ["shared-payments", "owner Bob · you: member"]},
            # Its status is the new owner's now: the button says so instead of failing.
            {"expectDisabled": "toggle-payments"},
            {"click": "nav-events"},
            {"select": ["events-project", "payments"]},
            {"expectText": ["events", "handed to Bob — by Ada"]},
            {"expectText": ["events", "Bob is now member — by Ada"]},
            # Bob, its owner now, renames it on his machine: Ada's open dashboard shows
            # it by itself (the team announces it, her server follows, the page waits on it),
            # and the events panel keeps showing the project she chose.
            {"exec": [str(BIN / "mooring"), "--data-dir", str(bob), "projects", "payments", "--name", "Payments API"]},
            {"expectText": ["project-payments", "Payments API"]},
            {"expectText": ["events", "edited name — by Bob"]},
            # The project's own view says whose it is and what happened, in words.
            {"open": f"/project/payments?token={token}"},
            {"expectText": ["meta", "team · owner Bob · you: member · 2 people"]},
            {"expectText": ["events", "handed to Bob — by Ada"]},
        ])
    # Bob's Mooring agrees: he owns it, and Ada can no longer delete it.
    shown = mooring(bob, "team", "status")
    assert any(p["slug"] == "payments" and p["role"] == "owner" for p in shown["projects"]), shown
    refused = subprocess.run([str(BIN / "mooring"), "--data-dir", str(ada), "projects", "payments", "--delete", "--yes"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "only the owner" in refused.stderr, refused.stderr
