"""Turn clocks (docs/contract.md, "Turn clocks"): a deadline for each move of a person, the turn
played as the greedy computer would by a worker once it passes, a ``timed_out`` event, the
seat leaving after ``max_timeouts`` in a row, and a move racing the deadline landing or
refused, never both."""

import datetime as dt
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from games.play.services import game_time_out
from tests.conftest import postgres_only

from .conftest import Api, assert_problem, run_due_work


def clocked(api, names=("Ann", "Ben"), **clock) -> dict:
    return api.create(names, clock={"turn_seconds": 30, **clock})


def time_passes(game: dict) -> None:
    """The deadline passes."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Game.objects.filter(pk=game["id"]).update(deadline=past)


def deadline_of(shown: dict) -> dt.datetime:
    return dt.datetime.fromisoformat(shown["clock"]["deadline"])


def test_a_game_with_a_clock_shows_the_deadline_of_the_person_to_move(api):
    before = timezone.now()
    game = clocked(api, max_timeouts=2)
    assert game["clock"]["turn_seconds"] == 30 and game["clock"]["max_timeouts"] == 2
    assert before + dt.timedelta(seconds=30) <= deadline_of(game) <= timezone.now() + dt.timedelta(
        seconds=30
    )
    rolled = api.ok(game, "roll")
    assert deadline_of(rolled) >= deadline_of(game)  # every move sets the next one
    assert api.create()["clock"] is None


def test_nobody_has_a_deadline_while_a_game_waits(api):
    game = api.create(("Ann",), open_seats=1, clock={"turn_seconds": 60})
    assert game["status"] == "waiting" and game["clock"]["deadline"] is None
    joined = api.client.post(f"/api/v1/games/{game['id']}/join/", {"name": "Ben"},
                             format="json").json()
    assert joined["status"] == "active" and joined["clock"]["deadline"] is not None
    assert game["clock"]["max_timeouts"] == 3


@pytest.mark.parametrize(
    "clock",
    [{"turn_seconds": 9}, {"turn_seconds": 604_801}, {"turn_seconds": 30, "max_timeouts": 0},
     {"turn_seconds": 30, "max_timeouts": 11}, {"max_timeouts": 2}, {"turn_seconds": "30"},
     {"turn_seconds": 30, "colour": "red"}],
    ids=["too-short", "too-long", "no-timeouts", "too-many", "no-seconds", "a-string",
         "unknown-field"],
)
def test_a_clock_out_of_bounds_is_refused(api, clock):
    before = Game.objects.count()
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}], "clock": clock}
    response = api.client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400, response.json()
    assert Game.objects.count() == before


def test_when_the_deadline_passes_the_turn_is_played_for_the_seat(api):
    game = clocked(api)
    api.ok(game, "roll")
    time_passes(game)
    run_due_work()
    shown = api.get(game)
    assert shown["current_seat"] == 1 and shown["version"] > 2
    log = api.events(game)
    timed_out = next(e for e in log if e["type"] == "timed_out")
    assert timed_out["seat"] == 0 and timed_out["data"]["seat"] == 0
    after = [e for e in log if e["seq"] > timed_out["seq"]]
    assert after[0]["seat"] == 0 and after[-1]["type"] in ("scored", "scratched")
    assert shown["players"][0]["scorecard"] != game["players"][0]["scorecard"]
    assert deadline_of(shown) > timezone.now()  # Ben's clock runs now


def test_a_clock_fires_once_however_often_it_is_run(api):
    game = clocked(api)
    time_passes(game)
    assert game_time_out(game_id=game["id"]) is True
    assert game_time_out(game_id=game["id"]) is False  # the next seat's deadline is ahead
    run_due_work()
    assert [e["type"] for e in api.events(game)].count("timed_out") == 1


def test_a_host_whose_clock_runs_ahead_fires_nothing_early_and_refuses_no_move(
    api, monkeypatch
):
    """Deadlines are set and compared by the database's clock: a worker or a server whose
    own clock runs a minute ahead neither fires a clock early nor refuses a move early."""
    game = clocked(api)
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + dt.timedelta(seconds=60))
    run_due_work()
    assert "timed_out" not in [e["type"] for e in api.events(game)]
    rolled = api.ok(game, "roll")
    # The deadline the move set is 30 s from the database's time, not from the host's.
    assert deadline_of(rolled) <= real_now() + dt.timedelta(seconds=31)
    monkeypatch.setattr(timezone, "now", real_now)
    time_passes(game)
    run_due_work()
    assert [e["type"] for e in api.events(game)].count("timed_out") == 1


def test_a_clocked_move_costs_the_queries_of_a_plain_one(api):
    """No task is queued per move: the worker finds the deadline on the game itself."""
    plain, timed = api.create(("Ann",)), clocked(api, ("Ann",))
    with CaptureQueriesContext(connection) as plain_queries:
        api.ok(plain, "roll")
    with CaptureQueriesContext(connection) as timed_queries:
        api.ok(timed, "roll")
    assert len(timed_queries) == len(plain_queries)


def test_a_clock_whose_firing_fails_is_tried_again_and_holds_up_no_other(api, monkeypatch):
    from games.play import services
    from games.work.sweeps import PassedOver, Sweeps

    broken, fine = clocked(api), clocked(api)
    time_passes(broken)
    time_passes(fine)
    real = services.game_time_out

    def failing(*, game_id):
        if str(game_id) == broken["id"]:
            raise RuntimeError("a fault in this game's firing")
        return real(game_id=game_id)

    monkeypatch.setattr(services, "game_time_out", failing)
    sweeps = Sweeps()
    sweeps.run()
    assert "timed_out" in [e["type"] for e in api.events(fine)]  # the other clock fired
    assert "timed_out" not in [e["type"] for e in api.events(broken)]
    assert Game.objects.get(pk=broken["id"]).deadline is not None  # not marked done
    monkeypatch.setattr(services, "game_time_out", real)
    sweeps.run()
    assert "timed_out" not in [e["type"] for e in api.events(broken)]  # passed over a while
    monkeypatch.setattr(PassedOver, "now", lambda self: [])
    sweeps.run()  # ...then tried again
    assert [e["type"] for e in api.events(broken)].count("timed_out") == 1


def test_a_seat_leaves_after_max_timeouts_in_a_row(api):
    game = clocked(api, ("Ann", "Ben", "Cleo"), max_timeouts=2)
    for _ in range(2):  # Ann's turn, then Ben's
        time_passes(game)
        run_due_work()
    assert api.get(game)["current_seat"] == 2
    api.play_turn(game, seat=2)  # Cleo moves in time: her count stays 0
    time_passes(game)
    run_due_work()  # Ann's second timeout in a row
    shown = api.get(game)
    assert shown["players"][0]["left"] is True and shown["players"][1]["left"] is False
    assert [e["type"] for e in api.events(game)][-1] != "timed_out"


def test_a_move_in_time_resets_the_count_of_timeouts(api):
    game = clocked(api, ("Ann",), max_timeouts=2)
    time_passes(game)
    run_due_work()
    api.play_turn(game)
    time_passes(game)
    run_due_work()
    assert api.get(game)["players"][0]["left"] is False


def test_a_move_after_the_deadline_is_refused_and_changes_nothing(api):
    game = clocked(api)
    time_passes(game)
    before = Game.objects.get(pk=game["id"]).version
    assert_problem(api.move(game, "roll"), 409, "not_your_turn")
    assert Game.objects.get(pk=game["id"]).version == before


def test_a_game_played_partly_by_its_clock_verifies(api):
    game = clocked(api, ("Ann",), max_timeouts=10)
    for _ in range(13):
        time_passes(game)
        run_due_work()
    shown = api.get(game)
    assert shown["status"] == "finished"
    record = api.client.get(f"/api/v1/games/{game['id']}/record/").json()
    verdict = api.client.post("/api/v1/records/verify/", record, format="json").json()
    assert verdict["valid"] is True and verdict["checked"]["dice"] > 0


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("offset_ms", [-30, -10, 0, 10, 30])
def test_a_move_racing_its_deadline_lands_or_is_refused_never_both(offset_ms, settings):
    """A worker fires the clock while the seat rolls, around the deadline: either the roll
    lands and the firing does nothing, or the turn times out and the roll is refused."""
    settings.THROTTLE_RATES = {}
    api = Api(APIClient())
    game = clocked(api)
    deadline = timezone.now() + dt.timedelta(milliseconds=150)
    Game.objects.filter(pk=game["id"]).update(deadline=deadline)
    version = Game.objects.get(pk=game["id"]).version
    barrier = threading.Barrier(2)
    answers: dict[str, object] = {}

    def roll() -> None:
        try:
            barrier.wait()
            _sleep_until(deadline + dt.timedelta(milliseconds=offset_ms))
            answers["roll"] = Api(APIClient()).move(game, "roll").status_code
        finally:
            connection.close()

    def fire() -> None:
        try:
            barrier.wait()
            _sleep_until(deadline)
            fired = False
            while not fired and timezone.now() < deadline + dt.timedelta(seconds=2):
                fired = game_time_out(game_id=game["id"])
                if Game.objects.get(pk=game["id"]).version != version:
                    break
            answers["fired"] = fired
        finally:
            connection.close()

    threads = [threading.Thread(target=roll), threading.Thread(target=fire)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (answers["roll"], answers["fired"]) in {(200, False), (409, True)}
    kinds = [e["type"] for e in api.events(game)]
    assert kinds.count("timed_out") == (1 if answers["fired"] else 0)


def _sleep_until(moment: dt.datetime) -> None:
    import time

    wait = (moment - timezone.now()).total_seconds()
    if wait > 0:
        time.sleep(wait)
