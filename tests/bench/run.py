"""Load benchmark: the service as docker-compose.yml serves it, played by closed-loop clients.

    make bench                      # or: .venv/bin/python -m tests.bench.run --help

It makes a fresh PostgreSQL database on the server ``--postgres`` names (default: the local
one), migrates it, and starts gunicorn with the very command line of the ``web`` service in
``docker-compose.yml`` (bound to a free port of 127.0.0.1 instead of 0.0.0.0:8000), with
``REDIS_URL`` passed on when given. Then, each phase after the other:

1. the cheapest endpoint, ``GET /api/v1/health/``, with wrk (Debian's ``wrk``; Locust
   when wrk is not installed): requests per second;
2. whole Yahtzee games with ``--clients`` concurrent Locust users (``tests/bench/locustfile.py``):
   moves/s, creates/s, p50/p95/p99 per endpoint;
3. the same again, with ``--streams`` event streams (``tests/bench/streams.py``) opened 3 s
   into the phase, while the load goes on, on the very games the clients play (made before
   the phase, ``WatchedPlayer``: each move goes to the streams of its game); once more with
   them held open; PostgreSQL's connection count to the service's database before, once
   they are open, and after; then once more with them closed: the slow-downs are taken
   against the mean of the two runs without streams, and how much those two differ shows
   how steady the machine was;
4. with ``--deck URL``, the Deck of Cards API served there, played by the same clients
   (a new deck, then 52 single draws): draws/s, for comparison, in two phases, one after
   the first games phase and one after the last, so that both sides see the same drift;

5. with ``--deck-source DIR`` (a clone of the Deck of Cards API), that API served here in
   its two shapes, SQLite as it ships and PostgreSQL, gunicorn with two sync workers each
   (``tests/bench/sides.py``), played between the same phases as ``--deck``; and PostgreSQL's
   own floor for a move, by pgbench with the same clients: lock a game's row, update it, add
   an event, commit (``--no-floor`` skips it);
6. plain games, then games with a 1-hour turn clock; plain games again, then the same once
   ``--grow`` finished games (20,000) are added to the database;
7. the service on the embedded SQLite default as ``make run`` serves it (one uvicorn process
   and its worker; ``--no-sqlite`` skips it);
8. where the checkout's compose file runs a task worker (it is started beside the server,
   as compose does): the games once more, with turn clocks left to fire and a webhook
   receiver (``tests/bench/outside.py``): each clock's delay after its deadline and each
   webhook's after its move, median and worst;

Every phase of games on a server this run started also gives the server's processor time
per move (its processes' user and system time over the moves they answered), and every
phase of games Locust's own processor time per request (the clients share the two cores
with the server and PostgreSQL). The run ends
with its figures side by side, as a table with the goals set for them.

And, with ``--baseline DIR``, another checkout (the code as it was, say) served the same way
from its own compose file on a database of its own: its health rate and its games, in two
phases beside the peer's; and prints the queries (calls to the database) each endpoint
costs (``tests/bench/queries.py``). Each server is warmed up with a few seconds of
unmeasured games before its first phase. The service runs with compose's settings, but for
one: the limit on creating games is raised far above the load (the clients all come from
127.0.0.1), not switched off, so its cost is measured too. The baseline's limit on moves
is raised the same way (its compose settings had one; this service's have none). Everything
it starts stops with it; the database is dropped.
"""

import argparse
import csv
import json
import os
import re
import resource
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg
import yaml

from tests.bench import sides
from tests.bench.outside import measure as outside_measure
from tests.databases import postgres_database
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]
MOVES = ("roll", "hold", "score")
HIGH_LIMIT = "1000000/second"
WARM_UP = 5  # seconds of unmeasured games before each server's first phase
STREAMS_AFTER = 3  # seconds into the streams' phase: they are opened while the load goes on
# Games made for each phase with streams, per second of it: about 15 games' moves (65 each)
# a second is more than the service plays here, so the clients play only followed games.
WATCHED_PER_SECOND = 15


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def compose_server_command(source: Path, port: int) -> list[str]:
    """The ``gunicorn ...`` part of the compose ``web`` command, bound to 127.0.0.1:port."""
    web = yaml.safe_load((source / "docker-compose.yml").read_text())["services"]["web"]
    command = web["command"]
    text = command if isinstance(command, str) else " ".join(command)
    words = shlex.split(text[text.index("gunicorn ") :])
    words[words.index("--bind") + 1] = f"127.0.0.1:{port}"
    return [sys.executable, "-m", *words]


def compose_worker_command(source: Path) -> list[str] | None:
    """The compose ``worker`` service's command (the task worker), if the checkout has one."""
    services = yaml.safe_load((source / "docker-compose.yml").read_text())["services"]
    if "worker" not in services:
        return None
    command = services["worker"]["command"]
    words = command if isinstance(command, list) else shlex.split(command)
    return [sys.executable, *words[1:]] if words[0] == "python" else words


def compose_environment(source: Path) -> dict[str, str]:
    return yaml.safe_load((source / "docker-compose.yml").read_text())["services"]["web"].get(
        "environment", {}
    )


def connections_to(database_url: str) -> int:
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0])


# The process id of the server at each URL (gunicorn's arbiter, whose workers are its children):
# what ``play`` measures the processor time of.
SERVERS: dict[str, int] = {}


@contextmanager
def service(source: Path, env: dict[str, str], log: Path) -> Iterator[str]:
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run(
            [sys.executable, "manage.py", *step], cwd=source, env=env, check=True,
            stdout=subprocess.DEVNULL,
        )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    worker_command = compose_worker_command(source)
    with log.open("wb") as output:
        server = subprocess.Popen(
            compose_server_command(source, port), cwd=source, env=env,
            stdout=output, stderr=subprocess.STDOUT,
        )
        # As compose runs it beside the web service, where its compose file has one.
        worker = worker_command and subprocess.Popen(
            worker_command, cwd=source, env=env, stdout=output, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the service did not start:\n{log.read_text()[-3000:]}")
                try:
                    with urllib.request.urlopen(f"{url}/api/v1/health/", timeout=2):
                        break
                except OSError:
                    time.sleep(0.2)
            SERVERS[url] = server.pid
            yield url
        finally:
            SERVERS.pop(url, None)
            stop(server, grace=20)
            if worker:
                stop(worker)


def health_rate(url: str, clients: int, seconds: int) -> float:
    """Requests per second on the health endpoint: wrk if installed, else Locust."""
    target = f"{url}/api/v1/health/"
    if shutil.which("wrk"):
        out = subprocess.run(
            ["wrk", "-t", "2", "-c", str(clients), "-d", f"{seconds}s", target],
            capture_output=True, text=True, check=True,
        ).stdout
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        if errors:
            raise SystemExit(f"health answered errors under load:\n{out}")
        return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    raise SystemExit("install wrk (apt-get install wrk) to measure the health endpoint")


def locust(
    url: str, user: str, clients: int, seconds: int, folder: Path,
    env: dict[str, str] | None = None,
) -> dict[str, dict]:
    """Runs Locust headless (``env``: more of its environment); the statistics of each named
    request."""
    prefix = folder / f"locust-{user}-{time.monotonic_ns()}"
    subprocess.run(
        [
            sys.executable, "-m", "locust", "-f", str(Path(__file__).with_name("locustfile.py")),
            "--headless", "--only-summary", "--skip-log-setup", "--loglevel", "WARNING",
            "-u", str(clients), "-r", str(clients), "-t", f"{seconds}s", "--stop-timeout", "5",
            "--host", url, "--csv", str(prefix), user,
        ],
        check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    with open(f"{prefix}_failures.csv", newline="") as rows:
        for row in csv.DictReader(rows):
            print(f"    failed: {row['Occurrences']} x {row['Name']}: {row['Error'][:150]}")
    with open(f"{prefix}_stats.csv", newline="") as rows:
        return {row["Name"]: row for row in csv.DictReader(rows)}


def summarize(stats: dict[str, dict], names: tuple[str, ...]) -> dict[str, float]:
    """Requests, failures, and the rate of the successful ones."""
    found = [stats[name] for name in names if name in stats]
    ok = [
        float(row["Requests/s"]) * (1 - int(row["Failure Count"]) / int(row["Request Count"]))
        for row in found
        if int(row["Request Count"])
    ]
    return {
        "count": sum(int(row["Request Count"]) for row in found),
        "failures": sum(int(row["Failure Count"]) for row in found),
        "rate": sum(ok),
    }


def endpoint_lines(stats: dict[str, dict]) -> list[str]:
    lines = []
    for name, row in stats.items():
        if name == "Aggregated":
            continue
        lines.append(
            f"    {name:<9} {float(row['Requests/s']):8.1f} req/s  p50 {row['50%']:>4} ms"
            f"  p95 {row['95%']:>4} ms  p99 {row['99%']:>4} ms"
            f"  ({row['Request Count']} requests, {row['Failure Count']} failed)"
        )
    return lines


def create_games(url: str, count: int) -> list[tuple[str, str]]:
    """``count`` new solitaire games: each one's id and its player's token."""
    made = []
    for _ in range(count):
        request = urllib.request.Request(
            f"{url}/api/v1/games/",
            data=json.dumps({"ruleset": "yahtzee", "players": [{"name": "Watched"}]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            game = json.load(answer)
        made.append((game["id"], game["players"][0]["token"]))
    return made


@contextmanager
def open_streams(url: str, count: int, games: list[str], *, nice: int = 0) -> Iterator[None]:
    """``count`` streams held open by a process of their own (``nice``: its niceness, so that
    the spectators' reads give way to the service on a shared machine)."""
    holder = subprocess.Popen(
        [*(["nice", "-n", str(nice)] if nice else []),
         sys.executable, "-m", "tests.bench.streams", url, str(count), *games],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        line = holder.stdout.readline()
        if not line.startswith("open "):
            raise SystemExit(f"the streams did not open: {line!r}")
        yield
    finally:
        holder.stdin.close()
        try:
            holder.wait(timeout=20)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()


@contextmanager
def streams_opened_later(
    url: str, count: int, games: list[str], delay: float, database: str
) -> Iterator[dict[str, float]]:
    """Opens ``count`` streams ``delay`` seconds into the block, in the background, and holds
    them until it ends: so they are opened while the load goes on, as a crowd of spectators
    arriving would. Yields what it saw, once the streams are open: how long opening them
    took (``opening``, s) and the database's connection count just then (``connections``)."""
    seen: dict[str, float] = {}
    failed: list[BaseException] = []
    end = threading.Event()

    def hold() -> None:
        try:
            if end.wait(delay):
                return
            started = time.monotonic()
            with open_streams(url, count, games):
                seen["opening"] = time.monotonic() - started
                seen["connections"] = connections_to(database)
                end.wait()
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(error)

    holder = threading.Thread(target=hold, name="streams")
    holder.start()
    try:
        yield seen
    finally:
        end.set()
        holder.join()
    if failed:
        raise failed[0]


def play(
    url: str, clients: int, seconds: int, folder: Path, label: str, user: str = "Player",
    watched: Path | None = None,
) -> dict[str, float]:
    """One phase of whole games; its moves/s, creates/s, the p95 of a roll and, for a server
    this run started, its processes' processor time per move (ms). ``watched``: the file of
    games ``WatchedPlayer`` plays."""
    pids = sides.process_tree(SERVERS[url]) if url in SERVERS else []
    used, by_client = sides.cpu_seconds(pids), _children_cpu()
    stats = locust(url, user, clients, seconds, folder,
                   {"BENCH_WATCHED": str(watched)} if watched else None)
    used, by_client = sides.cpu_seconds(pids) - used, _children_cpu() - by_client
    moves, creates = summarize(stats, MOVES), summarize(stats, ("create",))
    cpu = 1000 * used / moves["count"] if pids and moves["count"] else float("nan")
    requests = moves["count"] + creates["count"]
    client = 1000 * by_client / requests if requests else float("nan")
    print(f"  {label}: {moves['rate']:.1f} moves/s, {creates['rate']:.1f} creates/s,"
          f" {moves['failures'] + creates['failures']} failed"
          + (f", server CPU {cpu:.2f} ms a move" if pids else "")
          + f", Locust's CPU {client:.2f} ms a request")
    print("\n".join(endpoint_lines(stats)))
    return {"moves": moves["rate"], "creates": creates["rate"], "cpu_ms": cpu,
            "client_ms": client,
            "roll_p95": float(stats.get("roll", {}).get("95%", "nan")),
            # Every request's: 65 moves to one create.
            "move_p95": float(stats.get("Aggregated", {}).get("95%", "nan"))}


def _children_cpu() -> float:
    """The processor time (user and system) of this process's children that have ended: the
    Locust runs, each waited for, among them."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def served_arguments(parser: argparse.ArgumentParser) -> None:
    """The options ``served`` reads (``--postgres``, ``--redis``), and ``--source``, the
    checkout to serve, for a script that serves one service."""
    parser.add_argument("--postgres", default=os.environ.get(
        "BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", ""))
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="the checkout to serve (another revision, say)")


@contextmanager
def served(
    source: Path, args: argparse.Namespace, folder: Path, **limits: str
) -> Iterator[tuple[str, str]]:
    """A fresh database and the service of ``source`` on it: (its URL, the database's).

    ``limits``: more settings of rate limits, e.g. ``THROTTLE_MOVES`` for an older revision
    whose compose settings limited moves (600 a minute per address, which 8 clients from one
    address pass in seconds)."""
    folder.mkdir()
    with postgres_database(args.postgres, prefix="dice_bench") as db:
        env = {
            **os.environ,
            "DATABASE_URL": db,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_ROOT": str(folder / "static"),
            "THROTTLE_CREATE": HIGH_LIMIT,
            "PYTHONUNBUFFERED": "1",
            # The last phase's webhook receiver listens on this machine.
            "WEBHOOK_ALLOW_PRIVATE": "true",
            **limits,
        }
        if args.redis:
            env["REDIS_URL"] = args.redis
        # As compose counts: every process's figures in one folder, /metrics adds them up.
        token = secrets.token_urlsafe(16)
        env |= {"PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics"), "METRICS_TOKEN": token}
        (folder / "metrics").mkdir()
        with service(source, env, folder / "server.log") as url:
            METRICS_TOKENS[url] = token
            yield url, db


# The token each service started by ``served`` answers ``/metrics`` to.
METRICS_TOKENS: dict[str, str] = {}


def plays_by_path(url: str) -> dict[str, int]:
    """``dice_plays_total`` by path, summed over the server's processes: how many commands
    were decided on the game as the process kept it, read, or read again."""
    request = urllib.request.Request(
        f"{url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKENS[url]}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    found = re.findall(r'^dice_plays_total\{path="(\w+)"\} ([0-9.e+]+)$', text, re.MULTILINE)
    return {path: int(float(value)) for path, value in found}


class Peers:
    """What is measured between the service's phases: the Deck of Cards API (``--deck``, or its
    two shapes from ``--deck-source``), PostgreSQL's floor for a move (pgbench) and an older
    checkout (``--baseline``), each as given."""

    def __init__(
        self, args: argparse.Namespace, base_url: str | None, folder: Path,
        decks: dict[str, str],
    ) -> None:
        self.args, self.base_url, self.folder, self.deck_urls = args, base_url, folder, decks
        self.decks: dict[str, list[float]] = {label: [] for label in decks}
        self.floors: list[float] = []
        self.bases: list[dict[str, float]] = []
        self.base_health = 0.0
        self.warm = False
        self.any = bool(decks or base_url or args.floor)

    def phase(self) -> None:
        args = self.args
        if not self.warm:  # the first time: a warm-up round for each
            self.warm = True
            for url in self.deck_urls.values():
                locust(url, "DeckPlayer", args.clients, WARM_UP, self.folder)
            if self.base_url:
                locust(self.base_url, "Player", args.clients, WARM_UP, self.folder)
        for label, url in self.deck_urls.items():
            self.decks[label].append(deck_phase(url, args.clients, args.seconds, self.folder,
                                                label))
        if args.floor:
            self.floors.append(sides.floor(args.postgres, args.clients, args.seconds,
                                           self.folder))
            print(f"  PostgreSQL's floor (pgbench, {args.clients} clients: lock a game, update"
                  f" it, add an event, commit): {self.floors[-1]:.0f} transactions/s")
        if self.base_url:
            if not self.bases:
                self.base_health = health_rate(
                    self.base_url, args.clients, max(args.seconds // 2, 5)
                )
                print(f"  baseline {args.baseline}: health {self.base_health:.0f} req/s")
            self.bases.append(play(self.base_url, args.clients, args.seconds, self.folder,
                                   f"baseline {args.baseline}: games"))


def deck_urls(args: argparse.Namespace, stack: ExitStack, folder: Path) -> dict[str, str]:
    """The Deck of Cards API's URLs by label: ``--deck`` as given, and ``--deck-source``
    served here in its two shapes (``tests.bench.sides``)."""
    found = {f"Deck of Cards API at {args.deck}": args.deck} if args.deck else {}
    if args.deck_source:
        for label, postgres in (("deck, SQLite as it ships", None),
                                ("deck, PostgreSQL", args.postgres)):
            name = "deck-postgres" if postgres else "deck-sqlite"
            found[f"{label} (gunicorn, 2 sync workers)"] = stack.enter_context(
                sides.deck_served(args.deck_source, folder / name, free_port(),
                                  postgres=postgres, log=folder / f"{name}.log")
            )
    return found


def deck_phase(url: str, clients: int, seconds: int, folder: Path, label: str) -> float:
    stats = locust(url, "DeckPlayer", clients, seconds, folder)
    rate = summarize(stats, ("draw",))["rate"]
    print(f"  {label}: {rate:.1f} draws/s,"
          f" {summarize(stats, ('new deck',))['rate']:.1f} new decks/s")
    print("\n".join(endpoint_lines(stats)))
    return rate


GOALS = {
    "moves/s": "at least 2x the fastest deck's draws/s",
    "moves per draw of the fastest deck": "at least 2",
    "PostgreSQL floor tps": "",
    "moves / floor": "at least 0.333",
    "server CPU ms a move": "at most 1.0",
    "move p95 ms": "at most 20",
    "streams / without": "at least 0.9",
    "clocked / plain": "at least 0.8",
}


def print_table(summary: dict[str, object]) -> None:
    """The run's figures side by side, as a Markdown table, with the goals set for them."""
    print("\n| figure | this run | goal |\n|---|---|---|")
    for name, value in summary.items():
        goal = GOALS.get(name, "at least 0.9" if name.startswith("grown by") else "")
        shown = ("grown", "SQLite", "Locust")
        if name.endswith("draws/s") or name in GOALS or name.startswith(shown):
            print(f"| {name} | {value} | {goal} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (8)")
    parser.add_argument("--seconds", type=int, default=20, help="length of each phase (20)")
    parser.add_argument("--streams", type=int, default=1000, help="open streams in phase 3")
    parser.add_argument("--postgres", default=os.environ.get(
        "BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server the bench may create a database on")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", ""),
                        help="REDIS_URL for the service, as compose would give it")
    parser.add_argument("--deck", default="", help="URL of a Deck of Cards API to compare")
    parser.add_argument("--deck-source", type=Path, default=os.environ.get("DECK_SOURCE") or None,
                        help="a clone of github.com/crobertsbmw/deckofcards, served here on"
                        " SQLite as it ships and on PostgreSQL (env DECK_SOURCE)")
    parser.add_argument("--no-floor", dest="floor", action="store_false",
                        help="skip PostgreSQL's floor (pgbench)")
    parser.add_argument("--no-sqlite", dest="sqlite", action="store_false",
                        help="skip the phase on the embedded SQLite default")
    parser.add_argument("--grow", type=int, default=20000,
                        help="finished games added before the grown phase (20000; 0: none)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout (an older revision) to serve beside it, the"
                        " same way, and compare")
    args = parser.parse_args()

    given = shlex.join(sys.argv[1:])
    rerun = f"make bench BENCH_ARGS={shlex.quote(given)}" if given else "make bench"
    if not args.redis and "REDIS_URL" in compose_environment(args.source):
        args.redis = "redis://127.0.0.1:6379/0"  # compose gives the service a Redis: so do we
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="dice-bench-") as tmp, ExitStack() as stack:
        folder = Path(tmp)
        url, db = stack.enter_context(served(args.source, args, folder / "this"))
        queries = subprocess.run(
            [sys.executable, "-m", "tests.bench.queries"], cwd=args.source, capture_output=True,
            text=True,
            env=os.environ
            | {"DATABASE_URL": db, "PYTHONPATH": str(ROOT)}
            | ({"REDIS_URL": args.redis} if args.redis else {}),
        )
        base_url = None
        if args.baseline:
            base_url, _ = stack.enter_context(
                served(args.baseline, args, folder / "base", THROTTLE_MOVES=HIGH_LIMIT)
            )
        server = " ".join(compose_server_command(args.source, 0)[2:])
        print(f"service: {server} (from docker-compose.yml), PostgreSQL"
              f"{', Redis' if args.redis else ''}; {args.clients} clients,"
              f" {args.seconds} s a phase")
        # A short unmeasured round first: every worker's pool, caches and code paths warm.
        locust(url, "Player", args.clients, WARM_UP, folder)
        health = health_rate(url, args.clients, max(args.seconds // 2, 5))
        print(f"  health: {health:.0f} req/s")
        idle = connections_to(db)
        calm = play(url, args.clients, args.seconds, folder, "games")
        # The peers' phases come between ours, so that a machine whose load drifts weighs on
        # all alike: the ratios use the means of two phases each.
        args.floor = args.floor and bool(shutil.which("pgbench"))
        peers = Peers(args, base_url, folder, deck_urls(args, stack, folder))
        peers.phase()
        opening, busy, again = None, None, None
        if args.streams:
            # The streams follow the games the two phases play: each phase has games of its
            # own, made now, more than it can play (WatchedPlayer then plays its own).
            sets = [create_games(url, WATCHED_PER_SECOND * args.seconds) for _ in range(2)]
            files = [folder / f"watched-{n}.json" for n in range(2)]
            for path, made in zip(files, sets, strict=True):
                path.write_text(json.dumps(made))
            followed = [game for made in sets for game, _ in made]
            label = f"games, {args.streams} streams opened {STREAMS_AFTER} s in"
            with streams_opened_later(url, args.streams, followed, STREAMS_AFTER, db) as seen:
                opening = play(url, args.clients, args.seconds, folder, label,
                               "WatchedPlayer", files[0])
                if "opening" not in seen:
                    raise SystemExit("the streams were not all open before the phase ended")
                busy = play(url, args.clients, args.seconds, folder,
                            f"games, the {args.streams} streams held open", "WatchedPlayer",
                            files[1])
                after = connections_to(db)
            print(f"  {args.streams} streams opened in {seen['opening']:.1f} s under the load;"
                  f" database connections: {idle} before the load, {seen['connections']:.0f}"
                  f" once the streams were open, {after} after the load with them")
            # Again without them: the machine's own drift shows between the two calm runs.
            again = play(url, args.clients, args.seconds, folder, "games, streams closed")
        if peers.any:
            peers.phase()
            if again is None:
                again = play(url, args.clients, args.seconds, folder, "games again")
        # Clocked games, then a database grown by thousands of finished games: each against
        # plain games just before it.
        plain = play(url, args.clients, args.seconds, folder, "games, before clocked ones")
        clocked = play(url, args.clients, args.seconds, folder,
                       "games with a 1-hour turn clock", user="ClockedPlayer")
        before_grown, grown = None, None
        if args.grow:
            before_grown = play(url, args.clients, args.seconds, folder,
                                "games, before the database grows")
            started = time.monotonic()
            sides.grow(db, args.grow)
            print(f"  {args.grow} finished games added in {time.monotonic() - started:.0f} s")
            grown = play(url, args.clients, args.seconds, folder,
                         f"games, {args.grow} more finished games in the database")
        embedded = None
        if args.sqlite:
            with sides.sqlite_served(args.source, folder / "sqlite", free_port(),
                                     folder / "sqlite.log") as (sqlite_url, pid):
                SERVERS[sqlite_url] = pid
                locust(sqlite_url, "Player", args.clients, WARM_UP, folder)
                embedded = play(sqlite_url, args.clients, args.seconds, folder,
                                "games on SQLite (make run: one uvicorn process)")
        outside = None
        if compose_worker_command(args.source):
            # Last: clocks and webhooks beside the load (tests/bench/outside.py).
            found: dict[str, object] = {}
            side = threading.Thread(
                target=lambda: found.update(outside_measure(url, args.seconds)), daemon=True
            )
            side.start()
            play(url, args.clients, args.seconds, folder, "games, with clocks and webhooks")
            side.join()
            outside = found
            print(f"  clocks and webhooks under the load: {outside}")
        unhandled = (folder / "this" / "server.log").read_text(errors="replace").count("Traceback")
        paths = plays_by_path(url)
    total = sum(paths.values()) or 1
    print("commands by how the game was had (every phase): " + ", ".join(
        f"{path} {count} ({100 * count / total:.1f} %)" for path, count in sorted(paths.items())
    ))
    print("queries per request:", queries.stdout.strip() or queries.stderr.strip()[-500:])
    print(f"tracebacks in the service's log: {unhandled}")
    runs = [calm, again] if again else [calm]
    moves = sum(run["moves"] for run in runs) / len(runs)
    summary = {
        "moves/s": round(moves, 1),
        "creates/s": round(calm["creates"], 1),
        "roll p95 ms": calm["roll_p95"],
        "health req/s": round(health),
    }
    if opening and busy:
        summary[f"moves/s while {args.streams} streams open"] = round(opening["moves"], 1)
        summary["slow-down while they open %"] = round(100 * (1 - opening["moves"] / moves), 1)
        summary[f"moves/s with {args.streams} streams"] = round(busy["moves"], 1)
        summary["streams slow-down %"] = round(100 * (1 - busy["moves"] / moves), 1)
    if again:
        summary["runs without streams differ %"] = round(
            100 * abs(calm["moves"] - again["moves"]) / moves, 1
        )
    cpu = [run["cpu_ms"] for run in runs]
    summary["server CPU ms a move"] = round(sum(cpu) / len(cpu), 2)
    # The load's own cost, on the same cores: what is left of them for the server and
    # PostgreSQL.
    client = [run["client_ms"] for run in runs]
    summary["Locust's CPU ms a request"] = round(sum(client) / len(client), 2)
    summary["move p95 ms"] = calm["move_p95"]
    fastest = 0.0
    for label, rates in peers.decks.items():
        if rates:
            mean = sum(rates) / len(rates)
            fastest = max(fastest, mean)
            summary[f"{label} draws/s"] = round(mean, 1)
    if fastest:
        summary["moves per draw of the fastest deck"] = round(moves / fastest, 2)
    if peers.floors:
        floor = sum(peers.floors) / len(peers.floors)
        summary["PostgreSQL floor tps"] = round(floor)
        summary["moves / floor"] = round(moves / floor, 3)
    summary["clocked / plain"] = round(clocked["moves"] / plain["moves"], 2)
    if grown and before_grown:
        summary[f"grown by {args.grow} / before"] = round(
            grown["moves"] / before_grown["moves"], 2
        )
    if busy:
        summary["streams / without"] = round(busy["moves"] / moves, 2)
    if embedded:
        summary["SQLite moves/s"] = round(embedded["moves"], 1)
        summary["SQLite server CPU ms a move"] = round(embedded["cpu_ms"], 2)
    if peers.bases:
        base = sum(run["moves"] for run in peers.bases) / len(peers.bases)
        summary["baseline moves/s"] = round(base, 1)
        summary["baseline health req/s"] = round(peers.base_health)
        summary["moves vs baseline"] = round(moves / base, 2)
    if outside:
        summary.update(outside)
    print("summary:", json.dumps(summary))
    print_table(summary)
    print(f"rerun (best on a quiet machine): {rerun}")


if __name__ == "__main__":
    main()
