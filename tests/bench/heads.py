"""What bounding the request's head saves and costs: uvicorn as ``make run`` serves the
service, once with uvicorn's own httptools protocol and once with the service's
(``games.serving.protocol``), on one SQLite database in a temporary folder.

    .venv/bin/python -m tests.bench.heads [--connections 100] [--head-bytes 1000000] \\
        [--requests 2000] [--rounds 2]

For each protocol: the server process's resident memory before and after ``--connections``
clients each send the start of a head of ``--head-bytes`` bytes and keep their connection
open (how many the server still holds open after a second), then ``--requests``
``GET /api/v1/health/`` one after the other on one kept-alive connection: requests a second
and the server's processor time a request. The protocols take turns for ``--rounds``
rounds, so that a machine whose load drifts weighs on both alike. Figures only: nothing here
passes or fails.
"""

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.live.service import ROOT, free_port, manage, service_env
from tests.processes import stop

PROTOCOLS = {
    "uvicorn's httptools": "httptools",
    "the service's (bounded)": "games.serving.protocol:HeadBoundedProtocol",
}
HEALTH = b"GET /api/v1/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_healthy(port: int, server: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if server.poll() is not None:
            raise SystemExit("the server exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                sock.sendall(HEALTH)
                if sock.recv(100).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not answer")


def open_heads(port: int, connections: int, head_bytes: int) -> list[socket.socket]:
    """Clients that each send most of a huge head, then wait."""
    opened = []
    field = b"X-Big: " + b"x" * head_bytes
    for _ in range(connections):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET /api/v1/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(OSError):  # refused and closed before it was all sent
            sock.sendall(field)
        opened.append(sock)
    return opened


def still_open(socks: list[socket.socket]) -> int:
    held = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
        except BlockingIOError:
            held += 1  # nothing more to read, and not closed
        except OSError:
            pass
    return held


def health_rounds(port: int, requests: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        for _ in range(requests):
            sock.sendall(HEALTH)
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
                answer += sock.recv(65536)


def measure(protocol: str, args: argparse.Namespace, env: dict[str, str]) -> dict[str, float]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "off", "--http", protocol, "--log-level", "error"],
        cwd=ROOT, env=env,
    )
    try:
        wait_healthy(port, server)
        before = rss_mib(server.pid)
        socks = open_heads(port, args.connections, args.head_bytes)
        time.sleep(1)
        after = rss_mib(server.pid)
        held = still_open(socks)
        for sock in socks:
            sock.close()
        time.sleep(0.5)
        cpu, started = cpu_seconds(server.pid), time.monotonic()
        health_rounds(port, args.requests)
        took = time.monotonic() - started
        spent = cpu_seconds(server.pid) - cpu
        return {
            "rss_before": before, "rss_after": after, "held": held,
            "per_second": args.requests / took, "cpu_us": spent / args.requests * 1e6,
        }
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--head-bytes", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = service_env(Path(folder), f"sqlite:///{folder}/heads.sqlite3")
        manage(env, "migrate", "--noinput")
        print(f"{args.connections} heads of {args.head_bytes} bytes, then "
              f"{args.requests} health requests on one connection")
        for turn, (name, protocol) in enumerate(list(PROTOCOLS.items()) * args.rounds):
            got = measure(protocol, args, env)
            print(
                f"round {turn // len(PROTOCOLS) + 1}, {name:>24}: "
                f"RSS {got['rss_before']:.0f} -> {got['rss_after']:.0f} MiB, "
                f"{got['held']:.0f} of {args.connections} connections held; "
                f"{got['per_second']:.0f} requests/s, {got['cpu_us']:.0f} µs of server CPU each"
            )


if __name__ == "__main__":
    main()
