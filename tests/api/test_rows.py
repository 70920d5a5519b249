"""The plain-SQL reads and writes of a move match the ORM's (games/db/rows.py)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.db import rows
from games.models import Event, Game, Player

pytestmark = pytest.mark.django_db


def test_an_updated_row_reads_back_as_written_and_its_auto_now_date_moves() -> None:
    game = Game.objects.create(ruleset="yahtzee", state={"a": [1, None, "x"]})
    before = game.updated_at
    game.state = {"dice": [6, 6, 6, 6, 6], "nested": {"ok": True}}
    game.winners = [0, 2]
    rows.run([rows.update(game, ["state", "winners", "updated_at"])])
    again = Game.objects.get(pk=game.pk)
    assert again.state == {"dice": [6, 6, 6, 6, 6], "nested": {"ok": True}}
    assert again.winners == [0, 2]
    assert again.updated_at > before and again.updated_at == game.updated_at


def test_inserted_rows_read_back_as_written_with_their_creation_time() -> None:
    game = Game.objects.create(ruleset="yahtzee")
    Player.objects.create(game=game, seat=0, name="Ann")
    rows.run(rows.insert(Event, [
        Event(game=game, seq=1, type="rolled", seat=0, data={"dice": [1, 2, 3, 4, 5]}),
        Event(game=game, seq=2, type="held", seat=None, data={}),
    ]))
    assert rows.insert(Event, []) == []  # nothing to write: no statement
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [(e.seq, e.type, e.seat, e.data) for e in events] == [
        (1, "rolled", 0, {"dice": [1, 2, 3, 4, 5]}), (2, "held", None, {}),
    ]
    assert all(e.created_at is not None for e in events)


def test_objects_read_are_those_the_orm_reads() -> None:
    game = Game.objects.create(
        ruleset="yahtzee", options={"jokers": "free"}, state={"dice": [1, 2, 3, 4, 5]},
        winners=[1], seed=7,
    )
    Player.objects.create(game=game, seat=1, name="Bob", computer="greedy", total=12)
    Player.objects.create(game=game, seat=0, name="Ann", token_hash="ab" * 32)
    key = Game._meta.pk.get_db_prep_value(game.pk, connection)
    found, seats = rows.run([
        rows.select(Game, "id = %s", [key]),
        rows.select(Player, "game_id = %s", [key], tail=" ORDER BY seat"),
    ])
    read = rows.instances(Game, found)[0]
    expected = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    players = rows.instances(Player, seats)
    assert [p.seat for p in players] == [0, 1]
    orm_players = Player.objects.filter(game=game).order_by("seat")
    for read_player, orm_player in zip(players, orm_players, strict=True):
        assert read_player == orm_player
        for field in Player._meta.concrete_fields:
            assert getattr(read_player, field.attname) == getattr(orm_player, field.attname)
    assert not read._state.adding and read._state.db == "default"


def test_on_postgresql_the_statements_of_a_step_go_in_one_round_trip() -> None:
    game = Game.objects.create(ruleset="yahtzee")
    key = Game._meta.pk.get_db_prep_value(game.pk, connection)
    game.status = "finished"
    statements = [
        rows.update(game, ["status"]),
        rows.select(Game, "id = %s", [key]),
        *rows.insert(Event, [Event(game=game, seq=1, type="rolled", seat=0, data={})]),
        rows.select(Event, "game_id = %s", [key]),
    ]
    with CaptureQueriesContext(connection) as queries:
        written, games, inserted, events = rows.run(statements)
    assert written == [] and inserted == []
    # Each statement sees the ones before it.
    assert rows.instances(Game, games)[0].status == "finished"
    assert [e.seq for e in rows.instances(Event, events)] == [1]
    assert len(queries) == (1 if connection.vendor == "postgresql" else 4)
