"""What a move's statements cost the client and PostgreSQL, sent three ways.

    .venv/bin/python -m tests.bench.pipeline [--postgres URL] [--moves 2000]

A move's two round trips (``games.db.rows.change``: lock the game and read it with its seats;
then update it, append an event and commit), on one connection, over and over:

- ``quoted``: one string of SQL a round trip, the values quoted in it by psycopg's client-side
  cursor (how Django's backend sends them, and how this service sent them before);
- ``psycopg pipeline``: psycopg's ``Connection.pipeline()``, a cursor a statement, prepared;
- ``games.db.pipeline``: the service's own, through libpq's pipeline mode, prepared.

Prints the client's processor time and the PostgreSQL server's (its processes' user and
system time, from ``/proc``: a server on this machine) per move, each way in alternating
rounds, the median of five. The game is one the script creates in a database of its own.
"""

import argparse
import datetime
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from games.db import pipeline
from tests.bench.per_move import postgres_processes
from tests.bench.sides import cpu_seconds
from tests.databases import postgres_database

SCHEMA = """
CREATE TABLE game (id uuid PRIMARY KEY, version int, state jsonb, updated_at timestamptz);
CREATE TABLE seat (id bigserial PRIMARY KEY, game_id uuid REFERENCES game, seat int,
                   name text, total int);
CREATE TABLE event (id bigserial PRIMARY KEY, game_id uuid REFERENCES game, seq int,
                    data jsonb, UNIQUE (game_id, seq));
"""

Statement = tuple[str, list[Any], bool]
LOCK = "SELECT id, version, state, updated_at, clock_timestamp() FROM game WHERE id = %s FOR UPDATE"


def move(game: uuid.UUID, seq: int) -> list[list[Statement]]:
    """The two round trips of a move, as ``games.db.gamestore`` sends them."""
    state = {"dice": [1, 2, 3, 4, seq % 6 + 1], "held": [False] * 5, "cards": [{"ones": 3}]}
    now = datetime.datetime.now(datetime.UTC)
    return [
        [
            ("BEGIN", [], False),
            (LOCK, [game], True),
            ("SELECT id, seat, name, total FROM seat WHERE game_id = %s ORDER BY seat",
             [game], True),
        ],
        [
            ("UPDATE game SET version = %s, state = %s, updated_at = %s WHERE id = %s",
             [seq, Jsonb(state), now, game], False),
            ("INSERT INTO event (game_id, seq, data) VALUES (%s, %s, %s)",
             [game, seq, Jsonb({"dice": state["dice"]})], False),
            ("COMMIT", [], False),
        ],
    ]


def quoted(conn: psycopg.Connection[Any], trip: list[Statement]) -> list[list[Any]]:
    with psycopg.ClientCursor(conn) as cursor:
        cursor.execute("; ".join(s for s, _, _ in trip), [p for _, ps, _ in trip for p in ps])
        answers = []
        for index, (_, _, reads) in enumerate(trip):
            if index:
                cursor.nextset()
            answers.append(cursor.fetchall() if reads else [])
        return answers


def psycopg_pipeline(conn: psycopg.Connection[Any], trip: list[Statement]) -> list[list[Any]]:
    cursors = []
    with conn.pipeline():
        for sql, params, _ in trip:
            cursor = psycopg.Cursor(conn)
            cursor.execute(sql, params, prepare=True)
            cursors.append(cursor)
    return [c.fetchall() if reads else [] for c, (_, _, reads) in zip(cursors, trip, strict=True)]


def ours(conn: psycopg.Connection[Any], trip: list[Statement]) -> list[list[Any]]:
    return pipeline.run(conn, trip)


WAYS: dict[str, Callable[[psycopg.Connection[Any], list[Statement]], list[list[Any]]]] = {
    "quoted": quoted, "psycopg pipeline": psycopg_pipeline, "games.db.pipeline": ours,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--moves", type=int, default=2000)
    args = parser.parse_args()
    with postgres_database(args.postgres, prefix="dice_bench_pipeline") as url:
        conn = psycopg.connect(url, autocommit=True, prepare_threshold=5)
        conn.execute(SCHEMA)
        game = uuid.uuid4()
        conn.execute("INSERT INTO game VALUES (%s, 0, '{}', now())", [game])
        conn.execute("INSERT INTO seat (game_id, seat, name, total) VALUES (%s, 0, 'Ann', 0)",
                     [game])
        server = postgres_processes()
        figures: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
        seq = 0
        for _ in range(5):
            for name, way in WAYS.items():
                mine, theirs = time.process_time(), cpu_seconds(server)
                for _ in range(args.moves):
                    seq += 1
                    for trip in move(game, seq):
                        way(conn, trip)
                figures[name].append((
                    1e6 * (time.process_time() - mine) / args.moves,
                    1e6 * (cpu_seconds(server) - theirs) / args.moves,
                ))
        conn.close()
    print(f"{'way':<20} {'client µs a move':>17} {'PostgreSQL µs a move':>21}")
    for name, rows in figures.items():
        client = statistics.median(r[0] for r in rows)
        database = statistics.median(r[1] for r in rows)
        print(f"{name:<20} {client:>17.0f} {database:>21.0f}")
    print("reproduce: .venv/bin/python -m tests.bench.pipeline"
          f" --postgres {args.postgres} --moves {args.moves}")


if __name__ == "__main__":
    main()
