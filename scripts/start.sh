#!/usr/bin/env bash
# Installs what is missing, builds Mooring, installs it for this user and starts it:
#   ~/.local/bin/mooring and ~/.local/bin/mooring-desktop (MOORING_PREFIX=DIR moves them:
#   DIR/bin, DIR/share), the tray app's icon and desktop entry (it shows in the application
#   menu), then offers `mooring setup` for each agent client found here, and starts the
#   tray app where there is a display, `mooring serve` otherwise.
#   MOORING_NO_START=1 installs without starting; MOORING_YES=1 answers yes to setup.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${MOORING_PREFIX:-$HOME/.local}"
bindir="$prefix/bin"
share="$prefix/share"
scripts/deps.sh build
cargo build --release -p mooring-cli -p mooring-desktop

install -d "$bindir" "$share/applications" "$share/icons/hicolor/128x128/apps" "$share/icons/hicolor/scalable/apps"
install -m 0755 target/release/mooring "$bindir/mooring"
install -m 0755 target/release/mooring-desktop "$bindir/mooring-desktop"
install -m 0644 icons/128x128.png "$share/icons/hicolor/128x128/apps/mooring.png"
install -m 0644 icons/icon.svg "$share/icons/hicolor/scalable/apps/mooring.svg"
sed "s|^Exec=.*|Exec=$bindir/mooring-desktop|" packaging/mooring.desktop >"$share/applications/mooring.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$share/applications" || true
echo "Installed $bindir/mooring and $bindir/mooring-desktop (Mooring $("$bindir/mooring" --version | cut -d' ' -f2))."
case ":$PATH:" in
  *":$bindir:"*) ;;
  *) echo "Note: $bindir is not on your PATH; add it (e.g. in ~/.profile) to type \`mooring\`." ;;
esac

# Register Mooring with the agent clients found here: each starts the installed
# `mooring stdio`, which tells Mooring the directory a session works in.
found=$("$bindir/mooring" setup --list --json | python3 -c '
import json, sys
for c in json.load(sys.stdin)["clients"]:
    if c["detected"] and not c["configured"]:
        print(c["client"])')
for client in $found; do
  answer=n
  if [ "${MOORING_YES:-}" = 1 ]; then answer=y
  elif [ -t 0 ]; then read -r -p "Set up Mooring in $client (with its session hook where it has one)? [Y/n] " answer; answer=${answer:-y}
  fi
  case "$answer" in
    [Yy]*) "$bindir/mooring" setup "$client" --hooks ;;
    *) echo "Skipped $client; later: mooring setup $client --hooks" ;;
  esac
done
[ -n "$found" ] || echo "No agent client without Mooring found; later: mooring setup --list"

[ "${MOORING_NO_START:-}" = 1 ] && exit 0
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Starting the Mooring tray app (its menu lists your projects)."
  exec "$bindir/mooring-desktop"
fi
echo "No display here: starting the headless MCP server."
echo "Create a project:   mooring projects new \"My App\" --code-path ~/code/my-app"
exec "$bindir/mooring" serve
