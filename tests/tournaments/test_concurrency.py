"""A tournament's steps and its cancelling racing each other, with real threads on
PostgreSQL: every game of the schedule is started once, and a cancel that races a step
leaves no game unabandoned behind it."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Game, Tournament
from games.tournaments.running import tournament_step
from games.work.sweeps import Sweeps
from tests.conftest import postgres_only
from tests.tournaments.conftest import Arena, bot, computers, time_passes


def race(count: int, work: Callable[[], object]) -> None:
    barrier = threading.Barrier(count)

    def run() -> None:
        try:
            barrier.wait()
            work()
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_racing_sweeps_start_every_game_once():
    arena = Arena(APIClient())
    room = arena.open()
    entrants = [{"bot": bot(room, name)} for name in ("A", "B", "C")] + computers("random")
    cup = arena.set_ok(room, boards=2, entrants=entrants)
    for _ in range(3):
        time_passes(cup["id"])
        race(4, lambda: Sweeps().run())
    numbers = list(Game.objects.filter(tournament_id=cup["id"]).values_list(
        "tournament_game", flat=True))
    assert sorted(numbers) == list(range(1, len(numbers) + 1))
    # As far as the bots' 8 games at once allow (they never move): the first 16 of 24.
    assert Tournament.objects.get(pk=cup["id"]).started == len(numbers) == 16


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_a_step_leaves_nothing_being_played():
    arena = Arena(APIClient())
    room = arena.open()
    entrants = [{"bot": bot(room, name)} for name in ("A", "B")] + computers("greedy")
    cup = arena.set_ok(room, boards=3, entrants=entrants)
    path = arena.path(room, f"{cup['id']}/cancel/")

    def cancel_or_step(index: list[int] = [0]) -> None:  # noqa: B006
        index[0] += 1
        if index[0] == 1:
            APIClient().post(path, {}, format="json", HTTP_X_API_KEY=room.teacher_key)
        else:
            tournament_step(tournament_id=cup["id"])

    race(3, cancel_or_step)
    over = Tournament.objects.get(pk=cup["id"])
    assert over.status == "cancelled"
    assert not Game.objects.filter(tournament_id=cup["id"], status__in=["waiting", "active"])
    assert all(not g.dice_sealed for g in Game.objects.filter(tournament_id=cup["id"]))
