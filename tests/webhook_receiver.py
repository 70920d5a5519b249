"""Webhook receivers on this machine, for the tests and the benchmark: one that answers the
statuses it is given, in turn (then 200), and keeps every request with the answer it got;
and a bare one that hands each connection to a method of its own (to answer late, trickle,
or never)."""

import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]  # names in lower case
    body: bytes
    status: int

    def json(self) -> dict:
        return json.loads(self.body)


class Receiver:
    def __init__(self, statuses: list[int] | None = None) -> None:
        self.statuses = list(statuses or [])
        self.received: list[Received] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                headers = {name.lower(): value for name, value in self.headers.items()}
                receiver.received.append(Received(headers, body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def bodies(self) -> list[dict]:
        return [request.json() for request in self.received]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Bare:
    """Accepts connections and hands each, in a thread of its own, to :meth:`answer` with
    its number (1, 2, ...); ``count`` is how many came."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=512)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"
        self.count = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.count += 1
            threading.Thread(target=self._answer, args=(conn, self.count), daemon=True).start()

    def _answer(self, conn: socket.socket, number: int) -> None:
        with conn:
            try:
                conn.recv(65_536)
                self.answer(conn, number)
            except OSError:
                return

    def answer(self, conn: socket.socket, number: int) -> None:
        """What to send back (nothing, here: the request is held until the connection
        closes)."""

    def close(self) -> None:
        self.listener.close()
