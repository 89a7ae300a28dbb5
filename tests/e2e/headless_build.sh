#!/usr/bin/env bash
# The headless binary links no GUI: no tauri/gtk/webkit crate in its tree, no GUI
# library in its dynamic dependencies; the desktop binary without a display says what
# to do instead of panicking.
set -euo pipefail
cd "$(dirname "$0")/../.."
gui='^(tauri|tao|wry|gtk|gdk|webkit2gtk|javascriptcore|soup|libappindicator|muda|tray-icon)([-_ ]|$)'
if cargo tree -p mooring-cli -e normal,build --prefix none | grep -Ei "$gui"; then
  echo "mooring-cli pulls in GUI crates (above)"; exit 1
fi
if ldd "$MOORING_BIN/mooring" | grep -Ei 'gtk|webkit|soup|appindicator'; then
  echo "the mooring binary links GUI libraries (above)"; exit 1
fi
# The conformance suite's fixtures are a test build only: the shipped binary has none.
if grep -aq "test_simple_text\|conformance-fixtures" "$MOORING_BIN/mooring"; then
  echo "the mooring binary carries the conformance fixtures"; exit 1
fi
if "$MOORING_BIN/mooring" serve --conformance-fixtures --port 0 >/dev/null 2>&1; then
  echo "mooring serve accepted --conformance-fixtures"; exit 1
fi
set +e
out=$(env -u DISPLAY -u WAYLAND_DISPLAY MOORING_HOME="$(mktemp -d)" "$MOORING_BIN/mooring-desktop" 2>&1)
code=$?
set -e
echo "$out"
[ "$code" -eq 1 ] || { echo "expected exit 1 without a display, got $code"; exit 1; }
grep -q "mooring serve" <<<"$out" || { echo "no pointer to 'mooring serve'"; exit 1; }
if grep -qi panick <<<"$out"; then echo "it panicked"; exit 1; fi
echo "headless checks passed"
