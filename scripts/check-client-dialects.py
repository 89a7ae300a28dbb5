#!/usr/bin/env python3
"""Fails when a client's dialect is spelled outside `crates/clients`.

A client's hook event names (`UserPromptSubmit`, `AfterAgent`, `beforeSubmitPrompt`…) and
its name as Mooring writes it (`"claude-code"`, `"cursor"`…) belong to that client's
module in `crates/clients`; everywhere else reads the typed protocol
(`mooring_clients::hooks`) and the `Client` enum. Test code is not checked
(`#[cfg(test)]` modules at the end of a file, `tests.rs`, `*_tests.rs`, `tests/`): a test
may well feed a client's own JSON, and so may `bench/`, which drives the real hooks as a
client does.

    scripts/check-client-dialects.py              check the workspace
    scripts/check-client-dialects.py --self-test  show that a planted literal is found
"""

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

EVENTS = {
    # Claude Code and Codex.
    "SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact", "SessionEnd",
    "PermissionRequest", "PreToolUse", "PostToolUse",
    # Gemini CLI.
    "BeforeAgent", "AfterAgent", "PreCompress", "BeforeTool", "AfterTool",
    # Cursor.
    "sessionStart", "beforeSubmitPrompt", "afterAgentResponse", "preCompact", "sessionEnd",
    "preToolUse", "postToolUse",
    # GitHub Copilot CLI (beyond Cursor's spellings).
    "userPromptSubmitted", "agentStop", "subagentStop", "permissionRequest",
    # opencode's plugin events.
    "chat.message", "session.idle",
    # Windsurf.
    "pre_user_prompt", "post_write_code", "post_run_command", "post_mcp_tool_use", "post_read_code",
    "post_cascade_response", "post_cascade_response_with_transcript",
}

CLIENTS = {"claude-code", "codex", "gemini-cli", "copilot-cli", "qwen-code", "opencode", "cursor", "vscode", "windsurf",
           "zed", "claude-desktop"}

# Files allowed some client names still, with how many (none today: keep it so).
STILL_BY_NAME: dict[str, int] = {}

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def production_text(path: Path) -> str:
    """The file without its trailing test module."""
    text = path.read_text()
    cut = text.find("#[cfg(test)]\nmod ")
    return text if cut < 0 else text[:cut]


# Test bodies built into a library for other crates' tests (a feature, not the product).
TEST_SUPPORT = {"backend_suite.rs", "testing.rs"}


def is_test_file(path: Path) -> bool:
    return (
        path.name == "tests.rs"
        or path.name.endswith("_tests.rs")
        or path.name in TEST_SUPPORT
        or "tests" in path.parts
    )


def check(root: Path) -> list[str]:
    found = []
    sources = [p for p in (root / "crates").glob("*/src/**/*.rs") if p.parts[len(root.parts) + 1] != "clients"]
    sources += list((root / "src-tauri" / "src").glob("**/*.rs"))
    for path in sorted(sources):
        if is_test_file(path.relative_to(root)):
            continue
        rel = str(path.relative_to(root))
        names = 0
        for n, line in enumerate(production_text(path).splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for lit in LITERAL.findall(line):
                if lit in EVENTS:
                    found.append(f"{rel}:{n}: hook event \"{lit}\": read it through mooring_clients::hooks")
                elif lit in CLIENTS:
                    names += 1
                    if names > STILL_BY_NAME.get(rel, 0):
                        found.append(f"{rel}:{n}: client name \"{lit}\": use mooring_clients::Client")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "crates" / "cli" / "src").mkdir(parents=True)
        (root / "crates" / "clients" / "src").mkdir(parents=True)
        (root / "src-tauri" / "src").mkdir(parents=True)
        planted = root / "crates" / "cli" / "src" / "hook.rs"
        planted.write_text('fn f(e: &str) -> bool { e == "AfterAgent" }\n#[cfg(test)]\nmod tests { const C: &str = "cursor"; }\n')
        (root / "crates" / "clients" / "src" / "gemini.rs").write_text('const E: &str = "AfterAgent";\n')
        found = check(root)
        assert len(found) == 1 and "hook.rs:1" in found[0], found
        planted.write_text('fn f() -> &\'static str { "cursor" }\n')
        assert len(check(root)) == 1, "a client name outside crates/clients was not found"
    print("self-test: a planted event name and client name are found; the clients crate and tests are not")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--self-test"]:
        self_test()
        sys.exit(0)
    problems = check(ROOT)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} client dialect literal(s) outside crates/clients")
        sys.exit(1)
    print("client dialects: spelled only in crates/clients")
