"""What a large refused body costs a served process: its processor time, the answer's size,
the memory the process keeps afterwards, and how slow a player's reads get meanwhile.

    .venv/bin/python -m tests.bench.large_bodies [--bodies 10] [--seconds 10] [--root DIR]
        [--names 100000] [--path /api/v1/games/]

It serves the service as ``make run`` does (uvicorn, one process, an SQLite file in a
temporary folder, rate limits off so that every body is read), then:

1. sends ``--bodies`` bodies of ``--names`` unknown names (100,000 make about 1.7 MB; no
   token or key) to ``POST --path``, one after the other, and prints for each the server's
   processor time (its user and system time, every thread), the answer's status and size,
   and the process's resident memory (``/proc/<pid>/statm``) after it;
2. reads one game for ``--seconds`` alone, then as long again while two clients send such
   bodies without pause, and prints the reads' median and p95.

``--root`` serves another checkout of the project (with this one's virtualenv), so that two
versions can be compared on the same machine; ``--env`` sets the server's environment.
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.live.service import ROOT, free_port, manage, service_env
from tests.processes import stop

PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def large_body(names: int) -> bytes:
    return json.dumps({f"f{i:05d}": i for i in range(names)}).encode()


def resident_mb(pid: int) -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * PAGE / 2**20


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def request(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def wait_healthy(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the server exited before it answered")
        try:
            if request(port, "GET", "/api/v1/health/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not answer within 60 s")


def reads(port: int, game: str, seconds: float) -> list[float]:
    """Milliseconds of each read of the game, one after the other, for ``seconds``."""
    taken = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        status, _ = request(port, "GET", f"/api/v1/games/{game}/")
        taken.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
    return taken


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bodies", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--names", type=int, default=100_000)
    parser.add_argument(
        "--path", default="/api/v1/games/",
        help="where to send them (/api/v1/records/verify/ takes up to 1 MB: about 58,000 names)",
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE",
        help="an environment variable of the server (e.g. glibc's MALLOC_ARENA_MAX=2)",
    )
    args = parser.parse_args()
    body = large_body(args.names)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = service_env(
            Path(folder), f"sqlite:///{folder}/bench.sqlite3", THROTTLE_CREATE="",
            THROTTLE_MOVES="", THROTTLE_ADVICE="", THROTTLE_CLASSROOMS="",
            THROTTLE_FAILURES="", THROTTLE_RECORDS="",
            **dict(setting.split("=", 1) for setting in args.env),
        )
        manage(env, "migrate", "--noinput")
        command = [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--lifespan", "off", "--no-access-log",
        ]
        with open(Path(folder) / "server.log", "wb") as log:
            server = subprocess.Popen(command, cwd=args.root, env=env, stdout=log, stderr=log)
        try:
            wait_healthy(port, server)
            created = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
            status, answer = request(port, "POST", "/api/v1/games/", json.dumps(created).encode())
            assert status == 201, answer
            game = json.loads(answer)["id"]
            reads(port, game, 1)  # warm: every module and connection in place
            pid = server.pid
            print(f"serving {args.root} (pid {pid}); body {len(body) / 1e6:.2f} MB, "
                  f"{args.names} unknown names to {args.path}")
            print(f"resident before: {resident_mb(pid):.1f} MB")
            print(f"{'body':>4} {'status':>6} {'cpu ms':>8} {'answer bytes':>13} {'RSS MB':>8}")
            for number in range(1, args.bodies + 1):
                before = cpu_seconds(pid)
                status, answer = request(port, "POST", args.path, body)
                cpu = (cpu_seconds(pid) - before) * 1000
                print(f"{number:>4} {status:>6} {cpu:>8.0f} {len(answer):>13} "
                      f"{resident_mb(pid):>8.1f}")
            time.sleep(2)
            print(f"resident 2 s after the last: {resident_mb(pid):.1f} MB")
            alone = reads(port, game, args.seconds)
            stopping = threading.Event()

            def send() -> None:
                while not stopping.is_set():
                    request(port, "POST", args.path, body)

            senders = [threading.Thread(target=send) for _ in range(2)]
            for sender in senders:
                sender.start()
            loaded = reads(port, game, args.seconds)
            stopping.set()
            for sender in senders:
                sender.join()
            for name, taken in (("alone", alone), ("two senders", loaded)):
                print(f"reads {name:<12} n={len(taken):>5}  median {statistics.median(taken):7.1f}"
                      f" ms  p95 {p95(taken):7.1f} ms")
            print(f"resident at the end: {resident_mb(pid):.1f} MB")
        finally:
            stop(server)


if __name__ == "__main__":
    main()
