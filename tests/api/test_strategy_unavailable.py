"""A missing strategy table: 503 at once, its build queued for a worker (never built in a
request), then success on every host; a caller may queue only a few new tables an hour.

No request builds a table: the builder is wrapped to note the threads that call it, and
the request's thread (this test's) must never be one of them.
"""

import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models.functions import Now

from games.models import Event, Game, StrategyTable
from games.play import strategy as game_strategy
from games.work.builds import Builder
from scoring.boxgames.strategy import api as strategy_api
from scoring.boxgames.strategy import prepare_table, unload_all
from scoring.tenthousand.strategy import tables as tenthousand_tables
from tests.conftest import postgres_only

from .conftest import assert_problem

ROOT = Path(__file__).resolve().parents[2]


class BuildSpy:
    """The real table builders of this process, noting which threads call them."""

    def __init__(self, monkeypatch) -> None:
        self.threads: list[threading.Thread] = []
        for module in (strategy_api, tenthousand_tables):
            real = module.build
            monkeypatch.setattr(module, "build", self._noting(real))

    def _noting(self, real):
        def build(*args, **kwargs):
            self.threads.append(threading.current_thread())
            return real(*args, **kwargs)

        return build


@pytest.fixture
def tables(settings, tmp_path: Path):
    """An empty STRATEGY_DIR, and no table loaded in this process."""
    settings.STRATEGY_DIR = tmp_path / "here"
    unload_all()
    yield settings.STRATEGY_DIR
    unload_all()


@pytest.fixture
def spy(monkeypatch) -> BuildSpy:
    return BuildSpy(monkeypatch)


def worker_builds() -> int:
    """What one worker's table builder does with the queue now (each table in a niced
    child process, as ``run_worker`` does); how many it built."""
    builder = Builder(threading.Event(), interval=0.1)
    while builder.build_one():
        pass
    return builder.built


def assert_unavailable(response, name: str = "forced-yatzy") -> dict:
    problem = assert_problem(response, 503, "strategy_unavailable")
    assert response["Retry-After"] == str(game_strategy.RETRY_AFTER)
    assert name in problem["detail"]
    return problem


def another_host(settings, tmp_path: Path) -> None:
    """As if the next request came to a process with an empty folder of its own."""
    settings.STRATEGY_DIR = tmp_path / "elsewhere"
    unload_all()


def test_a_hint_without_its_table_is_503_until_a_worker_built_it_once_for_every_host(
    api, tables, spy, settings, tmp_path
):
    game = api.client.post(
        "/api/v1/games/", {"ruleset": "forced-yatzy", "players": [{"name": "Ann"}]},
        format="json",
    ).json()
    url = f"/api/v1/games/{game['id']}/hint/"
    assert "being built" in assert_unavailable(api.client.get(url))["detail"]
    assert_unavailable(api.client.get(url))  # asked again: still one build queued
    assert StrategyTable.objects.filter(built_at=None).count() == 1
    assert worker_builds() == 1
    assert spy.threads == []  # solved in the worker's child process, not in this one
    hint = api.client.get(url)
    assert hint.status_code == 200
    assert hint.json()["expected_final"] == pytest.approx(122.5585, abs=0.001)
    assert [p.name for p in tables.glob("*.npz")] == ["forced-yatzy.npz"]
    another_host(settings, tmp_path)
    assert api.client.get(url).status_code == 200  # copied from the database: no new build
    assert worker_builds() == 0 and spy.threads == []
    assert StrategyTable.objects.get().attempts == 1


def test_a_game_with_an_optimal_seat_is_not_created_until_its_table_is_built(
    api, tables, spy
):
    body = {"ruleset": "forced-yatzy", "players": [{"name": "Bot", "computer": "optimal"}]}
    assert_unavailable(api.client.post("/api/v1/games/", body, format="json"))
    assert not Game.objects.exists()
    assert worker_builds() == 1
    created = api.client.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201 and created.json()["status"] == "finished"
    assert spy.threads == []


def test_a_move_that_makes_an_optimal_seat_play_waits_for_no_table(api, tables, spy):
    prepare_table("forced-yatzy", {}, tables)
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "optimal"}]
    body = {"ruleset": "forced-yatzy", "players": players}
    game = api.client.post("/api/v1/games/", body, format="json").json()
    api.ok(game, "roll")
    # The table goes away (a new folder, a changed engine): the next move needs it.
    unload_all()
    for path in tables.glob("*.npz"):
        path.unlink()
    spy.threads.clear()
    before = api.get(game)
    events = Event.objects.filter(game_id=game["id"]).count()
    assert_unavailable(api.move(game, "score", {"category": "ones"}))
    assert api.get(game) == before, "a refused move changes nothing"
    assert Event.objects.filter(game_id=game["id"]).count() == events
    assert worker_builds() == 1 and spy.threads == []
    after = api.ok(game, "score", {"category": "ones"})
    assert after["round"] == 2 and after["current_seat"] == 0
    assert after["players"][1]["scorecard"]["ones"] is not None


def test_games_without_optimal_seats_need_no_table(api, tables, spy):
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}]
    game = api.client.post(
        "/api/v1/games/", {"ruleset": "yahtzee", "players": players}, format="json"
    ).json()
    api.play_turn(game)
    maxi = [{"name": "Bot", "computer": "optimal"}]
    created = api.client.post(
        "/api/v1/games/", {"ruleset": "maxi-yatzy", "players": maxi, "seed": 3}, format="json"
    )
    assert created.status_code == 201 and created.json()["status"] == "finished"
    assert spy.threads == [] and not StrategyTable.objects.exists()


TEN_THOUSAND_ADVICE = "/api/v1/rulesets/ten-thousand/advice/"


def ask_ten_thousand(api, bank_minimum: int, address: str = "203.0.113.7"):
    body = {"options": {"bank_minimum": bank_minimum}, "totals": [0, 0]}
    return api.client.post(TEN_THOUSAND_ADVICE, body, format="json", REMOTE_ADDR=address)


def test_twenty_bank_minimums_from_one_client_queue_three_builds_and_refuse_the_rest(
    api, tables, spy
):
    minimums = [100 + 50 * i for i in range(20)]
    problems = [
        assert_unavailable(ask_ten_thousand(api, m), f"bank minimum of {m}") for m in minimums
    ]
    queued = {row.options["bank_minimum"] for row in StrategyTable.objects.all()}
    assert queued == {100, 150, 200}
    assert all("not queued" in p["detail"] for p in problems[3:])
    assert all("being built" in p["detail"] for p in problems[:3])
    # A table queued already is asked for again without counting against the client...
    again = assert_unavailable(ask_ten_thousand(api, 150), "bank minimum of 150")
    assert "being built" in again["detail"]
    # ...and another client has a share of its own.
    other = ask_ten_thousand(api, 900, address="198.51.100.2")
    assert "being built" in assert_unavailable(other, "bank minimum of 900")["detail"]
    assert StrategyTable.objects.count() == 4
    assert spy.threads == []


def test_no_build_is_queued_past_the_deployment_s_waiting_tables(api, tables, settings):
    settings.STRATEGY_BUILD_RATE = ""  # no limit per client
    settings.STRATEGY_BUILDS_WAITING = 2
    for number, minimum in enumerate((100, 150, 200)):
        ask_ten_thousand(api, minimum, address=f"203.0.113.{number}")
    assert sorted(r.options["bank_minimum"] for r in StrategyTable.objects.all()) == [100, 150]


# -- the workers' builds ----------------------------------------------------------------------


def test_a_build_whose_worker_died_is_taken_up_again_once_its_lease_runs_out(api, tables):
    from games.work import tables as queue

    url = "/api/v1/rulesets/forced-yatzy/advice/"
    assert_unavailable(api.client.post(url, {"dice": None}, format="json"))
    dead = queue.take(lease_seconds=60)  # a worker took it, then died: nobody renews it
    assert dead is not None and dead.attempts == 1
    assert worker_builds() == 0  # held: nobody else builds it meanwhile
    # The lease runs out (as a minute later, by the database's clock).
    StrategyTable.objects.update(leased_until=Now() - timedelta(seconds=1))
    assert worker_builds() == 1
    row = StrategyTable.objects.get()
    assert row.attempts == 2 and row.built_at is not None
    assert not queue.store(dead, b"late", seconds=1.0)  # the dead worker's lease is gone
    assert bytes(StrategyTable.objects.get().data) != b"late"
    assert api.client.post(url, {"dice": None}, format="json").status_code == 200


def worker_process(database: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database, "STRATEGY_BUILD_LEASE_SECONDS": "30"}
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--interval", "0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_worker_processes_build_a_queued_table_once(tables, settings):
    from django.db import connection

    from games.work import tables as queue

    for options in ({}, {"joker": "free", "yahtzee_bonus": "none"}):
        ruleset = "forced-yatzy" if not options else "yahtzee"
        queue.ask(queue.spec_of(ruleset, options))
    parts = connection.settings_dict
    database = f"postgres://{parts['USER']}@{parts['HOST']}:{parts['PORT']}/{parts['NAME']}"
    workers = [worker_process(database) for _ in range(2)]
    try:
        deadline = time.monotonic() + 180
        while StrategyTable.objects.filter(built_at=None).exists():
            assert time.monotonic() < deadline, "the workers built nothing"
            assert all(w.poll() is None for w in workers)
            time.sleep(0.2)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(30)
    assert sorted(StrategyTable.objects.values_list("name", "attempts")) == [
        ("forced-yatzy.npz", 1),
        ("yahtzee--joker-free--yahtzee_bonus-none.npz", 1),
    ]
