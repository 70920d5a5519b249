"""The round trips to the database each endpoint of a whole game costs, counted in-process.

``DATABASE_URL=... python -m tests.bench.queries`` plays one Yahtzee game through Django's test
client against that database and prints the queries per request of each endpoint (the
most any request of it took). ``tests/bench/run.py`` runs it against its own database.
"""

import os
from collections.abc import Sequence
from typing import Any

import django


def round_trips(queries: Sequence[dict[str, Any]]) -> int:
    """The calls to the database among queries Django logged (``CaptureQueriesContext``).

    Django logs a ``BEGIN`` and a ``COMMIT`` for every transaction, but a game's change on
    PostgreSQL sends them with its statements (``BEGIN; SELECT ...`` and ``...; COMMIT``:
    ``games.db.rows.change``); those logged alone then cost no call.
    """
    sqls = [query["sql"] for query in queries]
    opened = any(sql.startswith("BEGIN; ") for sql in sqls)
    closed = any(sql.endswith("; COMMIT") for sql in sqls)
    return sum(
        1 for sql in sqls
        if not (sql == "BEGIN" and opened) and not (sql == "COMMIT" and closed)
    )


def count() -> dict[str, int]:
    """The most queries one request of each endpoint took in one whole game.

    Needs Django set up (``main`` does it; tests/api/test_queries.py pins the figures).
    """
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client, most = Client(), {}

    def call(name: str, path: str, body: dict, token: str | None = None) -> dict:
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        with CaptureQueriesContext(connection) as queries:
            answer = client.post(path, body, content_type="application/json", **headers)
        assert answer.status_code in (200, 201), answer.content
        most[name] = max(most.get(name, 0), round_trips(queries.captured_queries))
        return answer.json()

    game = call("create", "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Q"}]})
    moves, token = f"/api/v1/games/{game['id']}", game["players"][0]["token"]
    for _ in range(13):
        call("roll", f"{moves}/roll/", {}, token)
        call("hold", f"{moves}/hold/", {"hold": [0, 1]}, token)
        rolled = call("roll", f"{moves}/roll/", {}, token)
        call("score", f"{moves}/score/", {"category": next(iter(rolled["choices"]))}, token)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/health/").status_code == 200
    most["health"] = round_trips(queries.captured_queries)
    return most


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["THROTTLE_CREATE"] = os.environ["THROTTLE_MOVES"] = ""
    os.environ["ALLOWED_HOSTS"] = "testserver"
    django.setup()
    print(" ".join(f"{name}={n}" for name, n in count().items()))


if __name__ == "__main__":
    main()
