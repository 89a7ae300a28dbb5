"""Run as another local user: hold as many connections to someone else's Mooring as we
can, sending request headers a byte a second (reconnecting whenever one is closed), for
SECONDS. Prints how many connections we opened and how many the server cut. Standard
library only (it runs as `nobody`).

usage: slow_user.py BASE_URL SECONDS [CONNECTIONS]
"""
import socket
import sys
import time
import urllib.parse

u = urllib.parse.urlparse(sys.argv[1])
seconds, wanted = float(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 300
request = f"GET /health HTTP/1.1\r\nHost: {u.netloc}\r\nX-Slow: " + "a" * 4000
end = time.monotonic() + seconds
opened = cut = 0
held = []


def connect():
    global opened
    try:
        s = socket.create_connection((u.hostname, u.port), timeout=1)
        s.setblocking(False)
        opened += 1
        return [s, 0]
    except OSError:
        return None


while time.monotonic() < end:
    held = [h for h in held if h is not None]
    while len(held) < wanted:
        h = connect()
        if h is None:
            break
        held.append(h)
    for h in held:
        s, sent = h
        try:
            s.send(request[sent % len(request)].encode())
            h[1] += 1
            if s.recv(1, socket.MSG_PEEK) == b"":
                raise OSError("closed")
        except BlockingIOError:
            pass
        except OSError:
            cut += 1
            s.close()
            held[held.index(h)] = None
    time.sleep(1)
print(f"opened={opened} cut={cut}")
