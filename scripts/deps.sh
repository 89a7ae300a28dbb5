#!/usr/bin/env bash
# Installs what building and testing Mooring needs on Debian 12 / Ubuntu, as root or via
# sudo. Safe to run again: it only installs what is missing.
#   scripts/deps.sh build   system libraries for the desktop build
#   scripts/deps.sh test    the above plus the display, bus and tools the tests use
set -euo pipefail

want=(pkg-config build-essential libssl-dev libwebkit2gtk-4.1-dev libayatana-appindicator3-dev
      librsvg2-dev libxdo-dev)
if [ "${1:-build}" = test ]; then
  # postgresql: team mode's tests start their own server from its binaries.
  want+=(xvfb xauth dbus libglib2.0-bin procps python3 python3-venv chromium webkit2gtk-driver xdotool desktop-file-utils
         postgresql tmux)
  command -v npm >/dev/null 2>&1 || want+=(nodejs npm)
fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "Rust is not installed: get it from https://rustup.rs, then run this again." >&2
  exit 1
fi
if [ "${1:-build}" = test ]; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
  "$(dirname "$0")/test-tools.sh"
fi
