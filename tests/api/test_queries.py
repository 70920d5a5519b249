"""Query budgets: a game read and a move cost a fixed number of calls to the database."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.bench.queries import round_trips
from tests.conftest import by_database, pins_the_fast_path

# Each move's statements, as SQLite runs them one by one and PostgreSQL in fewer round trips.
MOVE_QUERIES = {
    "roll": by_database(sqlite=8, postgresql=6),
    "hold": by_database(sqlite=8, postgresql=6),
    "score": by_database(sqlite=10, postgresql=6),
    "scratch": by_database(sqlite=9, postgresql=6),
}


@pytest.mark.parametrize("seats", [1, 8])
def test_reading_a_game_costs_at_most_four_queries(api, django_assert_num_queries, seats):
    game = api.create(tuple(f"P{i}" for i in range(seats)))
    api.play_turn(game)
    with django_assert_num_queries(2):
        assert api.client.get(f"/api/v1/games/{game['id']}/").status_code == 200


@pytest.mark.parametrize("seats", [1, 8])
def test_listing_games_does_not_grow_with_games_or_seats(api, django_assert_num_queries, seats):
    for _ in range(5):
        api.create(tuple(f"P{i}" for i in range(seats)))
    # The count, the page, the seats: a read closes nothing.
    with django_assert_num_queries(3):
        assert api.client.get("/api/v1/games/?player=P0").status_code == 200


@pytest.mark.parametrize(
    ("action", "body"),
    [
        ("roll", None),
        ("hold", {"hold": [1]}),
        ("score", {"category": "chance"}),
        ("scratch", {"category": "yahtzee"}),
    ],
)
@pins_the_fast_path
def test_a_move_costs_at_most_ten_queries(api, django_assert_num_queries, action, body):
    game = api.create(tuple(f"P{i}" for i in range(8)))
    if action != "roll":
        api.ok(game, "roll")
    with django_assert_num_queries(MOVE_QUERIES[action]):
        assert (
            api.move(
                game,
                action,
                body,
                HTTP_IDEMPOTENCY_KEY="q",
                HTTP_IF_MATCH='"2"' if action != "roll" else '"1"',
            ).status_code
            == 200
        )


@pins_the_fast_path
def test_the_last_move_of_a_game_stays_within_budget(api, django_assert_num_queries):
    game = api.create()
    for _ in range(12):
        api.play_turn(game)
    api.ok(game, "roll")
    # The game's read (two), then the move, on PostgreSQL one call between its savepoint's
    # two: a game this process wrote last is not read again (games.db.kept).
    with django_assert_num_queries(by_database(sqlite=9, postgresql=5)):
        assert (
            api.move(game, "scratch", {"category": next(iter(api.get(game)["choices"]))}).json()[
                "status"
            ]
            == "finished"
        )


@pytest.mark.django_db(transaction=True)  # commits for real, as the service does: no savepoints
@pins_the_fast_path
def test_a_whole_game_costs_what_the_load_benchmark_prints() -> None:
    """The queries per request that ``make bench`` prints (tests/bench/queries.py), pinned.

    A query is one call to the database, ``BEGIN`` and ``COMMIT`` included. A create writes
    the game, its seats and its first event: on PostgreSQL in one call that also opens and
    commits its transaction (``games.db.rows.change``), on SQLite one by one. A move reads
    its game and seats, then writes: on PostgreSQL the read opens the transaction and the
    writes commit it, two calls in all, or one, the writes alone, when the process wrote
    the game last (every move here: ``games.db.kept``, and pinned in
    tests/api/test_kept_games.py); SQLite takes them one by one (a roll: the game, the
    seats, the game's update and the event; a score adds the seat's total and the score
    entry), between its ``BEGIN`` and ``COMMIT``.
    The event streams are told by a trigger on the event log (PostgreSQL), which costs no
    query. Whether a seat plays from a strategy table (``games.play.strategy``: its table must
    be loaded before the game is locked) the process that created the game was told then; the
    first move in another process asks once (pinned below).
    """
    from tests.bench.queries import count

    if connection.vendor == "postgresql":
        calls = {"create": 1, "roll": 1, "hold": 1, "score": 1}
    else:
        calls = {"create": 5, "roll": 6, "hold": 6, "score": 8}
    assert count() == {**calls, "health": 1}


@pytest.mark.django_db(transaction=True)  # commits for real, as the service does: no savepoints
@pins_the_fast_path
def test_a_join_writes_its_new_seat_with_the_rest_of_the_change(api) -> None:
    """A join, like a move, reads its game and seats and writes, the new seat with the rest:
    on PostgreSQL the read (which opens the transaction) and the writes (which commit it); on
    SQLite ``BEGIN``, the game, the seats, the game's update, the seat, the event and
    ``COMMIT`` one by one."""
    game = api.create(("Ann",), open_seats=1)
    with CaptureQueriesContext(connection) as queries:
        joined = api.client.post(
            f"/api/v1/games/{game['id']}/join/", {"name": "Bob"}, format="json"
        )
    assert joined.status_code == 201
    assert round_trips(queries.captured_queries) == (
        2 if connection.vendor == "postgresql" else 7
    )
    assert [p["name"] for p in api.get(game)["players"]] == ["Ann", "Bob"]


def test_a_game_created_in_another_process_asks_once_about_strategy_tables(api) -> None:
    """Whether a seat plays from a strategy table is told to the process that creates the
    game; another process (here: this one, having forgotten) asks the database once, on the
    game's first move there, and never again."""
    from games.play import strategy

    game = api.create()
    strategy._needs.clear()
    with CaptureQueriesContext(connection) as first:
        api.ok(game, "roll")
    with CaptureQueriesContext(connection) as second:
        api.ok(game, "roll")
    assert round_trips(first.captured_queries) == round_trips(second.captured_queries) + 1
