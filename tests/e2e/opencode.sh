#!/usr/bin/env bash
# Context, recall and capture with the real opencode (pinned 1.18.33, from npm via
# scripts/test-tools.sh), set up by `mooring setup opencode --hooks` and nothing else,
# offline against the scripted stand-in model over OpenAI's Chat Completions API.
# Mooring's plugin must hand the model, with the session's first prompt, the project's
# preamble and the note the prompt is about; Mooring's tools, offered through the MCP
# entry setup wrote, must work; and a work session (a file written and edited, a todo,
# commands, a commit) must be captured into the project from opencode's database, with
# the token in a command taken out. `--remove` takes the plugin away again.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib/client_tier.sh
name=opencode title="opencode"
bin=$(tier_tool opencode) || exit 1
tier_sandbox
export XDG_DATA_HOME="$tmp/home/.local/share"
# Nothing of opencode's own reaches out (updates, the model catalogue, language servers).
export OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
  OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_MODELS_FETCH=1
config="$XDG_CONFIG_HOME/opencode"
mkdir -p "$config/node_modules"
# The plugin package opencode installs beside any plugin, as npm would (offline here).
cp -r "$tools/opencode/node_modules/@opencode-ai" "$config/node_modules/"
echo '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}' >"$config/package.json"

source tests/e2e/lib/opencode_family.sh
