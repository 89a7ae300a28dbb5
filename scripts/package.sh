#!/usr/bin/env bash
# Builds a Debian package of Mooring with cargo-deb: target/debian/mooring_<version>_<arch>.deb
# holding /usr/bin/mooring, /usr/bin/mooring-desktop, the icon and the menu entry (the
# tray app shows in the application menu). Install it with
#   sudo apt install ./target/debian/mooring_*.deb
# No AppImage: its tools (linuxdeploy, appimagetool) are downloaded at build time and are
# not in Debian, so it cannot be built offline.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
if ! cargo deb --version >/dev/null 2>&1; then
  echo "Installing cargo-deb"
  cargo install cargo-deb --locked --version "^3"
fi
cargo build --release -p mooring-cli -p mooring-desktop
cargo deb -p mooring-desktop --no-build --strip
deb=$(ls -t target/debian/mooring_*.deb | head -1)
echo "Built $deb:"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Architecture\|Depends\|Installed-Size\):/  \1:/p'
dpkg-deb --contents "$deb"
