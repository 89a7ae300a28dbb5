#!/usr/bin/env bash
# Installs what is missing, builds Mooring and starts it: the tray app where there is a
# display, otherwise a short tour of the headless command line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
cargo build --release -p mooring-cli
bin=target/release
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  cargo build --release -p mooring-desktop
  echo "Starting the Mooring tray app (its menu lists your projects)."
  exec "$bin/mooring-desktop"
fi
echo "No display here: starting the headless MCP server."
echo "Create a project:   $bin/mooring projects new \"My App\" --code-path ~/code/my-app"
echo "Connect an agent:   claude mcp add mooring -- $PWD/$bin/mooring stdio   (run it inside your project)"
exec "$bin/mooring" serve
