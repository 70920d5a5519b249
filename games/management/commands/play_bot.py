"""A bot that plays Yahtzee games back to back over one HTTP connection, as fast as it can.

It shows what a client playing at full speed meets under the service's limits: every
refusal is counted, none is expected with the default settings. Run it against a server:

    .venv/bin/python manage.py play_bot --url http://127.0.0.1:8000 --games 100

and it prints the games played, the moves made, any 429 answers and the time taken.
``--key`` sends an ``X-API-Key`` with every request (a student's games are then theirs).
It exits with status 1 when it could not play every game.
"""

import http.client
import json
import time
from argparse import ArgumentParser
from typing import Any
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from scoring.match import GameStatus


class Client:
    def __init__(self, url: str, key: str | None) -> None:
        parts = urlsplit(url)
        if not parts.hostname:
            raise CommandError(f"no host in {url!r}")
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.key = key
        self.refused = 0
        self.requests = 0

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if self.key:
            headers["X-API-Key"] = self.key
        payload = json.dumps(body).encode() if body is not None else None
        self.connection.request(method, path, body=payload, headers=headers)
        response = self.connection.getresponse()
        data = json.loads(response.read() or b"null")
        self.requests += 1
        if response.status == 429:
            self.refused += 1
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data}")
        return data


def play_one(client: Client) -> int:
    """One solitaire Yahtzee game: roll once, score the best-looking box, thirteen times."""
    game = client.call(
        "POST", "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Bot"}]}
    )
    token, path = game["players"][0]["token"], f"/api/v1/games/{game['id']}"
    moves = 0
    while game["status"] == GameStatus.ACTIVE:
        game = client.call("POST", f"{path}/roll/", {}, token)
        moves += 1
        if game["turn"]["rolls_left"]:
            game = client.call("POST", f"{path}/roll/", {"hold": [0, 1]}, token)
            moves += 1
        best = max(game["choices"], key=game["choices"].get)
        game = client.call("POST", f"{path}/score/", {"category": best}, token)
        moves += 1
    return moves


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--key", default=None, help="an X-API-Key to send")

    def handle(self, *args: Any, url: str, games: int, key: str | None, **rest: Any) -> None:
        client = Client(url, key)
        started = time.perf_counter()
        moves = played = 0
        try:
            for _ in range(games):
                moves += play_one(client)
                played += 1
        except RuntimeError as error:
            self.stdout.write(f"stopped: {error}")
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"games {played}/{games}, moves {moves}, requests {client.requests}, "
            f"refused (429) {client.refused}, {seconds:.1f} s, {moves / seconds:.0f} moves/s"
        )
        self.stdout.write(
            f"rerun: .venv/bin/python manage.py play_bot --url {url} --games {games}"
        )
        if played != games:
            raise CommandError(f"played {played} of {games} games", returncode=1)
