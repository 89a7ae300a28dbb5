"""A stand-in for GNOME's idle monitor on the session bus (org.gnome.Mutter.IdleMonitor,
/org/gnome/Mutter/IdleMonitor/Core, GetIdletime -> t milliseconds), as Mutter publishes
it; the test sets the idle time by writing a number of milliseconds into FILE.

usage: idle_monitor.py FILE   (system python: needs python3-gi)
"""
import sys

from gi.repository import Gio, GLib

XML = """<node><interface name="org.gnome.Mutter.IdleMonitor">
  <method name="GetIdletime"><arg type="t" name="idletime" direction="out"/></method>
</interface></node>"""
FILE = sys.argv[1]


def call(conn, sender, path, iface, method, params, invocation):
    try:
        ms = int(open(FILE).read().strip() or 0)
    except (OSError, ValueError):
        ms = 0
    invocation.return_value(GLib.Variant("(t)", (ms,)))


def acquired(conn, name):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    conn.register_object("/org/gnome/Mutter/IdleMonitor/Core", node.interfaces[0], call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.gnome.Mutter.IdleMonitor", Gio.BusNameOwnerFlags.NONE,
                 acquired, lambda *a: print("idle monitor ready", flush=True), lambda *a: sys.exit("name lost"))
GLib.MainLoop().run()
