"""The fast path's pieces, each with the setting that turns it off (docs/operations.md, "The
fast path's switches"), and what each buys a move, measured in one run:

    .venv/bin/python -m tests.bench.pieces [--seconds 10] [--rounds 1] [--connections 8]

One server of this checkout at a time, on one fresh PostgreSQL database and Redis, served as
``docker-compose.yml`` serves it (``tests.bench.per_move``): all pieces on, then each piece
off in turn, then all off (the plain Django way, the reference), the order reversed every
other round. wrk plays whole games (``tests.bench.per_move``'s script); for each
configuration: moves/s, the server's processor time a move, PostgreSQL's, and the 95th
percentile of a move's latency. The last table compares each piece's figures with all on:
what the service loses without it.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.bench.per_move import command, lua, measure
from tests.bench.run import ROOT, free_port
from tests.bench.servers import database_options, migrated_env, serving
from tests.databases import postgres_database

# Each piece and the settings that turn it off (all of them together: the plain Django way).
PIECES: dict[str, dict[str, str]] = {
    "threaded bridge": {"SERVER_BRIDGE": "plain"},
    "quick requests on the loop": {"SERVER_QUICK_ON_LOOP": "false"},
    "accept pacing": {"SERVER_ACCEPT_PACING": "false"},
    "pipelined writes": {"DATABASE_PIPELINE": "false"},
    "prepared statements": {"DATABASE_PREPARE": "false"},
    "kept games": {"GAMES_KEPT": "0"},
    "hand-written SQL": {"DATABASE_WRITES": "orm"},
    "streams' news": {"STREAMS_NEWS": "false"},
}
# Pieces no move of an unwatched game takes: their phase would measure nothing of them.
# (The streams' news: ``STREAMS_NEWS=false python -m tests.bench.per_move --streams 1000``
# against the same without the setting.)
NOT_ON_A_MOVE = {"streams' news"}
ALL_OFF = {name: value for settings in PIECES.values() for name, value in settings.items()}


def configurations() -> dict[str, dict[str, str]]:
    """All on, each piece off, all off: the settings each changes."""
    return {
        "all on": {},
        **{
            f"without {piece}": settings
            for piece, settings in PIECES.items() if piece not in NOT_ON_A_MOVE
        },
        "all off (plain Django)": ALL_OFF,
    }


# wrk's --latency shows 50, 75, 90 and 99 %: the script prints the 95th itself.
P95 = """
done = function(summary, latency, requests)
  io.write(string.format("p95 %.2fms\\n", latency:percentile(95) / 1000))
end
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    database_options(parser)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="dice-pieces-") as tmp, \
            postgres_database(args.postgres, prefix="dice_pieces") as db:
        folder = Path(tmp)
        script = lua(folder, "games", args.connections)
        script.write_text(script.read_text() + P95)
        env = migrated_env(db, args.redis, folder)
        order = list(configurations().items())
        for round_ in range(args.rounds):
            for name, settings in order if round_ % 2 == 0 else order[::-1]:
                found = phase(folder, env, settings, script, args)
                print(f"  round {round_ + 1}, {name}: {found['moves']:.0f} moves/s, server CPU"
                      f" {found['cpu_ms']:.2f} ms a move, PostgreSQL's"
                      f" {found['database_ms']:.2f} ms, p95 {found['p95']:.2f} ms", flush=True)
                results.setdefault(name, []).append(found)
    report(results)
    print(f"rerun: .venv/bin/python -m tests.bench.pieces {' '.join(sys.argv[1:])}")


def phase(
    folder: Path, env: dict[str, str], settings: dict[str, str], script: Path,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """One configuration's figures, on a server of its own."""
    port = free_port()
    side_env = {**env, **settings, "PYTHONPATH": str(ROOT)}
    with serving(command(port), side_env, port, folder / "servers.log") as url:
        found = measure(url, script, args.connections, args.seconds)
    return found


def report(results: dict[str, list[dict[str, Any]]]) -> None:
    """The means of each configuration, and each against all on."""
    means = {
        name: {key: sum(run[key] for run in runs) / len(runs)
               for key in ("moves", "cpu_ms", "database_ms", "p95")}
        for name, runs in results.items()
    }
    base = means["all on"]
    print("\n| configuration | moves/s | server CPU ms a move | PostgreSQL ms a move | p95 ms |"
          " moves/s vs all on | CPU vs all on |")
    print("|---|---|---|---|---|---|---|")
    for name, mean in means.items():
        print(f"| {name} | {mean['moves']:.0f} | {mean['cpu_ms']:.2f} | {mean['database_ms']:.2f}"
              f" | {mean['p95']:.2f} | {mean['moves'] / base['moves'] - 1:+.0%}"
              f" | {mean['cpu_ms'] / base['cpu_ms'] - 1:+.0%} |")


if __name__ == "__main__":
    main()
