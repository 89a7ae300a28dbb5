#!/usr/bin/env bash
# Context, recall and capture with the real Kilo CLI (pinned 7.7.7, a fork of opencode,
# from npm via scripts/test-tools.sh), set up by `mooring setup kilo --hooks` and nothing
# else, offline against the scripted stand-in model over OpenAI's Chat Completions API.
# Mooring's plugin must hand the model, with the session's first prompt, the project's
# preamble and the note the prompt is about; Mooring's tools, offered through the MCP
# entry setup wrote, must work; and a work session (a file written and edited, a todo,
# commands, a commit) must be captured into the project from Kilo's database, with the
# token in a command taken out. `--remove` takes the plugin away again.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
name=kilo title="Kilo CLI"
bin=$(tier_tool kilo) || exit 1
tier_sandbox
export XDG_DATA_HOME="$tmp/home/.local/share"
# Nothing of Kilo's own reaches out (updates, telemetry, the model catalogue, language
# servers, its gateway's session upload); its gateway's model list fails fast, offline.
export KILO_DISABLE_AUTOUPDATE=1 KILO_DISABLE_DEFAULT_PLUGINS=1 KILO_DISABLE_LSP_DOWNLOAD=1 \
  KILO_DISABLE_SHARE=1 KILO_DISABLE_MODELS_FETCH=1 KILO_TELEMETRY_LEVEL=off KILO_DISABLE_SESSION_INGEST=1 \
  KILO_DISABLE_PRESENCE=1 KILO_DISABLE_CODEBASE_INDEXING=1
config="$XDG_CONFIG_HOME/kilo"
mkdir -p "$config/node_modules"
# The plugin package Kilo installs beside any plugin, as npm would (offline here; the
# registry's newest is 7.3.1, older than the CLI, and Kilo takes it).
mkdir -p "$config/node_modules/@kilocode"
cp -r "$tools/kilo/node_modules/@kilocode/plugin" "$tools/kilo/node_modules/@kilocode/sdk" \
  "$config/node_modules/@kilocode/"
echo '{"dependencies":{"@kilocode/plugin":"7.3.1"}}' >"$config/package.json"

source tests/e2e/lib/opencode_family.sh
