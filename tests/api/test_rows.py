"""The plain-SQL writes of a move write what the ORM would (games/rows.py)."""

import pytest

from games.models import Event, Game, Player
from games.rows import insert_rows, update_row

pytestmark = pytest.mark.django_db


def test_an_updated_row_reads_back_as_written_and_its_auto_now_date_moves() -> None:
    game = Game.objects.create(ruleset="yahtzee", state={"a": [1, None, "x"]})
    before = game.updated_at
    game.state = {"dice": [6, 6, 6, 6, 6], "nested": {"ok": True}}
    game.winners = [0, 2]
    update_row(game, ["state", "winners", "updated_at"])
    again = Game.objects.get(pk=game.pk)
    assert again.state == {"dice": [6, 6, 6, 6, 6], "nested": {"ok": True}}
    assert again.winners == [0, 2]
    assert again.updated_at > before and again.updated_at == game.updated_at


def test_inserted_rows_read_back_as_written_with_their_creation_time() -> None:
    game = Game.objects.create(ruleset="yahtzee")
    Player.objects.create(game=game, seat=0, name="Ann")
    insert_rows(Event, [
        Event(game=game, seq=1, type="rolled", seat=0, data={"dice": [1, 2, 3, 4, 5]}),
        Event(game=game, seq=2, type="held", seat=None, data={}),
    ])
    insert_rows(Event, [])  # nothing to write: no statement, no error
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [(e.seq, e.type, e.seat, e.data) for e in events] == [
        (1, "rolled", 0, {"dice": [1, 2, 3, 4, 5]}), (2, "held", None, {}),
    ]
    assert all(e.created_at is not None for e in events)
