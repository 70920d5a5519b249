"""What a crowd of event streams adds to each move's processor time, process by process.

    .venv/bin/python -m tests.bench.stream_costs [--rounds 3] [--seconds 10] [--streams 1000]
        [--games 20] [--control] [--source PATH]

The service as ``make bench`` serves it (``tests.bench.run.served``: gunicorn with the
compose ``web`` command, a fresh PostgreSQL database, Redis when given). One client alone
(``tests.bench.crowd.Mover``) moves without pause in ``--games`` games; no one else plays.
Each round measures it twice, ``--seconds`` each: with no stream open, then with
``--streams`` streams spread over its games (every move sent to 50 streams by default). It
prints the mover's moves a second and, for each move, the processor time (user and system,
from /proc) of the service's web processes (gunicorn's master and workers), of their
stream senders (``games.serving.sender``), of PostgreSQL's processes, and of the streams'
holder (this machine's stand-in for the spectators' browsers).

A process's processor time for the same work grows when the machine's other core is busy,
so what the streams add to the web workers' and PostgreSQL's share is partly their code and
partly the holder's and the senders' work beside them. ``--control`` tells the two apart:
each round measures a third time, with no stream open and in their place a process that
only spins (pure Python) for as large a share of a core as the holder and the senders used
together, and prints what that alone added.

The mover's games last about 15,600 moves (20 games of 26 turns of 30 moves); one that ends
is replaced by a game no stream follows, so a measure in which one ended says so.

Set ``SERVER_STREAM_SENDER=false`` in its environment to measure the workers writing every
stream themselves.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench import sides
from tests.bench.crowd import Mover
from tests.bench.run import SERVERS, open_streams, served, served_arguments

SETTLE_SECONDS = 2.0  # after the mover starts, or the streams open, before measuring
KINDS = ("web", "sender", "postgres", "holder")


def processes(server: int) -> dict[str, list[int]]:
    """The processes of each kind now running."""
    tree = set(sides.process_tree(server))
    found: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        pid = int(entry.name)
        if "games.serving.sender" in command:
            found["sender"].append(pid)
        elif pid in tree:
            found["web"].append(pid)
        elif command.startswith("postgres"):
            found["postgres"].append(pid)
        elif "tests.bench.streams" in command:
            found["holder"].append(pid)
    return found


# --control's stand-in for the holder and the senders: busy for a share of each 10 ms.
SPIN = """
import sys, time
share = float(sys.argv[1])
while True:
    start = time.monotonic()
    while time.monotonic() - start < share * 0.01:
        pass
    time.sleep((1 - share) * 0.01)
"""


def measure(url: str, mover: Mover, seconds: int) -> tuple[float, dict[str, float], bool]:
    """The mover's moves a second, each kind's processor time a move (µs), and whether one
    of the mover's games ended meanwhile (its replacement has no stream)."""
    found = processes(SERVERS[url])
    used = {kind: sides.cpu_seconds(pids) for kind, pids in found.items()}
    moved, ended, started = mover.moves, mover.finished, time.monotonic()
    time.sleep(seconds)
    took, moves = time.monotonic() - started, mover.moves - moved
    return moves / took, {
        kind: 1e6 * (sides.cpu_seconds(found[kind]) - used[kind]) / max(moves, 1)
        for kind in KINDS
    }, mover.finished != ended


def line(label: str, rate: float, costs: dict[str, float], ended: bool) -> str:
    parts = ", ".join(f"{kind} {costs[kind]:.0f}" for kind in KINDS)
    warning = " (one of the mover's games ended: fewer moves were watched)" if ended else ""
    return f"  {label}: {rate:.0f} moves/s; µs of processor time a move: {parts}{warning}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10, help="of each measure")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20)
    served_arguments(parser)
    parser.add_argument("--control", action="store_true",
                        help="also measure a spinning process in the streams' place")
    args = parser.parse_args()
    sender = os.environ.get("SERVER_STREAM_SENDER", "true")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f};"
          f" SERVER_STREAM_SENDER={sender}")
    added: dict[str, list[float]] = {kind: [] for kind in KINDS}
    spun: dict[str, list[float]] = {kind: [] for kind in KINDS}
    with (
        tempfile.TemporaryDirectory(prefix="dice-stream-costs-") as tmp,
        served(args.source, args, Path(tmp) / "this") as (url, _),
    ):
        for number in range(1, args.rounds + 1):
            print(f"round {number}:")
            with Mover(url, args.games) as mover:
                time.sleep(SETTLE_SECONDS)
                rate, alone, ended = measure(url, mover, args.seconds)
                print(line("no stream", rate, alone, ended))
                with open_streams(url, args.streams, mover.ids):
                    time.sleep(SETTLE_SECONDS)
                    rate, crowd, ended = measure(url, mover, args.seconds)
                print(line(f"{args.streams} streams", rate, crowd, ended))
                if args.control:
                    share = rate * (crowd["holder"] + crowd["sender"]) / 1e6
                    spinner = subprocess.Popen(
                        [sys.executable, "-c", SPIN, f"{min(share, 1.0):.3f}"]
                    )
                    try:
                        time.sleep(SETTLE_SECONDS)
                        rate, busy, ended = measure(url, mover, args.seconds)
                    finally:
                        spinner.kill()
                        spinner.wait()
                    print(line(f"no stream, a process busy {share:.0%} of the time", rate, busy,
                               ended))
            for kind in KINDS:
                added[kind].append(crowd[kind] - alone[kind])
                if args.control:
                    spun[kind].append(busy[kind] - alone[kind])
    print("what the streams added to a move, median over the rounds (µs of processor time): "
          + ", ".join(f"{kind} {statistics.median(added[kind]):.0f}" for kind in KINDS))
    if args.control:
        print("what a process as busy as the holder and the senders added instead: " + ", ".join(
            f"{kind} {statistics.median(spun[kind]):.0f}" for kind in ("web", "postgres")))
    print(f"rerun: .venv/bin/python -m tests.bench.stream_costs {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
