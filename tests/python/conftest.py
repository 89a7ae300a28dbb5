"""A real `mooring serve` on 127.0.0.1:0 over a temporary data directory."""

import contextlib
import json
import os
import subprocess
from pathlib import Path

import pytest

BIN = Path(os.environ.get("MOORING_BIN", Path(__file__).resolve().parents[2] / "target" / "debug"))


@pytest.fixture
def server(tmp_path):
    code = tmp_path / "code" / "app"
    code.mkdir(parents=True)
    with serve(tmp_path / "data") as info:
        yield {**info, "code": code}


@contextlib.contextmanager
def serve(data):
    """`mooring serve` on a free port over `data`, stopped (cleanly) at the end."""
    proc = subprocess.Popen(
        [str(BIN / "mooring"), "--data-dir", str(data), "serve", "--port", "0", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "MOORING_OPEN_BROWSER": "0"},
    )
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, f"mooring serve exited early: {''.join(lines)}"
        lines.append(line)
        if line.rstrip() == "}":
            break
    info = json.loads("".join(lines))
    try:
        yield {"url": info["url"], "data": data}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert not (data / "endpoint.json").exists(), "endpoint.json must be removed on a clean exit"
