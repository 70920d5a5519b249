"""A database full of finished games changes nothing for a move: the queries of a move, a
stream's read and the worker's sweeps find their rows through an index, never by reading a
whole table (PostgreSQL's plans, after ``ANALYZE`` of a database holding thousands of games)."""

import json

import pytest
from django.db import connection, transaction

from games.classrooms.figures import figures_due
from games.db import gamestore, rows
from games.db.gamestore import game_due_clock
from games.models import Event, Game, IdempotencyRecord
from tests.conftest import pins_the_fast_path, postgres_only

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]

FINISHED = 4000
TABLES = ("games_game", "games_player", "games_event", "games_idempotencyrecord")


def fill() -> None:
    """Thousands of finished solitaire games, each with its seat, 66 events and a move sent
    with an ``Idempotency-Key``, as if played."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO games_game (id, ruleset, options, status, ranked, seed, open_seats,
                version, last_seq, state, winners, created_at, updated_at, finished_at,
                dice_algorithm, dice_secret, client_seed, assignment_game, dice_sealed,
                timeouts, figures_kept)
            SELECT md5(n::text)::uuid, 'yahtzee', '{}', 'finished', true, n, 0, 66, 66,
                '{}', '[0]', now(), now(), now(), 'hmac-sha256', '', '', 0, false, '[]', true
            FROM generate_series(1, %s) AS n
            """,
            [FINISHED],
        )
        cursor.execute(
            "INSERT INTO games_player (game_id, seat, name, token_hash, computer, total)"
            " SELECT id, 0, 'Ann', md5(id::text), NULL, 200 FROM games_game"
        )
        cursor.execute(
            "INSERT INTO games_event (game_id, seq, type, seat, data, created_at)"
            " SELECT g.id, s, 'rolled', 0, '{}', now()"
            " FROM games_game g CROSS JOIN generate_series(1, 66) AS s"
        )
        cursor.execute(
            "INSERT INTO games_idempotencyrecord (game_id, key, fingerprint, snapshot, created_at)"
            " SELECT id, 'k1', '', '[]', now() FROM games_game"
        )
        for table in TABLES:
            cursor.execute(f"ANALYZE {table}")


def plan(statement: rows.Statement) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + statement.sql, statement.params)
        return json.dumps(cursor.fetchone()[0])


def scans(found: str) -> set[str]:
    """The tables a plan reads whole."""
    nodes = json.loads(found)
    seen: set[str] = set()

    def walk(node: dict) -> None:
        if node.get("Node Type") == "Seq Scan":
            seen.add(node["Relation Name"])
        for child in node.get("Plans", []):
            walk(child)

    walk(nodes[0]["Plan"])
    return seen


def statements_of(function, *args, **kwargs) -> list[rows.Statement]:
    """The statements ``function`` gives :func:`games.db.rows.run`, captured, not run."""
    captured: list[rows.Statement] = []
    original = rows.run

    def capture(statements):
        captured.extend(statements)
        return original(statements)

    rows.run = capture
    try:
        function(*args, **kwargs)
    finally:
        rows.run = original
    return captured


@pins_the_fast_path  # the plans of the hand-written statements (games.db.rows)
def test_a_moves_read_and_a_streams_read_use_indexes_among_thousands_of_games(api) -> None:
    fill()
    game = api.create()
    api.ok(game, "roll")
    lock = statements_of(gamestore.game_lock, game["id"])
    log = statements_of(gamestore.game_log, game["id"], after=1, limit=200)
    assert len(lock) == 2 and len(log) == 2
    for statement in [*lock, *log]:
        assert not scans(plan(statement)), statement.sql


def test_the_sweeps_and_the_idempotency_lookup_use_indexes(api) -> None:
    fill()
    game = api.create(clock={"turn_seconds": 3600})
    api.ok(game, "roll", HTTP_IDEMPOTENCY_KEY="k1")
    queries = [
        Game.objects.filter(pk=game["id"]),
        IdempotencyRecord.objects.filter(game_id=game["id"], key="k1"),
        Event.objects.filter(game_id=game["id"], seq__gt=0).order_by("seq"),
    ]
    for query in queries:
        sql, params = query.query.sql_with_params()
        assert not scans(plan(rows.Statement(sql, list(params)))), sql
    # The sweeps' own reads: what is due, among thousands of games that are not.
    captured: list[tuple[str, list]] = []

    def capture(execute, sql, params, many, context):
        captured.append((sql, list(params)))
        return execute(sql, params, many, context)

    for due in (game_due_clock, figures_due):
        with transaction.atomic(), connection.execute_wrapper(capture):
            due()
    assert len(captured) == 2
    for sql, params in captured:
        assert not scans(plan(rows.Statement(sql, params))), sql
