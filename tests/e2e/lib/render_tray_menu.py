"""Used by tray_session.sh with MOORING_SCREENSHOTS: renders an app's tray menu the way a panel does: read its com.canonical.dbusmenu layout
over the session bus and pop it up as a GTK menu, then save a screenshot of it."""
import subprocess
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

name, path, out = sys.argv[1:4]
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
reply = bus.call_sync(name, path, "com.canonical.dbusmenu", "GetLayout",
                      GLib.Variant("(iias)", (0, -1, [])), None, 0, 5000, None)
_, layout = reply.unpack()


def build(children):
    menu = Gtk.Menu()
    for (_id, props, kids) in children:
        if props.get("type") == "separator":
            menu.append(Gtk.SeparatorMenuItem())
            continue
        label = props.get("label", "").replace("_", "")
        if props.get("toggle-type") == "checkmark":
            item = Gtk.CheckMenuItem(label=label)
            item.set_active(props.get("toggle-state", 0) == 1)
        else:
            item = Gtk.MenuItem(label=label)
        item.set_sensitive(props.get("enabled", True))
        if kids:
            item.set_submenu(build(kids))
        if props.get("visible", True):
            menu.append(item)
    menu.show_all()
    return menu


menu = build(layout[2])
win = Gtk.Window(title="panel")
win.set_default_size(10, 10)
win.move(0, 0)
win.show_all()


def pop():
    rect = Gdk.Rectangle()
    rect.x, rect.y, rect.width, rect.height = 20, 0, 1, 1
    menu.popup_at_rect(win.get_window(), rect, Gdk.Gravity.SOUTH_WEST, Gdk.Gravity.NORTH_WEST, None)
    GLib.timeout_add(800, shoot)
    return False


def shoot():
    alloc = menu.get_toplevel()
    w, h = alloc.get_allocated_width(), alloc.get_allocated_height()
    subprocess.run(["import", "-window", "root", "-crop", f"{w}x{h + 1}+20+0", out], check=False)
    Gtk.main_quit()
    return False


GLib.timeout_add(300, pop)
GLib.timeout_add(10000, Gtk.main_quit)
Gtk.main()
