"""The requests a stand-in model recorded (model_standin.py), for the tiers' checks."""
import json


def bodies(path):
    """Every recorded request as (path, body), in the order the model got them."""
    with open(path) as f:
        return [(r["path"].split("?")[0], r["body"] or {}) for r in map(json.loads, filter(str.strip, f))]


def first_turn(path, prompt):
    """The first Messages request of the turn `prompt` started, as JSON text.

    A client may count tokens (`/v1/messages/count_tokens`, which also carries
    messages) or ask a side question before its first real turn; only a request to
    `/v1/messages` whose conversation holds the person's prompt is the turn itself.
    """
    seen = bodies(path)
    for where, body in seen:
        text = json.dumps(body)
        if where.endswith("/v1/messages") and body.get("messages") and prompt in text:
            return text
    got = ", ".join(f"{w} ({len(json.dumps(b))} bytes)" for w, b in seen) or "nothing"
    raise AssertionError(f"no Messages request carried the prompt {prompt!r}; the model got: {got}")


def handed_over(path, tool, least=4):
    """Check what a real client handed the stand-in model in a session on the tiers'
    "Ledger" checkout: its first turn (the first request offering tools) holds the project's
    preamble (a decision) and the note its prompt is about (port 6543), Mooring's `tool`
    was offered (a client may fetch it later, as Qwen Code's tool_search does), and the
    model's calls to Mooring's tools all came back (`least` turns)."""
    turns = [body for where, body in bodies(path) if body.get("tools") and not where.endswith("count_tokens")]
    assert turns, "the client never reached the stand-in model"
    first = json.dumps(turns[0])
    assert "Invoices are split per tenant before export" in first, "no preamble with the session's first turn"
    assert "6543" in first, "the note the prompt is about was not recalled"
    names = {t.get("name") or t.get("function", {}).get("name", "") for b in turns for t in b["tools"]}
    assert tool in names, f"Mooring's tools were not offered: {sorted(names)}"
    assert len(turns) >= least, f"the model's calls to Mooring's tools did not all come back: {len(turns)} requests"


if __name__ == "__main__":
    # `python3 model_requests.py RECORD TOOL`: the real-client tiers' check (handed_over).
    import sys
    handed_over(sys.argv[1], sys.argv[2])
