"""Stand-ins for a Redis that is away: a port nothing listens on (connections refused) and a
listener that accepts connections and never answers (a Redis that hangs)."""

from __future__ import annotations

import contextlib
import socket
import threading


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class HangingListener:
    """Accepts TCP connections on ``port`` (0: any free one) and never answers."""

    def __init__(self, port: int = 0) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # ends the accept() under way in the thread
        self.sock.close()
        for connection in self.held:
            connection.close()

    def __enter__(self) -> HangingListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
