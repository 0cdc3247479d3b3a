#!/usr/bin/env python3
"""A TCP flow that other traffic is made of, for the tests of the path evidence: it sends 1 MiB
chunks as fast as the link takes them until killed (or for SECONDS), the receiver discarding them.

  flow.py loopback [SECONDS]          both ends on 127.0.0.1 (an ephemeral port)
  flow.py serve HOST PORT             the receiving end only (another network namespace sends)
  flow.py send HOST PORT [SECONDS]    the sending end only

The sending end prints "flowing" once its first chunk is out, so that a test starts its run then."""
import socket
import sys
import threading
import time


def drain(server):
    while True:
        conn, _ = server.accept()
        threading.Thread(target=lambda c=conn: [None for _ in iter(lambda: c.recv(1 << 20), b"")],
                         daemon=True).start()


def send(host, port, seconds):
    chunk = bytes(1 << 20)
    for _ in range(200):
        try:
            conn = socket.create_connection((host, port))
            break
        except OSError:
            time.sleep(0.05)
    else:
        sys.exit(f"flow.py: no connection to {host}:{port}")
    conn.sendall(chunk)
    print("flowing", flush=True)
    end = time.monotonic() + seconds if seconds else None
    while end is None or time.monotonic() < end:
        conn.sendall(chunk)


def main(argv):
    if len(argv) >= 2 and argv[1] == "loopback":
        server = socket.create_server(("127.0.0.1", 0))
        threading.Thread(target=drain, args=(server,), daemon=True).start()
        send("127.0.0.1", server.getsockname()[1], float(argv[2]) if len(argv) > 2 else 0)
    elif len(argv) == 4 and argv[1] == "serve":
        drain(socket.create_server((argv[2], int(argv[3]))))
    elif len(argv) in (4, 5) and argv[1] == "send":
        send(argv[2], int(argv[3]), float(argv[4]) if len(argv) > 4 else 0)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
