# Reading and clicking the tray menu over D-Bus (com.canonical.dbusmenu), as a panel
# would. Source it after setting $pid (the desktop's pid) and defining fail(); then call
# find_menu, which sets $name and $menu.
bus() { gdbus call --session "$@"; }

# The app's bus name is the connection owned by its pid; its menu is the dbusmenu object.
# Up to two minutes: a desktop's first start on a cold machine took longer than 30 s
# once, and the first desktop tier after a fresh build missed a minute twice locally
# (the same tier passed in 4 s right after).
find_menu() {
name=""; menu=""
for _ in $(seq 1 240); do
  kill -0 "$pid" 2>/dev/null || fail "mooring-desktop exited early"
  for n in $(bus --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
             --method org.freedesktop.DBus.ListNames | grep -o "':[0-9.]*'" | tr -d "'"); do
    owner=$(bus --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.GetConnectionUnixProcessID "$n" 2>/dev/null | grep -o '[0-9]\+' | tail -1 || true)
    if [ "$owner" = "$pid" ]; then
      menu=$(busctl --user tree "$n" --list 2>/dev/null | grep '/NotificationItem/.*/Menu$' | head -1 || true)
      [ -n "$menu" ] && name=$n
    fi
  done
  [ -n "$menu" ] && break
  sleep 0.5
done
[ -n "$menu" ] || fail "no tray menu appeared on the session bus"
}

layout() { bus --dest "$name" --object-path "$menu" --method com.canonical.dbusmenu.GetLayout -- 0 -1 '["label","toggle-state"]'; }
# Prints "id<TAB>label<TAB>toggle" per item, decoding GVariant text.
items() {
  layout | python3 -c '
import re, sys
text = sys.stdin.read()
for m in re.finditer(r"<\((\d+), (?:@a\{sv\} )?\{([^}]*)\}", text):
    props = m.group(2)
    label = re.search(r"'"'"'label'"'"': <'"'"'((?:[^'"'"'\\\\]|\\\\.)*)'"'"'>", props)
    toggle = re.search(r"'"'"'toggle-state'"'"': <(-?\d+)>", props)
    lab = label.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8") if label else ""
    print(f"{m.group(1)}\t{lab}\t{toggle.group(1) if toggle else -1}")
' 2>/dev/null
}
# The id of the first item whose label starts with $1.
id_of() { items | awk -F'\t' -v l="$1" 'index($2, l) == 1 { print $1; exit }'; }
wait_for() { for _ in $(seq 1 40); do if eval "$1"; then return 0; fi; sleep 0.25; done; return 1; }
# Click a menu item by label; the menu may be rebuilt between reading ids and clicking.
click() {
  for _ in $(seq 1 10); do
    local item
    item=$(id_of "$1")
    if [ -n "$item" ] && bus --dest "$name" --object-path "$menu" --method com.canonical.dbusmenu.Event \
         -- "$item" clicked '<"">' 0 >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.3
  done
  return 1
}

