#!/usr/bin/env python3
"""What a short-lived `mooring` process costs, as people meet it: each command run as its
own process, timed from spawn to exit, with the CPU and peak memory the kernel counted for
it (wait4), with the hub running and without. Prints a table; `--guard` fails (exit 1) on
a gross regression measured as a ratio within this one run, where machine noise cannot
reach it:

  - a prompt hook with the hub running loads the model anyway (its peak memory more than
    8 MB above `mooring projects`'), or takes more than 3x `mooring projects`' time;
  - `mooring memory add` with the hub running holds more than 8 MB above `projects`.

    cargo build --profile start -p mooring-cli
    python3 bench/process_speed.py --bin target/start/mooring [--entries 2000] [--runs 30] [--guard]

The model for search by meaning must be installed (scripts/fetch-model.sh); without it
the figures are those of keyword search and the guard says so and passes.
"""

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

SUBJECTS = ["lease renewal", "ledger export", "invoice PDF", "raft election", "dashboard module",
            "staging deploy", "VPN profile", "billing address", "retry jitter", "heartbeat timer"]
VERBS = ["uses", "retries", "moves to", "renders", "checks", "skips", "caches", "logs"]
OBJECTS = ["Postgres", "MySQL", "every 5 s", "a fresh token", "the leader", "the nightly job",
           "two workers", "the webhook"]


def run(cmd, stdin=b""):
    """(wall ms, cpu ms, peak KB) of one process."""
    started = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p.stdin.write(stdin)
    p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss


def measure(name, cmd, runs, stdin=lambda i: b""):
    rows = [run(cmd(i) if callable(cmd) else cmd, stdin(i)) for i in range(runs)]
    wall = sorted(r[0] for r in rows)
    cpu = [r[1] for r in rows]
    return {
        "name": name,
        "p50_ms": statistics.median(wall),
        "p95_ms": wall[min(len(wall) - 1, int(len(wall) * 0.95))],
        "p99_ms": wall[min(len(wall) - 1, int(len(wall) * 0.99))],
        "cpu_ms": statistics.mean(cpu),
        "peak_mb": max(r[2] for r in rows) / 1024,
    }


def wait_for_socket(path, secs=20):
    deadline = time.time() + secs
    while time.time() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            s.close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit("the hub did not start")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/start/mooring")
    ap.add_argument("--entries", type=int, default=200)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--guard", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    mooring = os.path.abspath(a.bin)
    tmp = tempfile.mkdtemp(prefix="mooring-speed-")
    data = os.path.join(tmp, "data")
    code = os.path.join(tmp, "code")
    os.makedirs(code)
    subprocess.run(["git", "init", "-q", code], check=True)
    m = lambda *args: [mooring, "--data-dir", data, *args]
    subprocess.run(m("projects", "new", "Leases", "--code-path", code), check=True, stdout=subprocess.DEVNULL)
    subprocess.run(m("projects", "new", "Tiny"), check=True, stdout=subprocess.DEVNULL)
    rnd = random.Random(7)
    export = {"entries": []}
    for i in range(a.entries):
        text = f"The {rnd.choice(SUBJECTS)} {rnd.choice(VERBS)} {rnd.choice(OBJECTS)} (item {i})"
        kind = rnd.choice(["decision", "note"])
        subprocess.run(m("memory", "add", "leases", "--kind", kind, text), check=True, stdout=subprocess.DEVNULL)
    subprocess.run(m("memory", "index"), check=True, stdout=subprocess.DEVNULL)

    def prompt(text):
        return lambda i: json.dumps({
            "session_id": f"speed-{text[:6]}-{i}-{time.monotonic_ns()}", "cwd": code,
            "hook_event_name": "UserPromptSubmit", "prompt": text,
            "transcript_path": os.path.join(tmp, "none.jsonl"),
        }).encode()

    start = lambda i: json.dumps({
        "session_id": f"speed-start-{i}-{time.monotonic_ns()}", "cwd": code, "hook_event_name": "SessionStart",
        "source": "startup", "transcript_path": os.path.join(tmp, "none.jsonl"),
    }).encode()
    by_words = prompt("How often does the lease renewal check the heartbeat timer?")
    by_meaning = prompt("Which database keeps the accounting records?")
    add = lambda i: m("memory", "add", "tiny", "--kind", "decision", f"We keep the ledger in Postgres, take {i}")
    # A session's pre-edit hook: a file tool claiming a new file, and a shell command that
    # writes nothing (read for what it writes, then nothing more).
    edit = lambda i: json.dumps({
        "session_id": "speed-edit", "cwd": code, "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": f"src/file{i}-{time.monotonic_ns()}.rs", "content": "x"},
        "transcript_path": os.path.join(tmp, "none.jsonl"),
    }).encode()
    shell = lambda i: json.dumps({
        "session_id": "speed-edit", "cwd": code, "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "cargo test --workspace 2>&1 | tail -20"},
        "transcript_path": os.path.join(tmp, "none.jsonl"),
    }).encode()
    # Copilot CLI runs its pre-edit hook before every tool (it has no matcher): a read.
    view = lambda i: json.dumps({
        "sessionId": "speed-view", "cwd": code, "toolName": "view", "toolArgs": {"path": "src/lib.rs"},
    }).encode()

    rows = []

    def phase(label):
        rows.append(measure("mooring --version", [mooring, "--version"], a.runs))
        rows.append(measure(f"mooring projects{label}", m("projects"), a.runs))
        rows.append(measure(f"SessionStart hook{label}", m("hook", "claude-code"), a.runs, start))
        rows.append(measure(f"UserPromptSubmit, by words{label}", m("hook", "claude-code"), a.runs, by_words))
        rows.append(measure(f"UserPromptSubmit, by meaning{label}", m("hook", "claude-code"), a.runs, by_meaning))
        rows.append(measure(f"PreToolUse Write, claims the file{label}", m("hook", "claude-code"), a.runs, edit))
        rows.append(measure(f"PreToolUse Bash, writes nothing{label}", m("hook", "claude-code"), a.runs, shell))
        rows.append(measure(f"Copilot CLI preToolUse view{label}", m("hook", "copilot-cli", "preToolUse"), a.runs, view))
        rows.append(measure(f"memory add (tiny project){label}", add, a.runs))
        rows.append(measure(f"memory search (hybrid){label}",
                            m("memory", "search", "--project", "leases", "which database keeps accounting records"), a.runs))

    phase(", no hub")
    hub = subprocess.Popen(m("serve"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_socket(os.path.join(data, "hub.sock"))
        time.sleep(1.5)  # the hub holds the vectors at start
        phase(", hub running")
    finally:
        hub.terminate()
        hub.wait()

    if a.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'process (' + str(a.entries) + ' entries)':<46} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
              f"{'CPU ms':>8} {'peak MB':>8}")
        for r in rows:
            print(f"{r['name']:<46} {r['p50_ms']:>8.1f} {r['p95_ms']:>8.1f} {r['p99_ms']:>8.1f} "
                  f"{r['cpu_ms']:>8.1f} {r['peak_mb']:>8.1f}")
    if not a.guard:
        return
    get = lambda name: next(r for r in rows if r["name"] == name)
    base = get("mooring projects, hub running")
    failures = []
    for name in ["UserPromptSubmit, by meaning, hub running", "memory add (tiny project), hub running"]:
        r = get(name)
        if r["peak_mb"] > base["peak_mb"] + 8:
            failures.append(f"{name}: {r['peak_mb']:.1f} MB against {base['peak_mb']:.1f} for `projects`: "
                            "it loads the model although the hub runs")
    hook = get("UserPromptSubmit, by meaning, hub running")
    if hook["p50_ms"] > 3 * base["p50_ms"]:
        failures.append(f"prompt hook with the hub {hook['p50_ms']:.1f} ms, more than 3x `projects` "
                        f"({base['p50_ms']:.1f} ms)")
    for f in failures:
        print("speed guard:", f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
