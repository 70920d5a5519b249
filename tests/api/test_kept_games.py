"""A move of a game this process wrote last: decided on the game as kept, written in one
round trip if nobody wrote the game since, decided again on the game read under its lock
if somebody did (docs/architecture.md, "A move's path")."""

import datetime as dt
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from prometheus_client import REGISTRY
from rest_framework.test import APIClient

from games.db import clock, kept
from games.db.clock import db_now
from games.models import Event, Game
from tests.bench.queries import round_trips
from tests.conftest import pins_the_fast_path, postgres_only

from .conftest import Api, assert_problem

pytestmark = [postgres_only, pins_the_fast_path, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def api() -> Api:
    return Api(APIClient())


def trips(api: Api, game: dict, action: str, body: dict | None = None, **kw):
    """The answer to a move and the round trips to the database it took."""
    with CaptureQueriesContext(connection) as queries:
        response = api.move(game, action, body, **kw)
    return response, round_trips(queries.captured_queries)


def stored(game: dict) -> tuple[int, list[str]]:
    """The game's version and its log's event types, as the database holds them."""
    row = Game.objects.get(pk=game["id"])
    return row.version, list(
        Event.objects.filter(game_id=game["id"]).order_by("seq").values_list("type", flat=True)
    )


def plays() -> dict[str, float]:
    """``dice_plays_total`` by path, as ``/metrics`` shows it for this process."""
    return {
        path: REGISTRY.get_sample_value("dice_plays_total", {"path": path}) or 0.0
        for path in ("kept", "read", "read_again")
    }


def test_a_move_of_a_game_this_process_wrote_last_takes_one_round_trip(api):
    game = api.create()
    before = plays()
    rolled, calls = trips(api, game, "roll")
    assert rolled.status_code == 200 and rolled.json()["version"] == 2
    assert calls == 1
    assert plays()["kept"] - before["kept"] == 1
    held, calls = trips(api, game, "hold", {"hold": [0, 1]})
    assert held.status_code == 200 and calls == 1
    assert held.json()["turn"]["dice"] == rolled.json()["turn"]["dice"]
    assert stored(game) == (3, ["created", "rolled", "held"])


def test_a_game_this_process_does_not_keep_is_read_under_its_lock(api):
    game = api.create()
    kept.clear()  # as if the game had been created by another process
    rolled, calls = trips(api, game, "roll")
    assert rolled.status_code == 200 and calls == 2
    _, calls = trips(api, game, "hold", {"hold": [0]})
    assert calls == 1  # kept since the roll


def test_a_game_written_elsewhere_since_is_played_as_it_now_stands(api):
    """Process A keeps the game at version 2; process B rolls it to version 3; A's copy is
    stale: A's next move is refused by the database, then decided on the game as it is."""
    game = api.create()
    api.ok(game, "roll")
    in_a = dict(kept._games)
    kept.clear()
    again = api.ok(game, "roll")  # in B, which reads it
    kept._games.update(in_a)
    before = plays()
    held, calls = trips(api, game, "hold", {"hold": [0, 1, 2]})
    after = plays()
    assert {path: after[path] - before[path] for path in after} == {
        "kept": 0, "read": 0, "read_again": 1
    }
    assert held.status_code == 200, held.json()
    assert held.json()["version"] == 4
    assert held.json()["turn"]["dice"] == again["turn"]["dice"]  # B's roll, not A's
    assert held.json()["turn"]["rolls_left"] == again["turn"]["rolls_left"] == 1
    assert calls == 3  # the refused write, then the read and the write
    assert stored(game) == (4, ["created", "rolled", "rolled", "held"])


def test_any_writer_of_the_game_row_makes_the_kept_copy_stale(api):
    """Not only the moves: a write that changes no version (the housekeeping of a finished
    game's figures, an operator's UPDATE) gives the row a new version number too."""
    game = api.create()
    api.ok(game, "roll")
    Game.objects.filter(pk=game["id"]).update(figures_kept=False)
    held, calls = trips(api, game, "hold", {"hold": [0]})
    assert held.status_code == 200 and calls == 3
    assert stored(game)[0] == 3


def test_a_stale_copy_that_refuses_the_move_is_not_the_answer(api):
    """A's copy says the turn has no rolls left; B has scored meanwhile, so a roll is the
    next turn's first: the move is played, not refused."""
    game = api.create()
    for _ in range(3):
        rolled = api.ok(game, "roll")
    in_a = dict(kept._games)
    kept.clear()
    api.ok(game, "score", {"category": next(iter(rolled["choices"]))})
    kept._games.update(in_a)
    again, calls = trips(api, game, "roll")
    assert again.status_code == 200, again.json()
    assert again.json()["turn"]["rolls_used"] == 1 and calls == 3
    assert stored(game)[1][-2:] == ["scored", "rolled"]


def test_a_refusal_on_a_kept_game_is_the_refusal_of_the_game_read_again(api):
    game = api.create()
    api.ok(game, "roll")
    refused = api.move(game, "roll", token="not-a-seat-token")
    assert_problem(refused, 401, "invalid_token")
    for _ in range(2):
        api.ok(game, "roll")
    assert_problem(api.move(game, "roll"), 409, "no_rolls_left")
    assert stored(game)[0] == 4


def test_a_kept_clocked_game_sets_its_deadline_by_the_databases_time(api):
    game = api.create(("Ann", "Ben"), clock={"turn_seconds": 30})
    rolled, calls = trips(api, game, "roll")
    assert calls == 1
    deadline = dt.datetime.fromisoformat(rolled.json()["clock"]["deadline"])
    expected = db_now() + dt.timedelta(seconds=30)
    assert abs((deadline - expected).total_seconds()) < 1
    assert Game.objects.get(pk=game["id"]).deadline == deadline


def test_a_kept_game_whose_clock_ran_out_by_the_databases_time_is_not_moved(api, monkeypatch):
    """This process's idea of the database's time runs 40 s late: its copy of the game says
    the turn has time left, the database says the deadline has passed. The move is refused
    as out of time, and nothing is written."""
    game = api.create(("Ann", "Ben"), clock={"turn_seconds": 30})
    late = clock.estimated
    monkeypatch.setattr(clock, "estimated", lambda: late() - dt.timedelta(seconds=40))
    api.ok(game, "roll")  # its deadline set 40 s early: 10 s ago by the database's clock
    before = stored(game)
    refused, calls = trips(api, game, "hold", {"hold": [0]})
    assert_problem(refused, 409, "not_your_turn")
    assert calls == 3
    assert stored(game) == before


def test_a_kept_game_past_its_due_time_by_the_databases_time_is_not_moved(api, monkeypatch):
    """A game of an assignment is due half a second after its roll; this process's idea of
    the database's time runs 40 s late, so its copy says the game is not due yet."""
    game = api.create()
    Game.objects.filter(pk=game["id"]).update(due_at=db_now() + dt.timedelta(seconds=0.5))
    api.ok(game, "roll")
    late = clock.estimated
    monkeypatch.setattr(clock, "estimated", lambda: late() - dt.timedelta(seconds=40))
    time.sleep(0.6)
    refused, calls = trips(api, game, "hold", {"hold": [0]})
    assert_problem(refused, 409, "game_not_active")
    assert calls == 3
    assert stored(game)[0] == 2


def test_the_games_kept_are_bounded(api, settings):
    settings.GAMES_KEPT = 2
    games = [api.create() for _ in range(3)]
    calls = [trips(api, game, "roll")[1] for game in reversed(games)]
    assert calls == [1, 1, 2]  # the third creation let the first game go
    assert len(kept._games) == 2


def test_a_finished_game_is_let_go(api):
    game = api.create()
    for _ in range(13):
        api.play_turn(game)
    assert api.get(game)["status"] == "finished"
    assert kept._games == {}


def test_the_estimated_time_is_not_trusted_once_old(monkeypatch):
    now, tick = dt.datetime(2026, 1, 1, tzinfo=dt.UTC), [100.0]
    monkeypatch.setattr(clock.time, "monotonic", lambda: tick[0])
    clock.learn(now)
    tick[0] += 0.25
    assert clock.estimated() == now + dt.timedelta(seconds=0.25)
    tick[0] += clock.TRUSTED_SECONDS
    assert clock.estimated() is None
