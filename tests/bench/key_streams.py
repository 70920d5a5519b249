"""Many keys' streams open at once, as many bots listening would be: what they cost moves.

``DATABASE_URL=postgres://... python -m tests.bench.key_streams [STREAMS] [MOVES]`` starts the
service as the live tests do (gunicorn with two uvicorn workers on a fresh PostgreSQL
database), seats one bot of each of STREAMS/3 students in a game (a person to move first),
and times MOVES moves in games without bots: first with no key stream open, then with
STREAMS key streams open (three per key, the most a key may hold). Then, with the streams
still open, it times how long each of a sample of bots' games takes from the move that
passes the turn to the bot's `turn` on its key's streams. Prints the figures and the
command that printed them.
"""

import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.live.service import LiveService, manage, service_env, serving, throwaway_database

PER_KEY = 3
SAMPLE = 30


def ok(service: LiveService, method: str, path: str, body: object = None, **kw: str) -> dict:
    status, answer = service.call(method, path, body, **kw)
    assert status in (200, 201), answer
    return answer


def setup(service: LiveService, keys: int) -> tuple[list[str], list[dict], list[dict]]:
    room = ok(service, "POST", "/api/v1/classrooms/", {"name": "Bench"})
    students, games = [], []
    for n in range(keys):
        key = ok(service, "POST", "/api/v1/classrooms/join/",
                 {"join_code": room["join_code"], "name": f"S{n}"})["api_key"]
        bot = ok(service, "POST", "/api/v1/bots/", {"name": f"B{n}", "rulesets": ["yahtzee"]},
                 key=key)
        games.append(ok(service, "POST", "/api/v1/games/", {
            "ruleset": "yahtzee", "players": [{"name": "P"}, {"bot": bot["id"]}]}, key=key))
        students.append(key)
    plain = [ok(service, "POST", "/api/v1/games/",
                {"ruleset": "yahtzee", "players": [{"name": "A"}]}) for _ in range(20)]
    return students, games, plain


def time_moves(service: LiveService, plain: list[dict], moves: int) -> list[float]:
    took = []
    connection = service.connection()
    for n in range(moves):
        game = plain[n % len(plain)]
        token = game["players"][0]["token"]
        current = ok(service, "GET", f"/api/v1/games/{game['id']}/", connection=connection)
        action, body = ("roll", {}) if current["turn"]["dice"] is None else (
            "score", {"category": next(iter(current["choices"]))})
        if current["status"] != "active":
            continue
        start = time.perf_counter()
        ok(service, "POST", f"/api/v1/games/{game['id']}/{action}/", body, token=token,
           connection=connection)
        took.append(time.perf_counter() - start)
    return took


class Streams:
    """STREAMS raw key streams on an event loop of their own; when each `turn` arrived."""

    def __init__(self, service: LiveService, keys: list[str]) -> None:
        self.parts = urlsplit(service.url)
        self.keys = keys
        self.turns: dict[str, float] = {}
        self.opened = threading.Event()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_until_complete, args=(self.main(),),
                         daemon=True).start()

    async def one(
        self, key: str, gate: asyncio.Semaphore
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        async with gate:
            reader, writer = await asyncio.open_connection(self.parts.hostname, self.parts.port)
            writer.write(f"GET /api/v1/me/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"X-API-Key: {key}\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status = await reader.readline()
            assert b" 200 " in status, status
            await reader.readuntil(b"event: seated")
        return reader, writer  # a writer let go closes its connection

    async def read(self, reader: asyncio.StreamReader) -> None:
        event = None
        while line := (await reader.readline()).decode():
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: ") and event == "turn":
                game = line.split('"game":"', 1)[1].split('"', 1)[0]
                self.turns.setdefault(game, time.perf_counter())

    async def main(self) -> None:
        gate = asyncio.Semaphore(50)
        held = await asyncio.gather(
            *(self.one(key, gate) for key in self.keys for _ in range(PER_KEY)))
        self.opened.set()
        await asyncio.gather(*(self.read(reader) for reader, _ in held))


def figures(name: str, took: list[float]) -> str:
    ms = sorted(t * 1000 for t in took)
    p95 = ms[int(len(ms) * 0.95) - 1]
    return f"{name}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def main(streams: int, moves: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="key-streams-"))
    with throwaway_database(folder) as url:
        env = service_env(folder, url, THROTTLE_CREATE="", THROTTLE_MOVES="",
                          THROTTLE_CLASSROOMS="", THROTTLE_FAILURES="", THROTTLE_ADVICE="")
        manage(env, "migrate", "--noinput")
        with serving(folder, env) as service:
            keys, games, plain = setup(service, max(streams // PER_KEY, 1))
            alone = time_moves(service, plain, moves)
            opening = time.perf_counter()
            held = Streams(service, keys)
            assert held.opened.wait(600), "the streams did not open"
            opened_in = time.perf_counter() - opening
            beside = time_moves(service, plain, moves)
            delays = []
            for game in games[:SAMPLE]:
                token = game["players"][0]["token"]
                ok(service, "POST", f"/api/v1/games/{game['id']}/roll/", {}, token=token)
                passed = time.perf_counter()
                ok(service, "POST", f"/api/v1/games/{game['id']}/score/",
                   {"category": "chance"}, token=token)
                while game["id"] not in held.turns and time.perf_counter() - passed < 5:
                    time.sleep(0.005)
                delays.append(held.turns.get(game["id"], passed + 5) - passed)
    print(f"python -m tests.bench.key_streams {streams} {moves}")
    print(f"{len(keys) * PER_KEY} key streams ({len(keys)} keys), opened in {opened_in:.1f} s")
    print(figures("moves, no key stream open", alone))
    print(figures(f"moves, {len(keys) * PER_KEY} key streams open", beside))
    print(figures("a bot's turn, from the move that passed it to its stream", delays))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1500,
         int(sys.argv[2]) if len(sys.argv) > 2 else 400)
