"""A game's statements prepared once per connection and sent at once (games/db/pipeline.py):
the same answers as through a cursor, errors as Django raises them, a connection left as it
was found."""

import pytest
from django.db import DatabaseError, OperationalError, connection, transaction

from games.db import pipeline, rows
from games.models import Game
from tests.conftest import pins_the_fast_path, postgres_only

pytestmark = [postgres_only, pins_the_fast_path, pytest.mark.django_db(transaction=True)]


def ours() -> set[str]:
    """The statements this connection holds prepared under the pipeline's names."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'games_%%'")
        return {name for (name,) in cursor.fetchall()}


def test_a_statement_is_prepared_once_and_then_only_run() -> None:
    before = ours()
    first = rows.run([rows.Statement("SELECT %s::int + 1", [41], reads=True)])
    prepared = ours()
    again = rows.run([rows.Statement("SELECT %s::int + 1", [1], reads=True)])
    assert (first, again) == ([[(42,)]], [[(2,)]])
    assert len(prepared - before) == 1
    assert ours() == prepared


def test_values_of_another_size_get_a_statement_of_their_own() -> None:
    """psycopg sends a small integer as int2 and a large one as int8: a statement prepared
    for one is not run with the other."""
    before = ours()
    for value in (7, 70_000, 7_000_000_000, None, 7):
        assert rows.run([rows.Statement("SELECT %s::bigint", [value], reads=True)]) == [
            [(value,)]
        ]
    assert len(ours() - before) == 4


def test_percent_signs_are_kept_and_placeholders_numbered() -> None:
    statement = rows.Statement("SELECT %s || '%%' || %s", ["a", "b"], reads=True)
    assert rows.run([statement]) == [[("a%b",)]]
    with pytest.raises(ValueError, match="only %s and %%"):
        rows.run([rows.Statement("SELECT '%d'", [], reads=True)])


def test_statements_beyond_the_limit_still_run(monkeypatch) -> None:
    monkeypatch.setattr(pipeline, "PREPARED_MAX", len(ours()) + 2)
    answers = rows.run([
        rows.Statement(f"SELECT {n} + %s::int", [1], reads=True) for n in range(5)
    ])
    assert answers == [[(n + 1,)] for n in range(5)]
    again = rows.run([rows.Statement("SELECT 4 + %s::int", [2], reads=True)])
    assert again == [[(6,)]]


def test_an_error_stops_the_statements_after_it_and_the_connection_serves_on() -> None:
    game = Game.objects.create(ruleset="yahtzee", state={})
    before = game.version
    update = rows.Statement("UPDATE games_game SET version = 9 WHERE id = %s", [game.pk])
    with pytest.raises(DatabaseError, match="division by zero"):
        rows.run([rows.Statement("SELECT 1/%s::int", [0], reads=True), update])
    game.refresh_from_db()
    assert game.version == before
    assert rows.run([rows.Statement("SELECT %s::int", [5], reads=True)]) == [[(5,)]]


def test_a_statement_that_cannot_be_prepared_raises_and_is_not_remembered() -> None:
    before = ours()
    for _ in range(2):
        with pytest.raises(DatabaseError, match="no_such_table"):
            rows.run([rows.Statement("SELECT * FROM no_such_table WHERE id = %s", [1])])
    assert ours() == before


def test_within_an_atomic_block_the_statements_join_its_transaction() -> None:
    game = Game.objects.create(ruleset="yahtzee", state={})
    before = game.version
    with pytest.raises(RuntimeError), transaction.atomic():
        rows.run([rows.Statement("UPDATE games_game SET version = 5 WHERE id = %s", [game.pk])])
        raise RuntimeError("undo it")
    game.refresh_from_db()
    assert game.version == before


def test_a_connection_lost_raises_as_django_does_and_the_next_request_gets_another() -> None:
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    with connection.connection.__class__.connect(
        **connection.get_connection_params()
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    with pytest.raises(OperationalError):
        rows.run([rows.Statement("SELECT %s::int", [1], reads=True)])
    connection.close()
    assert rows.run([rows.Statement("SELECT %s::int", [1], reads=True)]) == [[(1,)]]


def test_a_connection_that_may_not_prepare_runs_every_statement_unnamed() -> None:
    """``DATABASE_PREPARE=false`` leaves psycopg's ``prepare_threshold`` at None, for a pooler
    that does not keep a session's prepared statements."""
    connection.ensure_connection()
    raw = connection.connection
    kept, raw.prepare_threshold = raw.prepare_threshold, None
    try:
        before = ours()
        for value in (1, 2):
            statement = rows.Statement("SELECT %s::int * 3", [value], reads=True)
            assert rows.run([statement]) == [[(3 * value,)]]
        assert ours() == before
    finally:
        raw.prepare_threshold = kept
