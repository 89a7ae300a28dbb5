#!/usr/bin/env python3
"""The rooms' invariants a script can check (docs/architecture.md, "Invariants", lists
them all and names this script beside each one it checks). Each rule: what must hold,
the files it looks at, what breaks it, and the files allowed to. Test code is left out
(a tests.rs, *_tests.rs, a tests/ folder, and a file's trailing `mod tests`).

`--self-test` shows each rule fires on a line that breaks it."""

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rust(under):
    for p in sorted((ROOT / under).rglob("*.rs")):
        rel = p.relative_to(ROOT).as_posix()
        if "/tests/" in rel or re.search(r"(^|/)(tests?|[a-z_]+_tests)\.rs$", rel):
            continue
        text = p.read_text(errors="replace")
        cut = re.search(r"\n#\[cfg\(test\)\]\n(pub\(crate\) )?mod tests \{", text)
        yield rel, text[: cut.start()] if cut else text


# (invariant, folders looked at, pattern that breaks it, paths allowed to)
RULES = [
    (
        "core: only `store/` speaks SQL to Mooring's own database",
        ["crates/core/src"],
        re.compile(r"\b(SELECT\s+\S.*\bFROM|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET)\b"),
        # opencode keeps its sessions in a database of its own, which capture reads.
        ["crates/core/src/store/", "crates/core/src/capture/opencode.rs"],
    ),
    (
        "memory: how entries relate is read from its columns, never out of `data`",
        ["crates/core/src", "crates/team/src"],
        re.compile(r"""(\$\.(superseded_by|superseded_at|folded_at|key)\b|data\s*->>?\s*'(superseded_by|folded_at|key)'|data\s*\?\s*'(superseded_by|folded_at)')"""),
        [],
    ),
    (
        "remote: a chat platform's name is spelled in the model, its spec row and its transport only",
        ["crates/core/src", "crates/server/src", "crates/cli/src"],
        re.compile(r'"(telegram|slack)"'),
        [
            "crates/core/src/model/surface.rs",
            "crates/core/src/remote/spec.rs",
            "crates/server/src/remote/telegram.rs",
            "crates/server/src/remote/slack.rs",
        ],
    ),
    (
        "phone: the relay names no platform (each transport speaks for its own)",
        ["crates/server/src/remote/relay"],
        re.compile(r"Platform::(Telegram|Slack)\b"),
        [],
    ),
    (
        "every room: no comment cites a document outside the repository",
        ["crates", "src-tauri/src", "bench"],
        re.compile(r"//.*(\bseed\s+0\d\d\b|\.\./shared/)", re.I),
        [],
    ),
]

# Crates core must never depend on: it has no HTTP server, no GUI, no MCP wire.
CORE_NEVER = {"tauri", "axum", "hyper", "rmcp", "tower", "tokio-postgres", "mooring-server", "mooring-team"}


def violations(rules=RULES, files=None):
    out = []
    for name, folders, pattern, allowed in rules:
        for folder in folders:
            for rel, text in files if files is not None else rust(folder):
                if not rel.startswith(folder) or any(rel.startswith(a) for a in allowed):
                    continue
                for n, line in enumerate(text.split("\n"), 1):
                    if pattern.search(line):
                        out.append(f"{rel}:{n}: breaks \"{name}\": {line.strip()[:100]}")
    return out


def core_dependencies():
    cargo = tomllib.loads((ROOT / "crates/core/Cargo.toml").read_text())
    deps = set(cargo.get("dependencies", {}))
    return sorted(deps & CORE_NEVER)


def self_test():
    bad = {
        "core: only": ("crates/core/src/memory/x.rs", 'conn.execute("DELETE FROM memory WHERE id = ?1")'),
        "memory: how": ("crates/team/src/x.rs", "WHERE data->>'key' = $2"),
        "remote: a chat": ("crates/server/src/mcp/x.rs", 'if name == "slack" {'),
        "phone: the relay": ("crates/server/src/remote/relay/x.rs", "Platform::Telegram => 1,"),
        "every room": ("crates/core/src/x.rs", "// as seed 003 said"),
    }
    for start, (path, line) in bad.items():
        rule = next(r for r in RULES if r[0].startswith(start))
        if not violations([rule], [(path, line)]):
            sys.exit(f"self-test: \"{rule[0]}\" did not fire on {line!r}")
    print(f"invariants self-test: each of the {len(RULES)} rules fires on a line that breaks it")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return
    found = violations()
    for dep in core_dependencies():
        found.append(f"crates/core/Cargo.toml: core depends on {dep}; it has no HTTP server, GUI or MCP wire")
    if found:
        print("\n".join(found))
        sys.exit(1)
    print(f"invariants: {len(RULES) + 1} hold (docs/architecture.md, Invariants)")


if __name__ == "__main__":
    main()
