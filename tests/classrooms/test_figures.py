"""A finished student game's figures: kept once by a worker, read by the roster and the
results, and filled in for the games finished before they were kept (found the same way)."""

import importlib
from logging import WARNING
from pathlib import Path

import pytest
from django.apps import apps

from games.classrooms import figures
from games.models import Game, Player
from games.work import sweeps
from scoring.boxgames.strategy import prepare_table
from tests.api.conftest import run_due_work

LIMITS_MIGRATION = importlib.import_module("games.migrations.0012_limits")


@pytest.fixture
def forced(settings) -> None:
    """Forced Yatzy: its table solves in a fraction of a second."""
    prepare_table("forced-yatzy", {}, settings.STRATEGY_DIR)


def finished_game(classes, room, name: str = "Ann") -> dict:
    created = classes.create_with(
        classes.key_of(room, name),
        ruleset="forced-yatzy",
        players=[{"name": name}, {"name": "Bot", "computer": "greedy"}],
    ).json()
    return classes.play_to_the_end(created)


def test_a_worker_keeps_every_seats_accuracy_once_the_game_finishes(classes, forced):
    room = classes.open()
    classes.join(room, "Ann")
    game = finished_game(classes, room)
    assert list(Player.objects.filter(game_id=game["id"]).values_list("accuracy", flat=True)) == [
        None, None
    ]
    run_due_work()
    kept = dict(Player.objects.filter(game_id=game["id"]).values_list("seat", "accuracy"))
    answer = classes.client.get(f"/api/v1/games/{game['id']}/analysis/?seats=all").json()
    assert kept == {seat["seat"]: seat["accuracy"] for seat in answer["seats"]}
    assert kept[0] is not None


def test_only_a_students_finished_game_leaves_figures_to_keep(classes, forced):
    room = classes.open()
    classes.join(room, "Ann")
    classes.play_to_the_end(classes.create(ruleset="forced-yatzy"))  # no one's
    classes.create_with(classes.key_of(room, "Ann"), ruleset="forced-yatzy")  # not finished
    assert figures.figures_due() is None
    maxi = classes.play_to_the_end(
        classes.create_with(classes.key_of(room, "Ann"), ruleset="maxi-yatzy").json()
    )  # a ruleset without analysis: kept with no accuracy
    run_due_work()
    assert Game.objects.get(pk=maxi["id"]).figures_kept
    assert Player.objects.get(game_id=maxi["id"]).accuracy is None
    assert figures.figures_due() is None


def test_a_missing_table_puts_the_figures_off_not_away(
    classes, forced, settings, tmp_path: Path, caplog
):
    from games.models import StrategyTable

    caplog.set_level("INFO", logger="games.work")
    room = classes.open()
    classes.join(room, "Ann")
    game = finished_game(classes, room)
    settings.STRATEGY_DIR = tmp_path  # no table here, nor in the database
    run_due_work()
    queued = StrategyTable.objects.get()  # its build is queued for a worker
    assert (queued.name, queued.built_at) == ("forced-yatzy.npz", None)
    assert Player.objects.get(game_id=game["id"], seat=0).accuracy is None
    assert not Game.objects.get(pk=game["id"]).figures_kept  # still due: tried again later
    assert figures.figures_due() is not None
    # Foreseen, and tried again every few seconds: one line each time, no traceback (beside
    # the line saying the table's build is queued).
    logged = [r for r in caplog.records if r.name == "games.work" and r.levelno >= WARNING]
    assert len(logged) == 1 and logged[0].exc_info is None
    assert "not built yet" in logged[0].getMessage() and "tried again" in logged[0].getMessage()


def test_an_unforeseen_failure_of_the_figures_keeps_its_traceback(classes, forced, monkeypatch,
                                                                  caplog):
    room = classes.open()
    classes.join(room, "Ann")
    finished_game(classes, room)

    def broken(**_: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(sweeps, "_keep", lambda game_id: broken())
    run_due_work()
    logged = [r for r in caplog.records if r.name == "games.work"]
    assert len(logged) == 1 and logged[0].exc_info is not None


def test_the_games_finished_before_are_filled_in_too(classes, forced):
    room = classes.open()
    for name in ("Ann", "Ben", "Cleo"):
        classes.join(room, name)
    games = [finished_game(classes, room, name) for name in ("Ann", "Ben", "Cleo")]
    # As if they had finished before figures were kept: the migration leaves them not kept.
    Game.objects.update(figures_kept=False)
    Player.objects.update(accuracy=None)
    run_due_work()
    seats = Player.objects.filter(game_id__in=[g["id"] for g in games], seat=0)
    assert all(accuracy is not None for accuracy in seats.values_list("accuracy", flat=True))


def test_the_migration_keeps_only_a_teachers_lowering_of_the_quota(classes, settings):
    from games.models import Classroom

    room = classes.open()
    other = classes.open("6A")
    Classroom.objects.filter(pk=room.id).update(
        quota={"games_per_hour": 1_000_000, "advice_per_hour": 50}
    )
    Classroom.objects.filter(pk=other.id).update(
        quota={"games_per_hour": 6000, "advice_per_hour": 10000}
    )
    LIMITS_MIGRATION.quotas_within_defaults(apps, None)
    assert Classroom.objects.get(pk=room.id).quota == {"advice_per_hour": 50}
    assert Classroom.objects.get(pk=other.id).quota == {}
