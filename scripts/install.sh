#!/usr/bin/env bash
# Installs built Mooring programs for this user and registers Mooring with the agent
# clients found here:
#   scripts/install.sh [BUILD_DIR]     (default target/release)
# puts mooring and mooring-desktop in $MOORING_PREFIX/bin (default ~/.local/bin), the icon
# and the desktop entry under $MOORING_PREFIX/share (the tray app shows in the
# application menu), then offers `mooring setup CLIENT --hooks` for each client found
# without Mooring (MOORING_YES=1 answers yes; without a terminal the answer is no).
# With --command-only, just `mooring` (scripts/start.sh serves with it while the tray app
# builds; a later run without the flag adds the tray app).
set -euo pipefail
cd "$(dirname "$0")/.."
programs="mooring mooring-desktop"
if [ "${1:-}" = --command-only ]; then programs=mooring; shift; fi
from="${1:-target/release}"
prefix="${MOORING_PREFIX:-$HOME/.local}"
bindir="$prefix/bin"
share="$prefix/share"
for b in $programs; do
  [ -x "$from/$b" ] || { echo "$from/$b is missing: build it first (cargo build --release -p mooring-cli -p mooring-desktop)" >&2; exit 1; }
done
install -d "$bindir"
install -m 0755 "$from/mooring" "$bindir/mooring"
if [ "$programs" = mooring ]; then
  echo "Installed $bindir/mooring (Mooring $("$bindir/mooring" --version | cut -d' ' -f2))."
else
  install -d "$share/applications" "$share/icons/hicolor/128x128/apps" "$share/icons/hicolor/scalable/apps"
  install -m 0755 "$from/mooring-desktop" "$bindir/mooring-desktop"
  install -m 0644 icons/128x128.png "$share/icons/hicolor/128x128/apps/mooring.png"
  install -m 0644 icons/icon.svg "$share/icons/hicolor/scalable/apps/mooring.svg"
  sed "s|^Exec=.*|Exec=$bindir/mooring-desktop|" packaging/mooring.desktop >"$share/applications/mooring.desktop"
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$share/applications" || true
  echo "Installed $bindir/mooring and $bindir/mooring-desktop (Mooring $("$bindir/mooring" --version | cut -d' ' -f2))."
fi
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

