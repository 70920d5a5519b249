"""What ``tests/bench/run.py`` sets beside the service: the Deck of Cards API in its two shapes,
PostgreSQL's own floor for a move (pgbench), the service's embedded SQLite shape, a database
grown by thousands of finished games, and the processor time the server spends per request.

The Deck of Cards API (github.com/crobertsbmw/deckofcards) is not part of this repository:
``--deck-source`` names a clone of it (a work tree or a bare repository), whose ``HEAD`` is
copied into the run's temporary folder and served there by gunicorn with two sync workers,
once on its own SQLite file as it ships and once on a fresh PostgreSQL database (its settings
module, imported whole, with the database, ``DEBUG`` off and no HTTPS redirect set over it).
"""

import os
import subprocess
import sys
import tarfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

import psycopg

from tests.databases import postgres_database
from tests.processes import stop

DECK_SETTINGS = """\
from spades.settings import *  # noqa: F403

DEBUG = False
SECURE_SSL_REDIRECT = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
"""
DECK_POSTGRES = """
DATABASES = {{"default": {{
    "ENGINE": "django.db.backends.postgresql", "NAME": {name!r}, "USER": {user!r},
    "HOST": {host!r}, "PORT": {port!r},
}}}}
"""


def copy_head(source: Path, folder: Path) -> Path:
    """The files of ``source``'s ``HEAD`` (a clone, bare or not), in ``folder``."""
    git = ["git", "--git-dir", str(source / ".git")] if (source / ".git").exists() else [
        "git", "--git-dir", str(source)
    ]
    archive = subprocess.run([*git, "archive", "HEAD"], capture_output=True, check=True).stdout
    folder.mkdir(parents=True)
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


@contextmanager
def deck_served(
    source: Path, folder: Path, port: int, *, postgres: str | None, log: Path
) -> Iterator[str]:
    """The Deck of Cards API from ``source``, on SQLite as it ships or, with ``postgres`` (a
    server URL), on a fresh database there: gunicorn, two sync workers; yields its URL."""
    tree = copy_head(source, folder)
    with _deck_database(postgres) as database:
        settings = DECK_SETTINGS + (_postgres_settings(database) if database else "")
        (tree / "bench_settings.py").write_text(settings)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench_settings", "PYTHONPATH": str(tree)}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"], cwd=tree, env=env, check=True,
            stdout=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        with log.open("wb") as output:
            server = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "spades.wsgi:application", "--workers", "2",
                 "--bind", f"127.0.0.1:{port}"],
                cwd=tree, env=env, stdout=output, stderr=subprocess.STDOUT,
            )
            try:
                wait_for(f"{url}/api/deck/new/", server, log)
                yield url
            finally:
                stop(server, grace=10)


@contextmanager
def _deck_database(postgres: str | None) -> Iterator[str | None]:
    if postgres is None:
        yield None
        return
    with postgres_database(postgres, prefix="deck_bench") as database:
        yield database


def _postgres_settings(database: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(database)
    return DECK_POSTGRES.format(
        name=info["dbname"], user=info.get("user", "postgres"),
        host=info.get("host", "127.0.0.1"), port=str(info.get("port", "5432")),
    )


def wait_for(url: str, server: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        if server.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{url} did not start:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)


# -- PostgreSQL's floor ----------------------------------------------------------------------

# A move's transaction at its barest, as the service's is shaped: lock the game's row, write
# its new state (a Yahtzee game's, about 1.5 kB), add an event to its log, commit.
FLOOR_SETUP = """
CREATE TABLE floor_game (id int PRIMARY KEY, version int NOT NULL, state jsonb NOT NULL);
CREATE TABLE floor_event (game_id int NOT NULL, seq int NOT NULL, data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (game_id, seq));
INSERT INTO floor_game SELECT n, 0, %s FROM generate_series(1, %s) AS n;
"""
FLOOR_SCRIPT = """\\set g random(1, {games})
BEGIN;
SELECT version FROM floor_game WHERE id = :g FOR UPDATE \\gset
UPDATE floor_game SET version = :version + 1, state = '{state}' WHERE id = :g;
INSERT INTO floor_event (game_id, seq, data) VALUES (:g, :version + 1, '{event}');
COMMIT;
"""
EVENT = '{"dice": [1, 2, 3, 4, 5]}'
STATE = (
    '{"dice": [5, 3, 3, 1, 2], "held": [true, true, true, false, false], "left": [false],'
    ' "bonus": [0], "cards": [{"ones": 1, "twos": 6, "fives": 10, "fours": 8, "sixes": 6,'
    ' "chance": 26, "threes": 6, "yahtzee": null, "full_house": 0, "four_of_a_kind": 0,'
    ' "large_straight": null, "small_straight": 30, "three_of_a_kind": null}],'
    ' "round": 9, "rolls": 2, "current": 0, "players": 1, "open_seats": 0, "history": []}'
)


def floor(postgres: str, clients: int, seconds: int, folder: Path) -> float:
    """Transactions per second of a move's bare transaction, ``clients`` at once (pgbench)."""
    games = 1000
    with postgres_database(postgres, prefix="floor_bench") as database:
        with psycopg.connect(database, autocommit=True) as conn:
            for statement in FLOOR_SETUP.strip().split(";\n"):
                if "%s" in statement:
                    conn.execute(statement, [STATE, games])
                elif statement.strip():
                    conn.execute(statement)
        script = folder / "floor.sql"
        script.write_text(FLOOR_SCRIPT.format(games=games, state=STATE, event=EVENT))
        out = subprocess.run(
            ["pgbench", "-n", "-c", str(clients), "-j", "2", "-T", str(seconds), "-f",
             str(script), database],
            capture_output=True, text=True, check=True,
        ).stdout
    for line in out.splitlines():
        if line.startswith("tps = "):
            return float(line.split()[2])
    raise SystemExit(f"pgbench printed no rate:\n{out}")


# -- the server's processor time ---------------------------------------------------------------


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (gunicorn's workers, and each worker's stream sender)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found = [pid]
    for one in found:  # grows as it goes: the children of each process found
        found.extend(child for child, parent in parents.items() if parent == one)
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The processor time (user and system) the processes have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


# -- a grown database --------------------------------------------------------------------------


def grow(database: str, games: int) -> None:
    """Adds ``games`` finished solitaire games, each with its seat and its 66 events, as if
    played to the end; then vacuums and analyses the tables and writes a checkpoint.

    The phase after it measures a database that holds more games, not the aftermath of
    loading them at once: without the vacuum, autovacuum goes over the million new event
    rows during the phase, and without the checkpoint the pages the load dirtied are written
    out during it, both on the cores the moves need. Games played one by one over weeks
    leave neither behind them."""
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(
            """
            INSERT INTO games_game (id, ruleset, options, status, ranked, seed, open_seats,
                version, last_seq, state, winners, created_at, updated_at, finished_at,
                dice_algorithm, dice_secret, client_seed, assignment_game, dice_sealed,
                timeouts, figures_kept)
            SELECT gen_random_uuid(), 'yahtzee', '{}', 'finished', true, n, 0, 66, 66,
                %s::jsonb, '[0]', now(), now(), now(), 'hmac-sha256', '', '', 0, false, '[]',
                true
            FROM generate_series(1, %s) AS n
            RETURNING id
            """,
            [STATE, games],
        )
        conn.execute(
            "INSERT INTO games_player (game_id, seat, name, token_hash, computer, total)"
            " SELECT id, 0, 'Grown', md5(id::text), NULL, 200 FROM games_game"
            " WHERE NOT EXISTS (SELECT 1 FROM games_player p WHERE p.game_id = games_game.id)"
        )
        conn.execute(
            "INSERT INTO games_event (game_id, seq, type, seat, data, created_at)"
            " SELECT g.id, s, 'rolled', 0, '{\"dice\": [1, 2, 3, 4, 5]}', now()"
            " FROM games_game g CROSS JOIN generate_series(1, 66) AS s"
            " WHERE g.last_seq = 66 AND NOT EXISTS"
            " (SELECT 1 FROM games_event e WHERE e.game_id = g.id)"
        )
        for table in ("games_game", "games_player", "games_event"):
            conn.execute(f"VACUUM (ANALYZE) {table}")
        conn.execute("CHECKPOINT")


# -- the embedded default ----------------------------------------------------------------------


@contextmanager
def sqlite_served(source: Path, folder: Path, port: int, log: Path) -> Iterator[tuple[str, int]]:
    """The service as ``make run`` serves it, on a SQLite file of its own: one uvicorn
    process beside one worker; yields its URL and the server's process id."""
    folder.mkdir(parents=True)
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "STATIC_ROOT": str(folder / "static"),
        "THROTTLE_CREATE": "1000000/second",
        "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REDIS_URL", None)
    (folder / "metrics").mkdir()
    for step in (["migrate", "--noinput"], ["createcachetable"],
                 ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *step], cwd=source, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--lifespan", "off", "--timeout-graceful-shutdown", "3",
             "--no-proxy-headers"],
            cwd=source, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "run_worker", "--interval", "0.5"],
            cwd=source, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
        try:
            wait_for(f"{url}/api/v1/health/", server, log)
            yield url, server.pid
        finally:
            stop(server, grace=10)
            stop(worker)
