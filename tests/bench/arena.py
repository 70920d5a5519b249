"""The bot arena at scale: a round robin of 32 copies of the starter kit's bot on 4 boards
(32 x 31 x 4 = 3,968 games), run by the service in its production shape, while ordinary
players play their own games beside it.

    make bench-arena        # or: .venv/bin/python -m tests.bench.arena --help

It makes a fresh PostgreSQL database (``--postgres``), migrates it and starts the service
as ``docker-compose.yml`` runs it (``tests/bench/run.py``): gunicorn with the service's
worker class and compose's command line, and the task worker beside it, which runs the
tournament. A classroom is opened; each bot is a student of it (a key of its own: one key
holds at most 3 streams and registers at most 10 bots) running the Python code block of
``docs/bots.md`` as its own process, unchanged, with ``DICE_API_URL`` and ``DICE_API_KEY``.
Once every bot has registered, the teacher sets the tournament (``--ruleset``, default
Yahtzee; the default 30 s turn clock) and the run waits for it to finish.

Figures printed:

- how long the tournament took, from the request that set it to ``finished``;
- moves per second during it: the moves of its games (the events a move writes: rolls,
  holds, boxes, banks...) over that time;
- the delay of a bot's ``turn`` event: beside each bot's own stream, the run holds one more
  stream on the same key (the same events, the same path through the service) and notes
  when each ``turn`` arrives; the move that passed the turn is the other seat's last
  turn-ending event (a box filled or scratched, a bank, a bust) in the database, whose
  time the server wrote as it made the move. Every process runs on this machine, on its
  clock. The first turn of each game (passed by no move) is left out. p50, p95 and worst;
- ordinary play beside it: ``--players`` closed-loop clients playing one-person Yahtzee
  games without a key, first ``--baseline`` seconds alone, then all through the
  tournament: each move's p50 and p95 and the moves per second, before and during. The
  bound that keeps one tournament from starving others is the service's: at most 8 games
  of one bot in one tournament at once (so here at most 128 games under way), each a
  row the worker steps in short transactions; the run shows what ordinary players see.

Everything it starts stops with it; the database is dropped. Not part of ``make test``.
"""

import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from bisect import bisect_right
from collections import defaultdict
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg

from tests.bench.run import ROOT, service
from tests.bench.servers import database_options, migrated_env
from tests.databases import postgres_database
from tests.processes import stop

TURN_ENDING = ("scored", "scratched", "banked", "busted", "passed")
MOVES = ("rolled", "held", "scored", "scratched", "set_aside", "banked", "busted", "passed")


def starter_kit() -> str:
    """The bot of docs/bots.md: its first Python code block, as a reader copies it."""
    text = (ROOT / "docs" / "bots.md").read_text()
    found = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    if not found:
        raise SystemExit("docs/bots.md has no Python code block")
    return found.group(1)


class Client:
    """JSON over one keep-alive connection."""

    def __init__(self, url: str, key: str | None = None) -> None:
        parts = urlsplit(url)
        self.host, self.port, self.key = parts.hostname or "127.0.0.1", parts.port, key
        self.token: str | None = None
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Accept": "application/json", "Content-Type": "application/json"}
        if self.key:
            headers["X-API-Key"] = self.key
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        payload = None if body is None else json.dumps(body)
        for attempt in (1, 2):
            try:
                self.conn.request(method, f"/api/v1{path}", body=payload, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.call(method, path, body)
        if status >= 300:
            raise SystemExit(f"{method} {path}: {status} {answer}")
        return answer


def observe(url: str, key: str, seen: dict[tuple[str, int, int], float], done: threading.Event
            ) -> None:
    """A second stream on a bot's key: when each ``turn`` event arrives (the first time)."""
    parts = urlsplit(url)
    while not done.is_set():
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        try:
            conn.request("GET", "/api/v1/me/stream/",
                         headers={"X-API-Key": key, "Accept": "text/event-stream"})
            response = conn.getresponse()
            event = None
            while not done.is_set():
                line = response.readline()
                if not line:
                    break
                now = time.time()
                text = line.decode().rstrip("\r\n")
                if text.startswith("event:"):
                    event = text[6:].strip()
                elif text.startswith("data:") and event == "turn":
                    data = json.loads(text[5:])
                    seen.setdefault((data["game"], data["seat"], data["version"]), now)
                elif not text:
                    event = None
        except (OSError, http.client.HTTPException, ValueError):
            time.sleep(0.5)
        finally:
            conn.close()


def ordinary(url: str, done: threading.Event, moves: list[tuple[float, float]]) -> None:
    """One person's one-seat Yahtzee games, one after another: (when, seconds) per move.
    Stops quietly once the run is done (the service stops under it)."""
    try:
        play_ordinary(url, done, moves)
    except (OSError, http.client.HTTPException, SystemExit):
        if not done.is_set():
            raise


def play_ordinary(url: str, done: threading.Event, moves: list[tuple[float, float]]) -> None:
    client = Client(url)
    while not done.is_set():
        state = client.ok("POST", "/games/", {"ruleset": "yahtzee", "players": [{"name": "Pat"}]})
        mover = Client(url)
        mover.token = state["players"][0]["token"]
        path = f"/games/{state['id']}"
        while state["status"] != "finished" and not done.is_set():
            for action in ("roll", "score"):
                body = {"category": next(iter(state["choices"]))} if action == "score" else {}
                began = time.perf_counter()
                status, state = mover.call("POST", f"{path}/{action}/", body)
                moves.append((time.time(), time.perf_counter() - began))
                if status != 200:
                    raise SystemExit(f"an ordinary move was refused: {status} {state}")


class Second:
    """A second, small tournament set while the first runs (``--beside``): how long it takes
    beside the first says whether the first leaves it its share of the games under way."""

    def __init__(self, teacher: Client, path: str, bots: list[dict[str, Any]], ruleset: str,
                 at: float) -> None:
        self.teacher, self.path, self.bots, self.ruleset, self.at = (
            teacher, path, bots, ruleset, at)
        self.id: str | None = None
        self.began = self.ended = 0.0
        self.games = 0

    def look(self) -> None:
        if len(self.bots) < 2 or self.ended:
            return
        if self.id is None:
            if time.time() >= self.at:
                made = self.teacher.ok("POST", self.path, {
                    "title": "Beside", "ruleset": self.ruleset, "seats": 2, "boards": 1,
                    "entrants": [{"bot": bot["id"]} for bot in self.bots]})
                self.id, self.began = made["id"], time.time()
                self.games = made["progress"]["games"]
            return
        if self.teacher.ok("GET", f"{self.path}{self.id}/")["status"] == "finished":
            self.ended = time.time()

    def report(self, first: dict[str, Any]) -> None:
        if self.id is None:
            return
        if not self.ended:
            print(f"the second tournament ({len(self.bots)} bots, {self.games} games) had not"
                  " finished when the first ended")
            return
        print(f"the second tournament ({len(self.bots)} of the same bots, one board,"
              f" {self.games} games), set while the first ran: finished in"
              f" {self.ended - self.began:.0f} s")


def cpu_seconds(pid: int) -> float:
    """The processor time a live process has used so far (user and system), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def figures(samples: list[float]) -> str:
    if not samples:
        return "none"
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {1000 * statistics.median(ordered):.0f} ms, p95 {1000 * p95:.0f} ms, "
            f"worst {1000 * ordered[-1]:.0f} ms ({len(ordered)})")


def turn_delays(database: str, tournament: str, seen: dict[tuple[str, int, int], float]
                ) -> list[float]:
    """Each ``turn`` arrival minus the time of the other seat's move that passed it."""
    ended: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    with psycopg.connect(database) as conn:
        rows = conn.execute(
            "SELECT e.game_id, e.seat, e.created_at FROM games_event e"
            " JOIN games_game g ON g.id = e.game_id"
            " WHERE g.tournament_id = %s AND e.type = ANY(%s) ORDER BY e.created_at",
            (tournament, list(TURN_ENDING)),
        ).fetchall()
    for game, seat, at in rows:
        ended[str(game)][seat].append(at.timestamp())
    delays = []
    for (game, seat, _version), arrived in seen.items():
        others = [times for s, times in ended[game].items() if s != seat]
        last = max((times[bisect_right(times, arrived) - 1] for times in others
                    if bisect_right(times, arrived)), default=None)
        if last is not None:
            delays.append(arrived - last)
    return delays


def moves_of(database: str, tournament: str) -> tuple[int, float | None]:
    """The moves of the tournament's games, and the mean of a finished game's."""
    with psycopg.connect(database) as conn:
        row = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE g.status = 'finished'),"
            " count(DISTINCT g.id) FILTER (WHERE g.status = 'finished')"
            " FROM games_event e JOIN games_game g ON g.id = e.game_id"
            " WHERE g.tournament_id = %s AND e.type = ANY(%s)", (tournament, list(MOVES)),
        ).fetchone()
    if not row:
        return 0, None
    return int(row[0]), (row[1] / row[2] if row[2] else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=32)
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--players", type=int, default=2, help="ordinary players beside it")
    parser.add_argument("--baseline", type=int, default=20, help="seconds of them alone first")
    parser.add_argument("--bot", type=Path, help="another bot program (default: docs/bots.md's)")
    parser.add_argument("--stop-after", type=int, default=0, help="seconds: then the "
                        "tournament is cancelled and its whole length estimated (0: never)")
    parser.add_argument("--beside", type=int, default=0, help="bots (of the same) in a second,"
                        " one-board round robin set --beside-after seconds into the first")
    parser.add_argument("--beside-after", type=int, default=60)
    parser.add_argument("--games-at-once", type=int, help="the service's "
                        "TOURNAMENT_GAMES_AT_ONCE (default: the service's own default)")
    database_options(parser)
    args = parser.parse_args()
    # Stopped from outside: everything it started stops too, and the database goes.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dice-arena-")))
        database = stack.enter_context(postgres_database(args.postgres, prefix="dice_arena"))
        env = migrated_env(database, args.redis, folder)
        env.update({"THROTTLE_CLASSROOMS": "1000000/second", "DEBUG": "false"})
        if args.games_at_once:
            env["TOURNAMENT_GAMES_AT_ONCE"] = str(args.games_at_once)
        url = stack.enter_context(service(ROOT, env, folder / "service.log"))
        teacher_room = Client(url).ok("POST", "/classrooms/", {"name": "Arena"})
        teacher = Client(url, teacher_room["teacher_key"])
        keys = [Client(url).ok("POST", "/classrooms/join/", {
            "join_code": teacher_room["join_code"], "name": f"Coder {n + 1}"})["api_key"]
            for n in range(args.bots)]
        code = folder / "bot.py"
        code.write_text(args.bot.read_text() if args.bot else starter_kit())
        bots = []
        with (folder / "bots.log").open("ab") as log:
            for n, key in enumerate(keys):
                bot_env = {**os.environ, "DICE_API_URL": url, "DICE_API_KEY": key,
                           "DICE_BOT_NAME": f"Starter {n + 1}"}
                bots.append(subprocess.Popen([sys.executable, str(code)], env=bot_env,
                                             stdout=log, stderr=subprocess.STDOUT))
        for bot in bots:
            stack.callback(stop, bot)
        registered: list[dict[str, Any]] = []
        deadline = time.monotonic() + 120
        while len(registered) < args.bots:
            if time.monotonic() > deadline:
                raise SystemExit(f"{len(registered)} of {args.bots} bots registered:\n"
                                 + (folder / "bots.log").read_text()[-3000:])
            time.sleep(1)
            answer = teacher.ok("GET", "/bots/")
            registered = answer if isinstance(answer, list) else answer["results"]
        done = threading.Event()
        stack.callback(done.set)
        seen: dict[tuple[str, int, int], float] = {}
        for key in keys:
            threading.Thread(target=observe, args=(url, key, seen, done), daemon=True).start()
        ordinary_moves: list[tuple[float, float]] = []
        for _ in range(args.players):
            threading.Thread(target=ordinary, args=(url, done, ordinary_moves), daemon=True
                             ).start()
        time.sleep(args.baseline)
        began = time.time()
        bots_cpu = sum(cpu_seconds(bot.pid) for bot in bots)
        tournament = teacher.ok("POST", f"/classrooms/{teacher_room['id']}/tournaments/", {
            "title": "Arena", "ruleset": args.ruleset, "seats": 2, "boards": args.boards,
            "entrants": [{"bot": bot["id"]} for bot in registered[: args.bots]],
        })
        path = f"/classrooms/{teacher_room['id']}/tournaments/{tournament['id']}/"
        games = tournament["progress"]["games"]
        print(f"{args.bots} bots, {args.boards} boards, {args.ruleset}: {games} games")
        shown = 0.0
        second = Second(teacher, f"/classrooms/{teacher_room['id']}/tournaments/",
                        registered[: args.beside], args.ruleset, began + args.beside_after)
        while tournament["status"] not in ("finished", "cancelled"):
            second.look()
            if args.stop_after and time.time() - began > args.stop_after:
                tournament = teacher.ok("POST", f"{path}cancel/")
                break
            time.sleep(2)
            tournament = teacher.ok("GET", path)
            if time.time() - shown > 60:
                shown = time.time()
                print(f"  {time.time() - began:.0f} s: {tournament['progress']['finished']}"
                      f" of {games} games finished", flush=True)
        ended = time.time()
        bots_cpu = sum(cpu_seconds(bot.pid) for bot in bots) - bots_cpu
        done.set()
        took = ended - began
        moves, per_game = moves_of(database, tournament["id"])
        delays = turn_delays(database, tournament["id"], seen)
        before = [s for at, s in ordinary_moves if at < began]
        during = [s for at, s in ordinary_moves if began <= at <= ended]
        timeouts = sum(row["timeouts"] for row in tournament["standings"])
        finished = tournament["progress"]["finished"]
        if tournament["status"] == "finished":
            print(f"\ntournament finished: {games} games in {took:.0f} s"
                  f" ({games / took:.2f} games/s); {timeouts} turns timed out")
        else:
            print(f"\ntournament cancelled after {took:.0f} s: {finished} of {games} games"
                  f" finished; {timeouts} turns timed out")
        print(f"moves of its games: {moves} in all, {moves / took:.1f} moves/s; the bots'"
              f" {len(bots)} processes used {bots_cpu:.0f} s of processor time,"
              f" {bots_cpu / took:.2f} of the machine's {os.cpu_count()} cores")
        if tournament["status"] == "cancelled" and per_game:
            print(f"stopped after {took:.0f} s with {tournament['progress']['finished']} games"
                  f" finished, {per_game:.0f} moves each: at this rate the {games} games"
                  f" would take about {games * per_game / (moves / took):.0f} s")
        second.report(tournament)
        print(f"turn event after the move that passed the turn: {figures(delays)}")
        print(f"ordinary players' moves alone ({args.baseline} s): {figures(before)},"
              f" {len(before) / max(args.baseline, 1):.1f} moves/s")
        print(f"ordinary players' moves during the tournament: {figures(during)},"
              f" {len(during) / took:.1f} moves/s")
        print(f"at {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average now"
              f" {os.getloadavg()[0]:.2f}")
    print(f"rerun: .venv/bin/python -m tests.bench.arena {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
