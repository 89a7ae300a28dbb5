"""Be the person at the desk while a client works: every question Mooring opens about a
write into a held file (from the local API's list of open questions, as the dashboard
reads it), read on its page and answered there with "Let it write", as a click would.
Writes the questions answered (title, prompt) as JSON to OUT once WANT were answered or
SECONDS passed. Standard library only.

usage: answer_held_writes.py BASE_URL MOORING DATA_DIR WANT SECONDS OUT
"""
import json
import subprocess
import sys
import time
import urllib.request

base, mooring, data, want, seconds, out = sys.argv[1:7]
token = subprocess.run([mooring, "--data-dir", data, "token"], capture_output=True, text=True,
                       check=True).stdout.strip()
answered, seen = [], set()
until = time.time() + float(seconds)
while time.time() < until and len(answered) < int(want):
    listing = urllib.request.Request(f"{base}/api/v1/choices", headers={"authorization": f"Bearer {token}"})
    for c in json.loads(urllib.request.urlopen(listing, timeout=10).read())["open"]:
        if c["id"] in seen or "held file" not in c["title"]:
            continue
        seen.add(c["id"])
        path, _, query = c["url"].partition("?")
        state = json.loads(urllib.request.urlopen(f"{base}{path}/state?{query}", timeout=10).read())
        body = json.dumps({"selected_ids": ["let_it_write"]}).encode()
        req = urllib.request.Request(f"{base}{path}/answer?{query}", data=body,
                                     headers={"content-type": "application/json"})
        urllib.request.urlopen(req, timeout=10).read()
        answered.append({"title": c["title"], "page": state})
    time.sleep(0.2)
json.dump(answered, open(out, "w"))
