#!/usr/bin/env bash
# Outside clients: the Python MCP SDK 1.x (2025-11-25, sessions) and 2.x (2026-07-28,
# stateless, output-schema validation) against the real `mooring serve`.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"
for venv in mcp1 mcp2; do
  echo "== $venv ($("$tools/$venv/bin/python" -c 'from importlib.metadata import version; print("mcp", version("mcp"))'))"
  "$tools/$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python
done
