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
