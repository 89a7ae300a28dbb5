"""A stand-in for the desktop's idle monitor on the session bus, as the desktop
publishes it; the test sets the idle time by writing a number of milliseconds into FILE.
- GNOME (the default): org.gnome.Mutter.IdleMonitor at /org/gnome/Mutter/IdleMonitor/Core,
  GetIdletime -> t milliseconds;
- KDE Plasma on X11 (--kde): org.freedesktop.ScreenSaver at /ScreenSaver and
  /org/freedesktop/ScreenSaver, GetSessionIdleTime -> u milliseconds (kscreenlocker
  answers with KIdleTime's milliseconds).

usage: idle_monitor.py FILE [--kde]   (system python: needs python3-gi)
"""
import sys

from gi.repository import Gio, GLib

FILE = sys.argv[1]
KDE = "--kde" in sys.argv[2:]
if KDE:
    NAME, PATHS, METHOD, SIG = ("org.freedesktop.ScreenSaver", ["/ScreenSaver", "/org/freedesktop/ScreenSaver"],
                                "GetSessionIdleTime", "u")
else:
    NAME, PATHS, METHOD, SIG = ("org.gnome.Mutter.IdleMonitor", ["/org/gnome/Mutter/IdleMonitor/Core"],
                                "GetIdletime", "t")
XML = f"""<node><interface name="{NAME}">
  <method name="{METHOD}"><arg type="{SIG}" name="idletime" direction="out"/></method>
</interface></node>"""


def call(conn, sender, path, iface, method, params, invocation):
    try:
        ms = int(open(FILE).read().strip() or 0)
    except (OSError, ValueError):
        ms = 0
    invocation.return_value(GLib.Variant(f"({SIG})", (ms,)))


def acquired(conn, name):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    for path in PATHS:
        conn.register_object(path, node.interfaces[0], call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.NONE,
                 acquired, lambda *a: print("idle monitor ready", flush=True), lambda *a: sys.exit("name lost"))
GLib.MainLoop().run()
