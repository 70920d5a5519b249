"""abandon_idle_games: idle open games end abandoned, through the service; nothing else moves."""

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from config.env import env_int
from games.models import Event, Game
from games.play import services
from scoring.match import GameStatus
from tests.api.conftest import Api, assert_problem


@pytest.fixture
def games(db: None) -> Api:
    return Api(APIClient())


def idle_for(game: dict[str, Any], days: float) -> None:
    Game.objects.filter(pk=game["id"]).update(updated_at=timezone.now() - timedelta(days=days))


def abandon_idle(*args: str) -> str:
    out = StringIO()
    call_command("abandon_idle_games", *args, stdout=out)
    return out.getvalue()


def status(game: dict[str, Any]) -> str:
    return Game.objects.get(pk=game["id"]).status


def test_open_games_idle_longer_than_the_days_are_abandoned_and_logged(games):
    fresh = games.create(("Ann",))
    rolled = games.create(("Ben",))
    games.ok(rolled, "roll")
    waiting = games.create(("Cid",))
    Game.objects.filter(pk=waiting["id"]).update(status=GameStatus.WAITING)
    idle = [fresh, rolled, waiting]
    before = {game["id"]: games.get(game)["version"] for game in idle}
    for game in idle:
        idle_for(game, 4)

    assert "Abandoned 3 game(s)" in abandon_idle("--days", "3")

    for game in idle:
        now = games.get(game)
        assert now["status"] == "abandoned"
        assert now["version"] == before[game["id"]] + 1
        last = games.events(game)[-1]
        assert (last["type"], last["data"]) == ("abandoned", {"by": "idle"})


def test_moves_on_an_abandoned_game_are_refused(games):
    game = games.create(("Ann",))
    games.ok(game, "roll")
    idle_for(game, 4)
    abandon_idle("--days", "3")
    assert_problem(games.move(game, "score", {"category": "chance"}), 409, "game_not_active")
    assert_problem(games.move(game, "roll"), 409, "game_not_active")


def test_recent_finished_and_abandoned_games_are_left_alone(games):
    recent = games.create(("Ann",))
    idle_for(recent, 2)
    finished = games.create(("Ben",))
    for _ in range(13):
        games.play_turn(finished)
    idle_for(finished, 10)
    abandoned = games.create(("Cid",))
    services.game_abandon(game_id=abandoned["id"], by="test")
    idle_for(abandoned, 10)
    events = Event.objects.count()

    assert "Abandoned 0 game(s)" in abandon_idle("--days", "3")

    assert [status(recent), status(finished), status(abandoned)] == [
        "active",
        "finished",
        "abandoned",
    ]
    assert Event.objects.count() == events


def test_a_second_run_abandons_nothing_more(games):
    game = games.create(("Ann",))
    idle_for(game, 4)
    assert "Abandoned 1 game(s)" in abandon_idle("--days", "3")
    logged = len(games.events(game))
    assert "Abandoned 0 game(s)" in abandon_idle("--days", "3")
    assert len(games.events(game)) == logged


def test_a_dry_run_lists_the_idle_games_and_changes_nothing(games):
    idle = games.create(("Ann",))
    idle_for(idle, 4)
    recent = games.create(("Ben",))
    version = games.get(idle)["version"]

    out = abandon_idle("--days", "3", "--dry-run")

    assert idle["id"] in out
    assert recent["id"] not in out
    assert "Would abandon 1 game(s)" in out
    assert status(idle) == "active"
    assert games.get(idle)["version"] == version


def test_the_days_default_to_the_setting(games, settings):
    settings.ABANDON_AFTER_DAYS = 5
    older = games.create(("Ann",))
    idle_for(older, 6)
    younger = games.create(("Ben",))
    idle_for(younger, 4)

    assert "Abandoned 1 game(s) idle for 5+ days" in abandon_idle()

    assert (status(older), status(younger)) == ("abandoned", "active")


@pytest.mark.parametrize("days", ["0", "-1", "soon"])
def test_the_days_must_be_a_whole_number_of_at_least_one(db, days):
    with pytest.raises(CommandError, match="--days"):
        abandon_idle("--days", days)


@pytest.mark.parametrize("raw", ["thirty", "0"])
def test_a_bad_setting_fails_at_startup(monkeypatch, raw):
    monkeypatch.setenv("ABANDON_AFTER_DAYS", raw)
    with pytest.raises(ImproperlyConfigured, match="ABANDON_AFTER_DAYS"):
        env_int("ABANDON_AFTER_DAYS", 30, minimum=1)
