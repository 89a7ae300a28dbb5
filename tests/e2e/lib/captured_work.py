"""Check the record of the stand-in's work session (STANDIN_SCRIPT=work: retry.py written
and edited, a command carrying a token, a rename and a deletion, a commit) as a real
client's tier captured it: `python3 captured_work.py SESSIONS_JSON CLIENT [MORE …]`, where
SESSIONS_JSON is `mooring memory list … --kind session --json` and each MORE must be in
the record too. Prints the record's title."""
import json
import sys


def main():
    path, client, *more = sys.argv[1:]
    rows = json.load(open(path))
    rows = rows.get("entries", rows) if isinstance(rows, dict) else rows
    work = [r for r in rows if "Add a retry helper" in json.dumps(r)]
    assert work, f"the work session was not captured: {json.dumps(rows)[:800]}"
    text = json.dumps(work[0])
    for want in ("retry.py", "git status --short", "NOTES.md", "Add the retry helper", client, *more):
        assert want in text, (want, text[:1500])
    assert "ghp_" not in text, "a token in a command was stored"
    assert "return min(n, 3)" not in text, "file contents were stored"
    assert "Invoices are split" not in text, "Mooring's own context was recorded as the person's words"
    print(work[0]["title"])


if __name__ == "__main__":
    main()
