"""Check what one real agent CLI sent its (stand-in) model during one turn.

usage: check_agent_run.py RECORD CLIENT MARKER PROJECT [DECIDED_BY...]

- The client offered Mooring's tools to the model.
- Mooring answered get_last_handover, remember and project_context, each for PROJECT and
  decided by where the session runs: its working directory, its workspace, or the
  client's roots — never auto-selection, the focus project or a question.
- With a session hook installed, MARKER (text only the project's preamble holds) is in
  the first request that offered tools: the client handed the model the preamble before
  any tool ran. (MARKER "-" skips this.)
"""

import json
import re
import sys

record, client, marker, project = sys.argv[1:5]
# Where the session runs decides, unless the test names what must (the picker, say).
allowed = tuple(sys.argv[5:]) or ("cwd", "workspace", "roots")
requests = [json.loads(line)["body"] or {} for line in open(record) if line.strip()]


def tools_of(body):
    names = [t.get("name", "") for t in body.get("tools") or []]
    names += [f.get("name", "") for t in body.get("tools") or [] for f in t.get("functionDeclarations") or []]
    names += [t.get("name", "") for t in body.get("tools") or [] if t.get("type") == "namespace"]
    return [n for n in names if "mooring" in n]


with_tools = [b for b in requests if tools_of(b)]
assert with_tools, f"{client}: no request offered Mooring's tools ({len(requests)} requests)"
last = json.dumps(with_tools[-1])


def results(body):
    """Tool result texts, in order, in any of the three APIs' shapes."""
    out = []
    for m in body.get("messages") or []:  # Anthropic
        for b in m.get("content") if isinstance(m.get("content"), list) else []:
            if b.get("type") == "tool_result":
                out.append(json.dumps(b.get("content")))
    for i in body.get("input") or []:  # OpenAI Responses
        if isinstance(i, dict) and i.get("type") == "function_call_output":
            out.append(json.dumps(i.get("output")))
    for c in body.get("contents") or []:  # Gemini
        for p in c.get("parts") or []:
            if "functionResponse" in p:
                out.append(json.dumps(p["functionResponse"]))
    return out


def field(text, name):
    # Results arrive as JSON inside strings inside JSON: match through any escaping.
    m = re.search(r'\\*"' + name + r'\\*"\s*:\s*\\*"([A-Za-z0-9_-]+)', text)
    return m.group(1) if m else None


got = results(with_tools[-1])
assert len(got) >= 3, f"{client}: expected 3 tool results, got {len(got)}: {got}"
for text in got[:3]:
    for bad in ("PROJECT_SELECTION_REQUIRED", "did not choose", "INPUT_REQUIRED"):
        assert bad not in text, f"{client}: a tool asked instead of resolving: {text[:300]}"
    decided = field(text, "decided_by")
    assert decided in allowed or (decided == "session" and "picker" in allowed), \
        f"{client}: decided_by={decided}: {text[:300]}"
    assert field(text, "project") == project, f"{client}: project={field(text, 'project')}: {text[:300]}"
print(f"{client}: {len(requests)} model requests; 3 Mooring calls decided by {[field(t, 'decided_by') for t in got[:3]]}")

if marker != "-":
    assert marker in json.dumps(with_tools[0]), f"{client}: the session-start preamble is not in the first model request"
    print(f"{client}: the project's preamble reached the model before any tool ran")
