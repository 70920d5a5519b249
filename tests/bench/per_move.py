"""A move's cost to the server, measured with a light client: whole games played by wrk,
against several ways of serving side by side, in alternating rounds.

    .venv/bin/python -m tests.bench.per_move [--rounds 3] [--seconds 10] [--connections 8] \\
        [--env 'threads=SERVER_QUICK_ON_LOOP=false'] [--source 'before=/tmp/before']

Locust, which plays whole games in ``make bench``, spends about as much of the machine's
processor as the server does, and the two contend for its two cores. Here wrk (Debian's
``wrk``: a few microseconds a request) plays the same games (a Lua script: create, then 13
turns of roll, roll keeping two, hold three, roll, score a box the roll offers), one thread
and one connection per client. Each side is served as ``docker-compose.yml`` serves it
(gunicorn, two uvicorn workers, ``config.asgi``) on one fresh PostgreSQL database and Redis;
``--env NAME=K=V[,K=V]`` adds this checkout with settings changed, ``--source NAME=DIR``
another checkout (the code before a change, from ``git worktree add``). For each: moves/s,
the server's processor time per move (its processes' user and system time over the moves
answered), and wrk's latency percentiles. Every answer must be 200: a side whose moves fail
stops the run. ``--health`` measures each side's ``GET /api/v1/health/`` the same way after
its games: the cheapest request through the same server, middleware and DRF, with one query.

    .venv/bin/python -m tests.bench.per_move --streams 1000 [--games 200] [--rounds 4]

measures instead, on one server of this checkout, moves of games no one watches against
moves of games that ``--streams`` event streams follow (made before the phase, the streams
spread over them), in alternating order; and

    .venv/bin/python -m tests.bench.per_move --clocked [--rounds 4]

moves of games with a one-hour turn clock against plain ones, the same way.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tests.bench import sides
from tests.bench.run import ROOT, SERVERS, create_games, free_port, open_streams
from tests.bench.servers import database_options, migrated_env, serving
from tests.databases import postgres_database

# Each wrk thread (one connection each) plays whole games, one request after the other:
# create, then 13 turns of roll, roll keeping two dice, hold three, roll, and a box of those
# the last roll offers (its "choices"), as tests/bench/locustfile.py plays them.
SCRIPT = """
local TURN = {
  {"roll", '{}'}, {"roll", '{"hold": [0, 1]}'}, {"hold", '{"hold": [0, 1, 2]}'}, {"roll", '{}'},
}
local game, token, step, box = nil, nil, 0, nil
-- Games made before the phase (GIVEN, filled in by per_move.py: {id, token} pairs), if any:
-- thread n plays the n-th, then every THREADS-th after it, then games of its own.
local made = 0
setup = function(thread)
  made = made + 1
  thread:set("slot", made)
end
local function take()
  if slot ~= nil and slot <= #GIVEN then
    game, token, step = GIVEN[slot][1], GIVEN[slot][2], 0
    slot = slot + THREADS
    return true
  end
  return false
end
request = function()
  if game == nil and not take() then
    return wrk.format("POST", "/api/v1/games/", {["Content-Type"] = "application/json"}, CREATE)
  end
  local at = step % 5
  local path, body
  if at == 4 then
    path, body = "score", '{"category": "' .. box .. '"}'
  else
    path, body = TURN[at + 1][1], TURN[at + 1][2]
  end
  return wrk.format("POST", "/api/v1/games/" .. game .. "/" .. path .. "/",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
response = function(status, headers, body)
  if status ~= 200 and status ~= 201 then
    print("answered " .. status .. ": " .. body)
    game = nil
    return
  end
  if game == nil then
    game, token, step = body:match('"id":"([^"]+)"'), body:match('"token":"([^"]+)"'), 0
    return
  end
  step = step + 1
  if step % 5 == 4 then
    box = body:match('"choices":{"([%w_]+)"')
  elseif step == 65 then
    game = nil
  end
end
"""


def command(port: int) -> list[str]:
    return [
        sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
        "games.serving.worker.Worker", "--bind", f"127.0.0.1:{port}", "--workers", "2",
        "--config", "python:config.gunicorn",
    ]


def wrk(url: str, script: Path, connections: int, seconds: int) -> str:
    done = subprocess.run(
        ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds}s", "--latency",
         "-s", str(script), url],
        capture_output=True, text=True, check=True,
    )
    if done.stderr.strip():  # the script failed: wrk would have sent requests of its own
        raise SystemExit(f"wrk: {done.stderr}")
    return done.stdout


PLAIN = '{"ruleset": "yahtzee", "players": [{"name": "Bench"}]}'
CLOCKED = '{"ruleset": "yahtzee", "players": [{"name": "Bench"}], "clock": {"turn_seconds": 3600}}'


def lua(
    folder: Path, name: str, connections: int, given: Sequence[tuple[str, str]] = (),
    create: str = PLAIN,
) -> Path:
    """The games' script, written to ``folder``, with the games given to play first and the
    body that creates a game of its own."""
    games = ", ".join(f'{{"{game}", "{token}"}}' for game, token in given)
    path = folder / f"{name}.lua"
    path.write_text(
        f"GIVEN = {{{games}}}\nTHREADS = {connections}\nCREATE = [[{create}]]\n{SCRIPT}"
    )
    return path


def measure(
    url: str, script: Path, connections: int, seconds: int, warm: Path | None = None
) -> dict[str, Any]:
    out, found = _timed(url, lambda: wrk(url, warm or script, connections, 2),
                        lambda: wrk(url, script, connections, seconds))
    if "Non-2xx" in out or "Socket errors" in out or "answered" in out:
        raise SystemExit(f"moves failed:\n{out}")
    # Every 66th request creates a game: the moves are the rest.
    found = _per(found, out, 65 / 66)
    latency = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)", out, re.MULTILINE))
    # A script's own 95th percentile, in ms (tests.bench.pieces prints it).
    p95 = re.search(r"^p95 ([\d.]+)ms", out, re.MULTILINE)
    return found | {
        "p50": latency.get("50"), "p99": latency.get("99"),
        "p95": float(p95.group(1)) if p95 else None,
    }


def measure_health(url: str, connections: int, seconds: int) -> dict[str, Any]:
    """The same figures for ``GET /api/v1/health/``, the cheapest request of the API (a DRF
    view, the middleware, one query): what the framework costs a request before a move's
    own work."""
    target = f"{url}/api/v1/health/"

    def load(threads: int, duration: int) -> str:
        return subprocess.run(
            ["wrk", f"-t{threads}", f"-c{threads}", f"-d{duration}s", target],
            capture_output=True, text=True, check=True,
        ).stdout

    out, found = _timed(url, lambda: load(2, 2), lambda: load(connections, seconds))
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"health failed:\n{out}")
    return _per(found, out, 1.0)


def _timed(
    url: str, warm_up: Callable[[], str], run: Callable[[], str]
) -> tuple[str, dict[str, float]]:
    """``run``'s output, after ``warm_up``, and the processor seconds the server's processes
    and PostgreSQL's spent during it."""
    warm_up()
    pids = sides.process_tree(SERVERS[url])
    database = postgres_processes()
    used, by_database = sides.cpu_seconds(pids), sides.cpu_seconds(database)
    out = run()
    return out, {
        "server": sides.cpu_seconds(pids) - used,
        "database": sides.cpu_seconds(database) - by_database,
    }


def _per(used: dict[str, float], out: str, share: float) -> dict[str, Any]:
    """The rate and the processor time a counted request (``share`` of wrk's requests)."""
    count = _figure(r"(\d+) requests in", out) * share
    return {
        "moves": _figure(r"Requests/sec:\s+([\d.]+)", out) * share,
        "cpu_ms": 1000 * used["server"] / count, "database_ms": 1000 * used["database"] / count,
    }


def _figure(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    if found is None:
        raise SystemExit(f"wrk said nothing like {pattern!r}:\n{text}")
    return float(found.group(1))


def postgres_processes() -> list[int]:
    """The local PostgreSQL server's processes (its backends among them), by name."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if name == "postgres":
                found.append(int(entry.name))
    return found


def sides_of(args: argparse.Namespace) -> dict[str, tuple[Path, dict[str, str]]]:
    found: dict[str, tuple[Path, dict[str, str]]] = {"this checkout": (ROOT, {})}
    for given in args.env:
        name, _, settings = given.partition("=")
        found[name] = (ROOT, dict(pair.split("=", 1) for pair in settings.split(",")))
    for given in args.source:
        name, _, folder = given.partition("=")
        found[name] = (Path(folder).resolve(), {})
    return found


def watched(args: argparse.Namespace, env: dict[str, str], folder: Path, plain: Path) -> None:
    """Moves with ``--streams`` event streams open on the very games being played, against
    moves of games no one watches, on one server, in alternating order each round.

    Before each phase the games it will play are made (``--games`` of them, more than a
    phase plays); for the watched phase the streams are spread over them and opened first,
    so every move's events go to a few streams of its game, in both worker processes."""

    def phase(url: str, name: str) -> dict[str, Any]:
        given = create_games(url, args.games)
        script = lua(folder, name, args.connections, given)
        if name == "plain":
            return measure(url, script, args.connections, args.seconds, plain)
        with open_streams(url, args.streams, [game for game, _ in given]):
            return measure(url, script, args.connections, args.seconds, plain)

    ratios = alternating(args, env, folder, ("plain", "watched"), phase)
    print(f"moves with {args.streams} streams on the games played / without: "
          + ", ".join(f"{ratio:.2f}" for ratio in ratios))
    print(f"rerun: .venv/bin/python -m tests.bench.per_move {' '.join(sys.argv[1:])}")


def clocked(args: argparse.Namespace, env: dict[str, str], folder: Path) -> None:
    """Moves of games with a one-hour turn clock (every move sets the next deadline, none
    fires) against moves of plain games, on one server, in alternating order each round."""
    scripts = {name: lua(folder, name, args.connections, create=body)
               for name, body in (("plain", PLAIN), ("clocked", CLOCKED))}

    def phase(url: str, name: str) -> dict[str, Any]:
        return measure(url, scripts[name], args.connections, args.seconds)

    ratios = alternating(args, env, folder, ("plain", "clocked"), phase)
    print("moves of clocked games / plain: " + ", ".join(f"{ratio:.2f}" for ratio in ratios))
    print(f"rerun: .venv/bin/python -m tests.bench.per_move {' '.join(sys.argv[1:])}")


def alternating(
    args: argparse.Namespace, env: dict[str, str], folder: Path, names: tuple[str, str],
    phase: Callable[[str, str], dict[str, Any]],
) -> list[float]:
    """Two kinds of phase (``phase(url, name)``) on one server of this checkout, in
    alternating order each round; each round's moves/s of the second over the first."""
    port = free_port()
    ratios = []
    with serving(command(port), {**env, "PYTHONPATH": str(ROOT)}, port,
                 folder / "servers.log") as url:
        for round_ in range(args.rounds):
            found: dict[str, dict[str, Any]] = {}
            for name in names if round_ % 2 == 0 else names[::-1]:
                found[name] = phase(url, name)
                print(f"  round {round_ + 1}, {name}: {found[name]['moves']:.0f} moves/s,"
                      f" server CPU {found[name]['cpu_ms']:.2f} ms a move, PostgreSQL's"
                      f" {found[name]['database_ms']:.2f} ms, p99 {found[name]['p99']}",
                      flush=True)
            ratios.append(found[names[1]]["moves"] / found[names[0]]["moves"])
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--env", action="append", default=[], help="NAME=K=V[,K=V]")
    parser.add_argument("--source", action="append", default=[], help="NAME=DIR")
    parser.add_argument("--streams", type=int, default=0,
                        help="instead of sides: moves with this many streams on the games"
                             " played, against none")
    parser.add_argument("--clocked", action="store_true",
                        help="instead of sides: moves of games with a turn clock, against"
                             " plain ones")
    parser.add_argument("--health", action="store_true",
                        help="also, on each side, GET /api/v1/health/: the framework's own"
                             " cost a request")
    parser.add_argument("--games", type=int, default=200,
                        help="with --streams: games made for each phase")
    database_options(parser)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="dice-per-move-") as tmp, \
            postgres_database(args.postgres, prefix="dice_per_move") as db:
        folder = Path(tmp)
        script = lua(folder, "games", args.connections)
        env = migrated_env(db, args.redis, folder)
        if args.streams:
            watched(args, env, folder, script)
            return
        if args.clocked:
            clocked(args, env, folder)
            return
        for round_ in range(args.rounds):
            for name, (source, settings) in sides_of(args).items():
                port = free_port()
                side_env = {**env, **settings, "PYTHONPATH": str(source)}
                with serving(command(port), side_env, port, folder / "servers.log",
                             cwd=source) as url:
                    found = measure(url, script, args.connections, args.seconds)
                    if args.health:
                        health = measure_health(url, args.connections, args.seconds)
                        print(f"  round {round_ + 1}, {name}, GET /api/v1/health/:"
                              f" {health['moves']:.0f} requests/s, server CPU"
                              f" {health['cpu_ms']:.2f} ms a request, PostgreSQL's"
                              f" {health['database_ms']:.2f} ms", flush=True)
                        results.setdefault(f"{name}, health", []).append(health)
                print(f"  round {round_ + 1}, {name}: {found['moves']:.0f} moves/s, server CPU"
                      f" {found['cpu_ms']:.2f} ms a move, PostgreSQL's"
                      f" {found['database_ms']:.2f} ms, p50 {found['p50']}, p99 {found['p99']}",
                      flush=True)
                results.setdefault(name, []).append(found)
    print("\n(a side named health counts requests of GET /api/v1/health/, not moves)")
    print("| side | moves/s (rounds) | server CPU ms a move (rounds) | mean CPU |")
    print("|---|---|---|---|")
    for name, runs in results.items():
        rates = ", ".join(f"{run['moves']:.0f}" for run in runs)
        cpus = ", ".join(f"{run['cpu_ms']:.2f}" for run in runs)
        mean = sum(run["cpu_ms"] for run in runs) / len(runs)
        print(f"| {name} | {rates} | {cpus} | {mean:.2f} |")
    print(f"rerun: .venv/bin/python -m tests.bench.per_move {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
