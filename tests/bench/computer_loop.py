"""Another player's moves while clients loop creating games of computers only, with the
computer budget off and on.

    .venv/bin/python -m tests.bench.computer_loop [--loops 4] [--seconds 30] \\
        [--postgres postgres://...] [--redis redis://...]

The service runs as compose runs it (``tests.bench.run.served``: gunicorn, two workers, a
fresh PostgreSQL database), behind one proxy as far as it knows (``NUM_PROXIES=1``), so that
each client is its own address (its ``X-Forwarded-For``). For each side, ``--loops``
clients create games of eight ``optimal`` Maxi Yatzy computers back to back, each from its
own address, while one player from another address plays solitaire Yahtzee (roll, roll,
score); after a quiet phase of the player alone. Prints, per phase, the player's roll
latency (median, 95th percentile), the loops' games played and refused, and the server's
processor time per second (its processes' user and system time).
"""

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.bench.run import SERVERS, served
from tests.bench.sides import cpu_seconds

MAXI = {
    "ruleset": "maxi-yatzy",
    "players": [{"name": f"Bot{i}", "computer": "optimal"} for i in range(8)],
}


def call(url: str, path: str, body: Any, address: str, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), method="POST", headers=headers
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def loop(url: str, address: str, stop: threading.Event, counts: dict[str, int]) -> None:
    """Creates games of computers only until told to stop; a refusal waits a second."""
    while not stop.is_set():
        try:
            call(url, "/api/v1/games/", MAXI, address)
            counts["played"] += 1
        except urllib.error.HTTPError as error:
            if error.code != 429:
                raise
            counts["refused"] += 1
            stop.wait(1)


def player(url: str, seconds: float) -> list[float]:
    """Plays solitaire Yahtzee for ``seconds``: each roll's latency in ms."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game = call(url, "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "P"}]},
                    "203.0.113.5")
        path, token = f"/api/v1/games/{game['id']}", game["players"][0]["token"]
        while game["status"] == "active" and time.monotonic() < deadline:
            for body in ({}, {"hold": [0, 1]}):
                started = time.perf_counter()
                game = call(url, f"{path}/roll/", body, "203.0.113.5", token)
                latencies.append(1000 * (time.perf_counter() - started))
            box = next(iter(game["choices"]))
            game = call(url, f"{path}/score/", {"category": box}, "203.0.113.5", token)
    return latencies


def phase(url: str, loops: int, seconds: float) -> str:
    stop = threading.Event()
    counts = [{"played": 0, "refused": 0} for _ in range(loops)]
    threads = [
        threading.Thread(target=loop, args=(url, f"198.51.100.{i + 1}", stop, counts[i]))
        for i in range(loops)
    ]
    server = [SERVERS[url], *children(SERVERS[url])]
    cpu, wall = cpu_seconds(server), time.monotonic()
    for thread in threads:
        thread.start()
    latencies = player(url, seconds)
    stop.set()
    for thread in threads:
        thread.join()
    cpu, wall = cpu_seconds(server) - cpu, time.monotonic() - wall
    quantiles = statistics.quantiles(latencies, n=20)
    return (
        f"{loops} loops: rolls median {statistics.median(latencies):6.1f} ms, p95 "
        f"{quantiles[18]:6.1f} ms ({len(latencies)} rolls); games of computers "
        f"{sum(c['played'] for c in counts)} played, {sum(c['refused'] for c in counts)} "
        f"refused; server {cpu / wall:.2f} cores"
    )


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loops", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--postgres", default=os.environ.get(
        "BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", ""))
    args = parser.parse_args()
    source = Path(__file__).resolve().parents[2]
    sides = {"budget off": {"THROTTLE_COMPUTERS": ""}, "budget on (defaults)": {}}
    with tempfile.TemporaryDirectory() as folder:
        for index, (name, limits) in enumerate(sides.items()):
            with served(source, args, Path(folder) / str(index), NUM_PROXIES="1",
                        **limits) as (url, _):
                print(f"{name}:")
                for loops in (0, args.loops):
                    print("  " + phase(url, loops, args.seconds), flush=True)
    print(f"rerun: .venv/bin/python -m tests.bench.computer_loop --loops {args.loops} "
          f"--seconds {args.seconds:g}")


if __name__ == "__main__":
    main()
