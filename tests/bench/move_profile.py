"""Where a move's processor time goes, with no server in front: whole solitaire Yahtzee games
played one request at a time through Django's WSGI handler, in this process.

    DATABASE_URL=postgres://... REDIS_URL=redis://... \\
        .venv/bin/python -m tests.bench.move_profile [--games 20] [--profile | --layers]

Prints the processor time and the wall time per move (``time.process_time`` and
``time.perf_counter`` over the moves, after two games to warm up), and with ``--profile``
cProfile's functions by cumulative time, then the time of each layer of a move: Django's
handler and middleware, DRF's dispatch, the view's parsing and rendering, and the service
(its reads and writes of the database, the engine, the rest). A profiler's own cost falls
on every call, so it weighs most on the parts made of many small calls; ``--layers``
instead times only the layers' own functions, by this thread's processor time (user and
system, the kernel's work on the database's socket included), a few microseconds of
timing a call. The database and the cache
are the settings' (``DATABASE_URL`` and ``REDIS_URL``, as compose's service would have them);
the limit on creating games is lifted. PostgreSQL's processor time a move is read from
``/proc`` (a server on this machine; its backends are the pool's, kept for the run).
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import time
from typing import Any

from tests.bench.per_move import postgres_processes
from tests.bench.sides import cpu_seconds

# The layers of a move, timed by --layers and found in cProfile's figures by --profile:
# (label, module, owner in it or "", function).
TIMED = [
    ("Django's handler and middleware", "django.core.handlers.wsgi", "WSGIHandler", "__call__"),
    ("  its URL resolved", "django.core.handlers.base", "BaseHandler", "resolve_request"),
    ("DRF's dispatch", "rest_framework.views", "APIView", "dispatch"),
    ("the view's move", "games.api.games.moves", "MoveActions", "_play"),
    ("  its body parsed and validated", "games.api.games.moves", "", "command_of"),
    ("  its answer rendered", "games.api.games.moves", "", "answer"),
    ("the service (game_play)", "games.play.services", "", "game_play"),
    ("  the atomic block's entry", "django.db.transaction", "Atomic", "__enter__"),
    ("  the read: lock the game, read its seats", "games.db.gamestore", "", "game_lock"),
    ("    its rows made model objects", "games.db.rows", "", "instances"),
    ("  the engine", "scoring.match", "Match", "play"),
    ("  the change applied to the objects", "games.play.services", "", "_apply"),
    ("  the writes' statements made", "games.db.gamestore", "", "game_update"),
    ("  the writes and the commit", "games.db.rows", "", "_flush"),
    ("the round trips to the database (both)", "games.db.pipeline", "", "run"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--layers", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["THROTTLE_CREATE"] = ""
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    play = Player(app)
    play.games(2)
    if args.layers:
        print(timed_layers(play, args.games))
        return
    database = postgres_processes()
    by_database = cpu_seconds(database)
    cpu, wall = time.process_time(), time.perf_counter()
    moves = play.games(args.games)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    by_database = cpu_seconds(database) - by_database
    print(f"{moves} moves: {1000 * cpu / moves:.3f} ms of the processor and"
          f" {1000 * wall / moves:.3f} ms in all a move;"
          f" the local PostgreSQL's processes {1000 * by_database / moves:.3f} ms a move")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        moves = play.games(args.games)
        profile.disable()
        text = io.StringIO()
        stats = pstats.Stats(profile, stream=text)
        stats.sort_stats("cumulative").print_stats(40)
        print(text.getvalue())
        print(layers(stats, moves))


def timed_layers(play: "Player", games: int) -> str:
    """Each layer's processor time a move (µs): its functions wrapped in a timer of this
    thread's processor time, the games played, the wrappers taken off again."""
    import importlib

    spent = {label: 0 for label, *_ in TIMED}
    undo = []
    for label, module_name, owner_name, name in TIMED:
        module = importlib.import_module(module_name)
        owner = getattr(module, owner_name) if owner_name else module
        original = owner.__dict__[name] if owner_name else getattr(module, name)
        setattr(owner, name, _timed(original, label, spent))
        undo.append((owner, name, original))
    try:
        moves = play.games(games)
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)
    return "\n".join(
        [f"{moves} moves; processor time a move, by layer (each includes those below it):"]
        + [f"{label:<45} {spent[label] / moves / 1000:7.1f} µs" for label, *_ in TIMED]
    )


def _timed(function: Any, label: str, spent: dict[str, int]) -> Any:
    clock = time.thread_time_ns

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += clock() - started

    return timed


def layers(stats: pstats.Stats, moves: int) -> str:
    """Each layer's cumulative time a move (ms), as cProfile saw it (its own cost included)."""
    found: dict[str, float] = {}
    for (path, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        for label, module, _, function in TIMED:
            if name == function and path.endswith(module.replace(".", "/") + ".py"):
                found[label] = found.get(label, 0.0) + row[3]
    return "\n".join(
        f"{label:<45} {1000 * found.get(label, 0.0) / moves:6.3f} ms" for label, *_ in TIMED
    )


class Player:
    """Plays whole games through a WSGI application: 13 turns of roll, roll keeping two dice,
    hold three, roll, score the box worth most (as ``tests/bench/locustfile.py`` does)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def call(self, path: str, body: dict[str, Any], token: str | None = None) -> Any:
        data = json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": "POST", "PATH_INFO": path, "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1", "wsgi.input": io.BytesIO(data),
            "wsgi.url_scheme": "http", "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
        }
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        status: list[str] = []
        answer = b"".join(self.app(environ, lambda given, headers, info=None: status.append(given)))
        if not status[0].startswith("2"):
            raise SystemExit(f"{path}: {status[0]} {answer[:300]!r}")
        return json.loads(answer)

    def games(self, count: int) -> int:
        moves = 0
        for _ in range(count):
            game = self.call("/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "P"}]})
            path, token = f"/api/v1/games/{game['id']}", game["players"][0]["token"]
            for _ in range(13):
                for action, body in (("roll", {}), ("roll", {"hold": [0, 1]}),
                                     ("hold", {"hold": [0, 1, 2]}), ("roll", {})):
                    rolled = self.call(f"{path}/{action}/", body, token)
                best = max(rolled["choices"], key=rolled["choices"].get)
                self.call(f"{path}/score/", {"category": best}, token)
                moves += 5
        return moves


if __name__ == "__main__":
    main()
