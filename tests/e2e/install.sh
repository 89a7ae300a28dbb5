#!/usr/bin/env bash
# scripts/install.sh as a person's machine sees it: the programs land in PREFIX/bin, the
# tray app's icon and a valid menu entry under PREFIX/share, and `mooring setup` runs
# for the agent client found (Codex here: ~/.codex exists) and for no other, pointing at
# the installed binary, never the build directory. A second run changes nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" MOORING_HOME="$tmp/data"
prefix="$tmp/prefix"
mkdir -p "$HOME/.codex"
printf '# mine\nmodel = "o3"\n' >"$HOME/.codex/config.toml"

PATH=/usr/bin:/bin MOORING_PREFIX="$prefix" MOORING_YES=1 scripts/install.sh "$MOORING_BIN" >"$tmp/out.txt"
cat "$tmp/out.txt"
"$prefix/bin/mooring" --version | grep -q '^mooring ' || { echo "installed mooring does not run"; exit 1; }
[ -x "$prefix/bin/mooring-desktop" ] || { echo "mooring-desktop was not installed"; exit 1; }
[ -s "$prefix/share/icons/hicolor/128x128/apps/mooring.png" ] || { echo "no icon"; exit 1; }
entry="$prefix/share/applications/mooring.desktop"
grep -qx "Exec=$prefix/bin/mooring-desktop" "$entry" || { echo "the menu entry does not start the installed app:"; cat "$entry"; exit 1; }
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$entry"; echo "menu entry valid"; fi

grep -q '^# mine' "$HOME/.codex/config.toml" || { echo "setup lost the person's codex settings"; exit 1; }
grep -qx "command = \"$prefix/bin/mooring\"" "$HOME/.codex/config.toml" \
  || { echo "codex does not start the installed mooring:"; cat "$HOME/.codex/config.toml"; exit 1; }
grep -q "$prefix/bin/mooring .*hook codex" "$HOME/.codex/hooks.json" || { echo "no codex hook"; exit 1; }
[ ! -e "$HOME/.claude.json" ] || { echo "setup wrote a config for a client that is not here"; exit 1; }
if grep -rq "target/debug" "$HOME/.codex"; then echo "a client points into the build directory"; exit 1; fi

cp "$HOME/.codex/config.toml" "$tmp/before.toml"
PATH=/usr/bin:/bin MOORING_PREFIX="$prefix" MOORING_YES=1 scripts/install.sh "$MOORING_BIN" >"$tmp/again.txt"
grep -q "No agent client without Mooring found" "$tmp/again.txt" || { cat "$tmp/again.txt"; exit 1; }
cmp -s "$tmp/before.toml" "$HOME/.codex/config.toml" || { echo "a second install changed codex's config"; exit 1; }
# What scripts/start.sh installs before the tray app is built: the command alone.
only="$tmp/only"
PATH=/usr/bin:/bin MOORING_PREFIX="$only" MOORING_YES=1 scripts/install.sh --command-only "$MOORING_BIN" >"$tmp/only.txt"
"$only/bin/mooring" --version | grep -q '^mooring ' || { echo "--command-only did not install a working mooring"; exit 1; }
[ ! -e "$only/bin/mooring-desktop" ] && [ ! -e "$only/share/applications/mooring.desktop" ] \
  || { echo "--command-only installed the tray app or its menu entry"; exit 1; }
echo "ok: installed, menu entry valid, codex set up with the installed binary, second run idempotent"
