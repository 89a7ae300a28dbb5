"""The desktop's native windows driven through WebKitWebDriver (run by ../desktop_windows.sh
inside xvfb-run + dbus-run-session). The driver starts the real mooring-desktop; MCP
calls from the Python SDK open its windows; the test clicks in them like a person and
checks what the MCP calls return.

1. provide_choice (transport auto, a client without elicitation) opens a question window;
   clicking an option and Submit makes the call return that selection.
2. A session with no project calls a project-scoped tool; the picker window opens; picking
   a project makes the original call return with it (decided_by picker).
3. The dashboard in a native window offers Start at login (a desktop-only setting).
4. A project's view shows its decisions, the pages follow the system theme
   (MOORING_THEME says which one this run has), and a code path chosen with the
   system's folder picker is added to the project.
With MOORING_SCREENSHOTS=DIR the windows are saved as PNGs there.
"""

import asyncio
import base64
import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from mcp import ClientSession
from mcp.client import streamable_http

connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
DATA = Path(os.environ["MOORING_HOME"])
BIN = Path(os.environ["MOORING_BIN"])
SHOTS = os.environ.get("MOORING_SCREENSHOTS")
TOOLS = Path(os.environ.get("MOORING_TEST_TOOLS", Path.home() / ".cache" / "mooring-tests"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """A tiny W3C WebDriver client (no browserName: WebKitGTK rejects Tauri's)."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None, timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{method} {path}: {e.code} {e.read()[:400]!r}") from None

    def s(self, method, path, body=None, timeout=30):
        return self.call(method, f"/session/{self.session}{path}", body, timeout)

    def start(self, binary, args):
        caps = {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {"binary": str(binary), "args": args}}}}
        self.session = self.call("POST", "/session", caps, timeout=120)["sessionId"]

    def windows(self):
        """Each open window as (handle, url), switching through them. A window that closes
        between the listing and the switch (a question ended elsewhere) is skipped: the
        driver answers "no such window" for it, which is no failure here."""
        seen = []
        for handle in self.s("GET", "/window/handles"):
            try:
                self.s("POST", "/window", {"handle": handle})
                seen.append((handle, self.s("GET", "/url")))
            except AssertionError as e:
                if "no such window" not in str(e):
                    raise
        return seen

    def window_with(self, fragment, timeout=30):
        """Switch to the window whose URL contains `fragment`."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for handle, url in self.windows():
                if fragment in url:
                    self.s("POST", "/window", {"handle": handle})
                    return handle
            time.sleep(0.3)
        raise AssertionError(f"no window showing {fragment}")

    def find(self, testid, timeout=15):
        deadline = time.time() + timeout
        while True:
            try:
                return self.s("POST", "/element", {"using": "css selector", "value": f'[data-testid="{testid}"]'})[ELEMENT]
            except AssertionError as e:
                if time.time() > deadline:
                    raise AssertionError(f"no element {testid} in {self.s('GET', '/url')}: {e}") from None
                time.sleep(0.2)

    def click(self, testid):
        self.s("POST", f"/element/{self.find(testid)}/click", {})

    def text(self, testid):
        return self.s("GET", f"/element/{self.find(testid)}/text")

    def wait_text(self, testid, wanted, timeout=15):
        deadline = time.time() + timeout
        while wanted not in (seen := self.text(testid)):
            if time.time() > deadline:
                raise AssertionError(f"{testid} shows {seen!r}, not {wanted!r}")
            time.sleep(0.2)

    def axe(self, where):
        """axe-core (from the test tools) finds no violation in the current window."""
        source = (TOOLS / "ui" / "node_modules" / "axe-core" / "axe.min.js").read_text()
        script = source + "\nconst done = arguments[arguments.length - 1];" \
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => v.id + ' (' + v.impact + ')')));"
        found = self.s("POST", "/execute/async", {"script": script, "args": []}, timeout=60)
        assert not found, f"axe-core in the {where} window: {found}"

    def fits(self, width, where):
        """At `width` px the window's page does not scroll sideways."""
        self.s("POST", "/window/rect", {"width": width, "height": 740})
        time.sleep(0.5)
        scroll, view = self.s("POST", "/execute/sync", {
            "script": "return [document.documentElement.scrollWidth, window.innerWidth]", "args": []})
        assert scroll <= view, f"the {where} window scrolls sideways at {view} px: {scroll} px wide"

    def screenshot(self, name):
        if SHOTS:
            Path(SHOTS, name).write_bytes(base64.b64decode(self.s("GET", "/screenshot")))


def wait_for_url():
    for _ in range(240):
        try:
            return json.loads((DATA / "endpoint.json").read_text())["url"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.25)
    raise AssertionError("mooring-desktop never wrote endpoint.json")


async def ask(url, title="Lease store"):
    async with connect(url) as (read, write, *_):
        async with ClientSession(read, write) as s:
            await s.initialize()
            r = await s.call_tool("provide_choice", {
                "title": title, "prompt": "Leader election flaps; pick where leases live.",
                "selection_mode": "single", "transport": "auto",
                "options": [{"id": "etcd", "label": "etcd", "description": "already in the cluster", "recommended": True},
                            {"id": "consul", "label": "Consul"}, {"id": "zk", "label": "ZooKeeper"}],
            })
            assert not r.isError, r
            return r.structuredContent


async def needs_project(url):
    async with connect(url) as (read, write, *_):
        async with ClientSession(read, write) as s:
            await s.initialize()
            r = await s.call_tool("get_last_handover", {})
            assert not r.isError, r
            return r.structuredContent


# MCP calls run on their own threads (each with its own event loop) while this thread
# clicks through the driver, which blocks.
POOL = concurrent.futures.ThreadPoolExecutor(4)


def background(fn, *args):
    return POOL.submit(fn, *args)


def phone(path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{os.environ['PHONE_PORT']}/control/{path}",
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def phone_answers_first(d, url):
    """Away with a paired phone (the Telegram stand-in): the question opens its window
    here and reaches the phone; the phone answers first and the window closes."""
    asked = background(asyncio.run, ask(url, "Release train"))
    # The first question's window may still be closing: find this question's.
    deadline = time.time() + 30
    shown = False
    while not shown and time.time() < deadline:
        for handle, url in d.windows():
            if "/choice/" not in url:
                continue
            try:
                d.s("POST", "/window", {"handle": handle})
                shown = "Release train" in d.text("title")
            except AssertionError:
                continue  # the first question's window closed meanwhile
            if shown:
                break
        time.sleep(0.3)
    assert shown, "the question's window did not open while away"
    deadline = time.time() + 30
    while time.time() < deadline:
        posted = [(k, m) for k, m in phone("messages")["messages"].items()
                  if "Release train" in m["text"] and (m.get("markup") or {}).get("inline_keyboard")]
        if posted:
            break
        time.sleep(0.1)
    assert posted, "the question never reached the phone"
    mid, m = posted[-1]
    data = next(b["callback_data"] for row in m["markup"]["inline_keyboard"] for b in row if b["text"] == "ZooKeeper")
    phone("press", {"from": 42, "chat": 42, "message_id": int(mid), "data": data})
    answer = asked.result(30)
    assert answer["selection"]["selected_ids"] == ["zk"] and answer.get("surface") == "telegram", answer
    deadline = time.time() + 15
    while time.time() < deadline:
        urls = [url for _, url in d.windows()]
        if not any("/choice/" in u for u in urls):
            break
        time.sleep(0.3)
    assert not any("/choice/" in u for u in urls), f"the question's window stayed open: {urls}"
    print("answered on the phone first: the window closed, the agent got", answer["selection"]["selected_ids"])


def main():
    port = free_port()
    env = {**os.environ, "TAURI_WEBVIEW_AUTOMATION": "true", "MOORING_OPEN_BROWSER": "0"}
    log = open(DATA / "webdriver.log", "w")
    driver_proc = subprocess.Popen(["WebKitWebDriver", f"--port={port}", "--host=127.0.0.1"], env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
    d = Driver(port)
    try:
        for _ in range(100):
            try:
                if d.call("GET", "/status")["ready"]:
                    break
            except (OSError, AssertionError):
                time.sleep(0.1)
        # The session starts the app and waits for its first window, which the question opens.
        session = background(d.start, BIN / "mooring-desktop", ["--data-dir", str(DATA), "--port", "0"])
        url = wait_for_url()
        asked = background(asyncio.run, ask(url))
        session.result(120)
        print("webdriver session", d.session)

        d.window_with("/choice/")
        d.wait_text("title", "Lease store")
        d.wait_text("options", "already in the cluster")
        d.axe("question")
        d.screenshot("choice-window.png")
        d.click("option-consul")
        d.click("submit")
        answer = asked.result(30)
        assert answer["selection"]["selected_ids"] == ["consul"], answer
        assert answer["action_status"] == "selected", answer
        print("question window answered:", answer["selection"]["selected_ids"])

        if os.environ.get("PHONE_PORT"):
            phone_answers_first(d, url)

        waiting = background(asyncio.run, needs_project(url))
        d.window_with("/pick/")
        d.wait_text("projects", "Beta Two")
        d.axe("picker")
        d.screenshot("picker-window.png")
        d.fits(360, "picker")
        d.click("project-beta-two")
        got = waiting.result(30)
        assert (got["project"], got["decided_by"]) == ("beta-two", "picker"), got
        print("picker window answered:", got["project"])

        token = (DATA / "token").read_text().strip()
        # Question and picker windows close once answered: a second launch brings up the
        # dashboard window, as a person starting Mooring again would.
        subprocess.run([str(BIN / "mooring-desktop"), "--data-dir", str(DATA), "--port", "0"],
                       capture_output=True, timeout=60, check=True)
        d.window_with("/dashboard")
        d.s("POST", "/url", {"url": url.replace("/mcp", f"/dashboard?token={token}")})
        d.wait_text("projects", "Beta Two")
        d.click("nav-sessions")
        d.wait_text("sessions", "beta-two")
        d.click("nav-settings")
        enabled = d.s("GET", f"/element/{d.find('set-login')}/enabled")
        d.click("nav-projects")
        assert enabled is True, "the desktop's dashboard should offer Start at login"
        # The tray opens the dashboard at this size.
        d.s("POST", "/window/rect", {"width": 1100, "height": 820})
        time.sleep(1)
        theme = os.environ.get("MOORING_THEME", "light")
        d.screenshot(f"dashboard-window-{theme}.png")
        print("dashboard window: projects, sessions and Start at login shown")

        d.s("POST", "/url", {"url": url.replace("/mcp", f"/project/beta-two?token={token}")})
        d.wait_text("decisions", "Leases live in etcd")
        d.wait_text("blockers", "CI runners lack IPv6")
        dark = d.s("POST", "/execute/sync", {"script": "return matchMedia('(prefers-color-scheme: dark)').matches", "args": []})
        assert dark == (theme == "dark"), f"the window's pages see dark={dark} under the {theme} system theme"
        page_bg = d.s("POST", "/execute/sync", {"script": "return getComputedStyle(document.body).backgroundColor", "args": []})
        level = sum(int(x) for x in page_bg[page_bg.index("(") + 1:page_bg.index(")")].split(",")[:3])
        assert (level < 200) == (theme == "dark"), f"the page's background is {page_bg} under the {theme} theme"
        d.axe("project view")
        time.sleep(1)
        d.screenshot(f"project-window-{theme}.png")

        # A code path chosen with the system's folder picker (GTK's, typed into as a
        # person would) is added to the project.
        folder = DATA.parent / "src" / "beta-two-extra"
        folder.mkdir(parents=True, exist_ok=True)
        d.click("path-choose")
        title = "A code directory for Beta Two"
        found = subprocess.run(["xdotool", "search", "--sync", "--limit", "1", "--name", title],
                               capture_output=True, text=True, timeout=30)
        assert found.returncode == 0 and found.stdout.strip(), "no folder picker appeared"
        win = found.stdout.split()[0]
        # Real key presses (XTEST) into the focused dialog: GTK ignores synthetic ones.
        subprocess.run(["xdotool", "windowfocus", "--sync", win], check=False, timeout=10)
        time.sleep(0.5)
        subprocess.run(["xdotool", "key", "ctrl+l"], check=True, timeout=10)
        time.sleep(0.3)
        subprocess.run(["xdotool", "type", "--delay", "20", str(folder)], check=True, timeout=30)
        time.sleep(0.5)
        # The first Return goes into the folder, the second chooses it.
        subprocess.run(["xdotool", "key", "Return"], check=True, timeout=10)
        time.sleep(0.8)
        subprocess.run(["xdotool", "key", "Return"], check=True, timeout=10)
        d.wait_text("paths", "beta-two-extra", timeout=20)
        shown = json.loads(subprocess.run([str(BIN / "mooring"), "--data-dir", str(DATA), "projects", "beta-two",
                                           "--json"], capture_output=True, text=True, check=True).stdout)
        assert any(c["path"] == str(folder) for c in shown["project"]["code_paths"]), shown["project"]["code_paths"]
        print("a code path chosen with the folder picker:", folder)
        print(f"project view in a native window, {theme} theme: background {page_bg}")
    finally:
        if d.session:
            try:
                d.s("DELETE", "")
            except Exception as e:  # the app may already be gone
                print("closing the session:", e)
        driver_proc.terminate()
        driver_proc.wait(10)
        subprocess.run(["pkill", "-f", f"mooring-desktop --data-dir {DATA}"], check=False)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        for name in ("webdriver.log",):
            print(f"--- {name}")
            print((DATA / name).read_text()[-4000:])
        # Last, so a log cut to its head and tail still names the failure.
        print("FAIL:", e)
        sys.exit(1)
    print("native window checks passed")
    POOL.shutdown(wait=False, cancel_futures=True)
