#!/usr/bin/env python3
"""A public benchmark's load through the CLI, as people and agents run it: LoCoMo's ten
conversations (5,882 turns; snap-research/LoCoMo, CC BY-NC, so it is never copied here:
pass its `data/locomo10.json`), one `mooring memory add` per turn into a project per
conversation, then `mooring memory search` (hybrid) for its questions of categories 1-4,
each in the conversation's project. Prints the adds' total time and percentiles and the
searches' p50/p95, with the hub running (`--hub`) or without.

    python3 bench/public_load.py --data PATH/locomo10.json [--bin target/start/mooring] [--hub] [--questions 300]
"""

import argparse
import json
import os
import subprocess
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="LoCoMo's data/locomo10.json")
    ap.add_argument("--bin", default="target/start/mooring")
    ap.add_argument("--hub", action="store_true", help="run the hub (mooring serve) as people do")
    ap.add_argument("--questions", type=int, default=300)
    a = ap.parse_args()
    mooring = os.path.abspath(a.bin)
    data = os.path.join(tempfile.mkdtemp(prefix="mooring-public-"), "data")
    m = lambda *args: [mooring, "--data-dir", data, *args]
    conversations = json.load(open(a.data))
    for i in range(len(conversations)):
        subprocess.run(m("projects", "new", f"Conv {i}"), check=True, stdout=subprocess.DEVNULL)
    hub = None
    if a.hub:
        hub = subprocess.Popen(m("serve"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(os.path.join(data, "hub.sock")):
                break
            time.sleep(0.1)
        time.sleep(1.5)
    where = "hub running" if a.hub else "no hub"
    try:
        adds, started = [], time.time()
        for i, conv in enumerate(conversations):
            c = conv["conversation"]
            sessions = sorted((k for k in c if k.startswith("session_") and isinstance(c[k], list)),
                              key=lambda k: int(k.split("_")[1]))
            for k in sessions:
                for turn in c[k]:
                    t = time.time()
                    subprocess.run(m("memory", "add", f"conv-{i}", "--kind", "note", f"{turn['speaker']}: {turn['text']}"),
                                   check=True, stdout=subprocess.DEVNULL)
                    adds.append((time.time() - t) * 1000)
        total = time.time() - started
        adds.sort()
        at = lambda xs, p: xs[int((len(xs) - 1) * p)]
        print(f"{len(adds)} memory add in a row ({where}): {total:.0f} s, p50 {at(adds, 0.5):.1f} ms, "
              f"p95 {at(adds, 0.95):.1f}, max {adds[-1]:.1f}")
        if a.hub:
            time.sleep(5)  # the hub gives what was written its vectors
        subprocess.run(m("memory", "index"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        searches = []
        for i, conv in enumerate(conversations):
            for qa in conv["qa"]:
                if qa.get("category") not in (1, 2, 3, 4) or len(searches) >= a.questions:
                    continue
                t = time.time()
                subprocess.run(m("memory", "search", "--project", f"conv-{i}", qa["question"]),
                               check=True, stdout=subprocess.DEVNULL)
                searches.append((time.time() - t) * 1000)
        searches.sort()
        print(f"{len(searches)} memory search (hybrid) at {len(adds)} entries ({where}): "
              f"p50 {at(searches, 0.5):.1f} ms, p95 {at(searches, 0.95):.1f}")
    finally:
        if hub:
            hub.terminate()
            hub.wait()


if __name__ == "__main__":
    main()
