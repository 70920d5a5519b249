"""On PostgreSQL the event log tells listeners of each committed change (migration 0006)."""

import psycopg
import pytest
from django.db import connection, transaction

from games.db.notify import CHANNEL, listen_parameters
from games.models import Event, Game
from tests.conftest import postgres_only

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def heard(listener: psycopg.Connection) -> list[str]:
    listener.execute("SELECT 1")  # a round trip delivers what has been sent so far
    return [note.payload for note in listener.notifies(timeout=0.2, stop_after=50)]


@pytest.fixture
def listener():
    with psycopg.connect(**listen_parameters(connection.settings_dict), autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        yield conn


def test_a_committed_move_is_announced_with_its_last_event(api, listener) -> None:
    game = api.create()
    heard(listener)  # the new game's own announcement
    api.ok(game, "roll")
    api.ok(game, "hold", {"hold": [0]})
    assert heard(listener) == [f"{game['id']}:2", f"{game['id']}:3"]


def test_a_refused_move_and_a_rolled_back_change_announce_nothing(api, listener) -> None:
    game = api.create()
    heard(listener)
    assert api.move(game, "score", {"category": "chance"}).status_code == 409  # not rolled yet
    with pytest.raises(RuntimeError), transaction.atomic():
        Event.objects.create(game=Game.objects.get(pk=game["id"]), seq=99, type="rolled", data={})
        raise RuntimeError("the change fails after its event was written")
    assert heard(listener) == []
