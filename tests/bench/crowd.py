"""A crowd of event streams on a few games, and what it costs everyone else's moves.

    .venv/bin/python -m tests.bench.crowd [--rounds 3] [--seconds 15] [--clients 8]
        [--streams 1000] [--games 20] [--idle | --deaf | --keys] [--paired]

The service as ``make bench`` serves it (gunicorn with the compose ``web`` command, its task
worker beside it, a fresh PostgreSQL database, Redis when given). One client (the mover, a
thread of this script on one kept-alive connection) moves without pause in ``--games`` games
of two seats each, one move in each game in turn: a roll, then holds (each a small event),
then a box scored, turn after turn. Meanwhile ``--clients`` Locust users play whole games of
their own, which no one watches: theirs are the moves measured. Each round has three phases:

- before: the mover and the clients, no stream open;
- during: ``--streams`` event streams open on the mover's games (spread evenly: 50 a game by
  default, so every move of the mover goes to 50 streams, in both worker processes);
- after: just after those streams have closed (their client has exited).

With ``--idle`` the streams follow as many other games, which no one moves in (what open
streams cost with nothing sent on them); with ``--deaf`` their holder stops reading once they
are open (what the writes cost the service when they wake no reader on this machine).

With ``--streams 0`` nothing is opened between "before" and "after": what the machine's own
drift from one phase to the next is, with nothing changed. With ``--paired`` each round is
run twice, with the streams and with none (which comes first alternates), and it prints
both sets of rounds and the streams' own effect: the median during / before (and after /
before) with them over the median with none.

With ``--keys``, keys' own streams (``GET /api/v1/me/stream/``) instead: before each round
it makes ``--streams``/3 students of a new classroom, each with a bot seated in a game of a
person and the bot, and opens three streams a key; the mover plays the person's first turn
(a roll and the holds) in each of those games, so each of its moves is news for the three
streams of that game's bot's owner, news their subscriptions drop (a roll or a hold passes
no turn: ``games.arena.wakeups``).

It prints each phase's moves/s of the clients, the p95 of their requests (65 moves to a
create) and the mover's moves/s, what the service's processes hold after it (threads, open
files, resident memory, PostgreSQL connections), then each round's ratios during/before and
after/before, and the medians over the rounds. The rounds interleave the three shapes, so
that the load of a shared machine weighs on each alike; the load average is printed too.
"""

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from tests.bench import sides
from tests.bench.run import (
    HIGH_LIMIT,
    SERVERS,
    WARM_UP,
    connections_to,
    locust,
    open_streams,
    play,
    served,
    served_arguments,
)
from tests.bench.streams import KEY_STREAMS

HOLDS = 28  # hold moves a turn (the rules allow 30): long games of small events
TURNS = 13


class Mover:
    """One client moving in ``games`` games, one move in each in turn, on one connection."""

    def __init__(self, url: str, games: int, given: list[dict] | None = None) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        # ``given``: games of a person and a bot, which it plays the person's first turn of
        # (a roll and the holds), then leaves (the bot would be to move).
        self.games = given if given is not None else [self._new_game() for _ in range(games)]
        self.moves = 0
        self.finished = 0  # games that ended (each replaced by a new one, no stream on it)
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mover", daemon=True)

    @property
    def ids(self) -> list[str]:
        return [game["id"] for game in self.games]

    def _request(
        self, path: str, body: dict, token: str | None = None, key: str | None = None
    ) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["X-API-Key"] = key
        for attempt in range(2):
            try:
                self.conn.request("POST", path, json.dumps(body), headers)
                answer = self.conn.getresponse()
                return answer.status, json.loads(answer.read() or b"{}")
            except (OSError, http.client.HTTPException):
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _new_game(self) -> dict:
        status, game = self._request(
            "/api/v1/games/",
            {"ruleset": "yahtzee", "players": [{"name": "Watched"}, {"name": "Also watched"}]},
        )
        if status != 201:
            raise SystemExit(f"the mover could not make a game: {status} {game}")
        tokens = [player["token"] for player in game["players"]]
        return {"id": game["id"], "tokens": tokens, "turn": 0, "step": 0, "choices": {}}

    def _move(self, game: dict) -> None:
        token = game["tokens"][game["turn"] % 2]
        path = f"/api/v1/games/{game['id']}/"
        if game.get("solo") and game["step"] > HOLDS:
            game["done"] = True  # its bot would be to move next
            return
        if game["step"] == 0:
            action, body = "roll", {}
        elif game["step"] <= HOLDS:
            action, body = "hold", {"hold": [game["step"] % 2]}
        else:
            best = max(game["choices"], key=game["choices"].get)
            action, body = "score", {"category": best}
        status, answer = self._request(f"{path}{action}/", body, token)
        if status != 200:
            self.failures += 1
            game["step"] = HOLDS + 1 if game["step"] else 0
            return
        self.moves += 1
        if action == "roll":
            game["choices"] = answer.get("choices") or {}
        if action == "score":
            game["turn"] += 1
            game["step"] = 0
            if game["turn"] >= 2 * TURNS:
                self.finished += 1
                game.update(self._new_game())
        else:
            game["step"] += 1

    def _run(self) -> None:
        while not self._stop.is_set():
            playing = [game for game in self.games if not game.get("done")]
            if not playing:
                time.sleep(0.1)
            for game in playing:
                self._move(game)

    def bots(self, count: int) -> list[str]:
        """``count`` students of a new classroom, each with a bot seated in a game of a
        person and the bot (added to this mover's games); their keys."""
        status, room = self._request("/api/v1/classrooms/", {"name": "Crowd"})
        keys = []
        for n in range(count):
            _, joined = self._request("/api/v1/classrooms/join/",
                                      {"join_code": room["join_code"], "name": f"S{n}"})
            key = joined["api_key"]
            _, bot = self._request("/api/v1/bots/", {"name": f"B{n}", "rulesets": ["yahtzee"]},
                                   key=key)
            status, game = self._request("/api/v1/games/", {
                "ruleset": "yahtzee", "players": [{"name": "P"}, {"bot": bot["id"]}]}, key=key)
            if status != 201:
                raise SystemExit(f"a bot's game could not be made: {status} {game}")
            self.games.append({"id": game["id"], "tokens": [game["players"][0]["token"]],
                               "turn": 0, "step": 0, "choices": {}, "solo": True})
            keys.append(key)
        return keys

    def __enter__(self) -> "Mover":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.conn.close()


def held(url: str, database: str) -> str:
    """What the service's processes hold now: threads, open files, resident memory; and the
    database's connections."""
    pids = sides.process_tree(SERVERS[url])
    threads = files = rss = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            files += len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        threads += int(fields["Threads"])
        rss += int(fields["VmRSS"].split()[0])
    return (f"{len(pids)} processes, {threads} threads, {files} open files,"
            f" {rss / 1024:.0f} MB resident, {connections_to(database)} database connections")


def phase(url: str, args: argparse.Namespace, folder: Path, mover: Mover, label: str) -> dict:
    """One phase of the clients' games beside the mover. Besides ``play``'s figures: the
    mover's moves/s and the service's processor time per move, everyone's (``all_ms``: what
    the streams add to each move, whatever share of the machine the service gets)."""
    moved, pids = mover.moves, sides.process_tree(SERVERS[url])
    started, used = time.monotonic(), sides.cpu_seconds(pids)
    found = play(url, args.clients, args.seconds, folder, label)
    took, used = time.monotonic() - started, sides.cpu_seconds(pids) - used
    found["mover"] = (mover.moves - moved) / took
    everyone = (found["moves"] + found["mover"]) * took
    found["all_ms"] = 1000 * used / everyone if everyone else float("nan")
    print(f"    mover {found['mover']:.1f} moves/s; the service's CPU {found['all_ms']:.2f} ms"
          f" a move (everyone's); load average {os.getloadavg()[0]:.2f}")
    return found


HOLDER_NICE = 0  # --holder-nice


@contextmanager
def crowd(url: str, count: int, games: list[str]) -> Iterator[float]:
    """``count`` streams on ``games``, held open for the block; yields how long opening took.
    They are closed (their client has exited) when the block ends."""
    started = time.monotonic()
    with open_streams(url, count, games, nice=HOLDER_NICE):
        yield time.monotonic() - started


def ratio(now: dict, before: dict) -> tuple[float, float]:
    """(moves/s now over before, p95 before over now): above 1 is better, either way."""
    return now["moves"] / before["moves"], before["move_p95"] / now["move_p95"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=15, help="of each phase")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20, help="the mover's, which streams follow")
    parser.add_argument("--holder-nice", type=int, default=0, help="the streams' holder's "
                        "niceness: with 19 its reads give way to everything else, which shows "
                        "what the spectators' own processor time weighs on a shared machine")
    served_arguments(parser)
    parser.add_argument("--keys", action="store_true",
                        help="keys' own streams (three a key, each key's bot seated in a game"
                        " the mover plays) instead of game streams")
    parser.add_argument("--paired", action="store_true",
                        help="each round twice, with the streams and with none (in turn"
                        " first): the streams' effect beside the machine's own drift")
    parser.add_argument("--idle", action="store_true",
                        help="the streams follow games no one moves in: what streams held"
                        " open cost, with nothing sent on them but heartbeats")
    parser.add_argument("--deaf", action="store_true",
                        help="the streams' holder reads nothing once they are open: the"
                        " service's writes wake no reader on this machine")
    args = parser.parse_args()
    global HOLDER_NICE
    HOLDER_NICE = args.holder_nice
    if args.deaf:
        os.environ["STREAMS_DEAF"] = "1"  # read by tests.bench.streams, the holder
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    rounds: list[tuple[int, dict, dict, dict]] = []
    with tempfile.TemporaryDirectory(prefix="dice-crowd-") as tmp:
        folder = Path(tmp)
        limits = {"THROTTLE_CLASSROOMS": HIGH_LIMIT} if args.keys else {}
        with served(args.source, args, folder / "this", **limits) as (url, db):
            locust(url, "Player", args.clients, WARM_UP, folder)
            for number in range(1, args.rounds + 1):
                counts = [args.streams]
                if args.paired:  # with and without, in turn first
                    counts = [args.streams, 0] if number % 2 else [0, args.streams]
                for count in counts:
                    print(f"round {number}, {count} streams: {held(url, db)}")
                    rounds.append((count, *one_round(url, db, args, folder, number, count)))
    for count in sorted({count for count, *_ in rounds}, reverse=True):
        print(f"\nwith {count} streams:" if args.paired else "")
        report([(b, d, a) for found, b, d, a in rounds if found == count])
    if args.paired and args.streams:
        effect(rounds, args.streams)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    print(f"rerun: .venv/bin/python -m tests.bench.crowd {' '.join(sys.argv[1:])}")


def effect(rounds: list[tuple[int, dict, dict, dict]], streams: int) -> None:
    """Prints the median during / before and after / before of the clients' moves with
    ``streams`` streams over the same with none: what the streams did, the drift apart."""
    for name, at in (("during", 2), ("after", 3)):
        with_them, without = (
            statistics.median(r[at]["moves"] / r[1]["moves"] for r in rounds if r[0] == count)
            for count in (streams, 0)
        )
        print(f"the streams' own effect, {name} / before: {with_them:.2f} with them,"
              f" {without:.2f} with none; {with_them / without:.2f} the one over the other")


def one_round(
    url: str, db: str, args: argparse.Namespace, folder: Path, number: int, count: int
) -> tuple[dict, dict, dict]:
    """One round's three phases, with ``count`` streams opened between the first two."""
    mover = Mover(url, 0 if args.keys else args.games, [] if args.keys else None)
    followed = mover.ids
    if args.idle:  # as many games again, made and never moved in
        idle = Mover(url, args.games)
        idle.conn.close()
        followed = idle.ids
    if args.keys:
        keys = folder / f"keys-{number}-{count}.json"
        keys.write_text(json.dumps(mover.bots(-(-args.streams // KEY_STREAMS))))
        followed = ["--keys", str(keys)]
    with mover:
        before = phase(url, args, folder, mover, "before: no stream open")
        with crowd(url, count, followed) as opening:
            print(f"  {count} {'key' if args.keys else 'game'} streams open"
                  f" in {opening:.1f} s; {held(url, db)}")
            during = phase(url, args, folder, mover, f"during: {count} streams open")
        print(f"  streams closed; {held(url, db)}")
        after = phase(url, args, folder, mover, "after: just after they closed")
        print(f"  after the phase: {held(url, db)}; the mover's games that ended:"
              f" {mover.finished}, its refused moves: {mover.failures}")
    return before, during, after


def report(rounds: list[tuple[dict, dict, dict]]) -> None:
    print("\n| round | before: moves/s, p95 ms, CPU ms a move | during | after"
          " | during/before: moves, p95, CPU | after/before: moves, p95, CPU |"
          "\n|---|---|---|---|---|---|")
    ratios = []
    for number, (before, during, after) in enumerate(rounds, start=1):
        (dm, dp), (am, ap) = ratio(during, before), ratio(after, before)
        dc, ac = before["all_ms"] / during["all_ms"], before["all_ms"] / after["all_ms"]
        ratios.append((dm, dp, dc, am, ap, ac))
        cells = [f"{p['moves']:.0f}, {p['move_p95']:.0f}, {p['all_ms']:.2f} (mover"
                 f" {p['mover']:.0f})" for p in (before, during, after)]
        print(f"| {number} | {' | '.join(cells)} | {dm:.2f}, {dp:.2f}, {dc:.2f} | {am:.2f},"
              f" {ap:.2f}, {ac:.2f} |")
    medians = [statistics.median(column) for column in zip(*ratios, strict=True)]
    print(f"| median | | | | {medians[0]:.2f}, {medians[1]:.2f}, {medians[2]:.2f} |"
          f" {medians[3]:.2f}, {medians[4]:.2f}, {medians[5]:.2f} |")
    print("(every ratio is before/now for p95 and CPU ms a move, now/before for moves/s: above"
          " 1 is better; goal: all >= 0.9)")


if __name__ == "__main__":
    main()
