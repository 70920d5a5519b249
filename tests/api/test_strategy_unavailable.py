"""A missing strategy table: 503 at once, one build in the background, then success.

No request builds a table: the builder is wrapped to note the thread that calls it, and the
request's thread (this test's) must never be one of them.
"""

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.models import Event, Game
from games.play import strategy as game_strategy
from scoring.boxgames.strategy import api as strategy_api
from scoring.boxgames.strategy import prepare_table, unload_all

from .conftest import assert_problem

ROOT = Path(__file__).resolve().parents[2]


class Builder:
    """The real table builder, noting which threads call it; ``gate`` can hold it back."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.gate.set()
        self._build = strategy_api.build

    def __call__(self, *args, **kwargs):
        self.threads.append(threading.current_thread())
        self.entered.set()
        assert self.gate.wait(60), "the gate was never opened"
        return self._build(*args, **kwargs)

    def in_request_thread(self) -> bool:
        return threading.current_thread() in self.threads


@pytest.fixture
def tables(settings, tmp_path: Path) -> Iterator[Path]:
    """An empty STRATEGY_DIR, and no table loaded in this process."""
    settings.STRATEGY_DIR = tmp_path
    unload_all()
    yield tmp_path
    game_strategy.wait_for_builds(60)
    unload_all()


@pytest.fixture
def builder(monkeypatch) -> Builder:
    spy = Builder()
    monkeypatch.setattr(strategy_api, "build", spy)
    return spy


def assert_unavailable(response) -> None:
    problem = assert_problem(response, 503, "strategy_unavailable")
    assert response["Retry-After"] == str(game_strategy.RETRY_AFTER)
    assert "forced-yatzy" in problem["detail"]


def wait_for_build() -> None:
    game_strategy.wait_for_builds(60)


def test_a_hint_without_its_table_is_503_and_the_table_is_built_in_the_background(
    api, tables, builder
):
    game = api.client.post(
        "/api/v1/games/", {"ruleset": "forced-yatzy", "players": [{"name": "Ann"}]},
        format="json",
    ).json()
    url = f"/api/v1/games/{game['id']}/hint/"
    assert_unavailable(api.client.get(url))
    assert not builder.in_request_thread()
    wait_for_build()
    assert len(builder.threads) == 1 and builder.threads[0].name.startswith("strategy-build")
    hint = api.client.get(url)
    assert hint.status_code == 200
    assert hint.json()["expected_final"] == pytest.approx(122.5585, abs=0.001)
    assert [p.name for p in tables.glob("*.npz")] == ["forced-yatzy.npz"]


def test_requests_during_a_build_are_refused_at_once_and_start_no_second_build(
    api, tables, builder
):
    builder.gate.clear()  # the background build starts, then waits here
    url = "/api/v1/rulesets/forced-yatzy/advice/"
    assert_unavailable(api.client.post(url, {"dice": None}, format="json"))
    assert builder.entered.wait(30)
    # The build holds its locks; these requests must not wait for it (the gate is shut:
    # a request that waited would never come back with 503 before it opens).
    for _ in range(3):
        assert_unavailable(api.client.post(url, {"dice": None}, format="json"))
    assert not builder.gate.is_set()
    builder.gate.set()
    wait_for_build()
    assert len(builder.threads) == 1 and not builder.in_request_thread()
    advice = api.client.post(url, {"dice": None}, format="json")
    assert advice.status_code == 200
    assert advice.json()["expected_final"] == pytest.approx(122.5585, abs=0.001)


def test_a_game_with_an_optimal_seat_is_not_created_until_its_table_is_built(
    api, tables, builder
):
    body = {"ruleset": "forced-yatzy", "players": [{"name": "Bot", "computer": "optimal"}]}
    assert_unavailable(api.client.post("/api/v1/games/", body, format="json"))
    assert not Game.objects.exists()
    assert not builder.in_request_thread()
    wait_for_build()
    created = api.client.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201 and created.json()["status"] == "finished"


def test_a_move_that_makes_an_optimal_seat_play_waits_for_no_table(api, tables, builder):
    prepare_table("forced-yatzy", {}, tables)
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "optimal"}]
    body = {"ruleset": "forced-yatzy", "players": players}
    game = api.client.post("/api/v1/games/", body, format="json").json()
    api.ok(game, "roll")
    # The table goes away (a new folder, a changed engine): the next move needs it.
    unload_all()
    for path in tables.glob("*.npz"):
        path.unlink()
    builder.threads.clear()
    before = api.get(game)
    events = Event.objects.filter(game_id=game["id"]).count()
    assert_unavailable(api.move(game, "score", {"category": "ones"}))
    assert api.get(game) == before, "a refused move changes nothing"
    assert Event.objects.filter(game_id=game["id"]).count() == events
    assert not builder.in_request_thread()
    wait_for_build()
    after = api.ok(game, "score", {"category": "ones"})
    assert after["round"] == 2 and after["current_seat"] == 0
    assert after["players"][1]["scorecard"]["ones"] is not None


def test_games_without_optimal_seats_need_no_table(api, tables, builder):
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
    assert builder.threads == [] and not list(tables.glob("*.npz"))


LOCK_HOLDER = """
import sys
from pathlib import Path
import fcntl
from scoring.boxgames.strategy.model import model_for
from scoring.boxgames.strategy.table import build, solver_for, table_path

folder = Path(sys.argv[1])
model = model_for("forced-yatzy", {})
path = table_path(folder, model)
with open(path.with_name(path.name + ".lock"), "a") as lock:
    fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
    print("locked", flush=True)
    sys.stdin.readline()
    build(model, solver_for(model), folder)
"""


def test_a_process_waits_for_another_process_building_the_table_and_builds_nothing(
    tmp_path, builder
):
    unload_all()
    other = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(tmp_path)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert other.stdout.readline().strip() == "locked"
        answer: dict = {}
        waiter = threading.Thread(
            target=lambda: answer.update(result=prepare_table("forced-yatzy", {}, tmp_path))
        )
        waiter.start()
        waiter.join(1.0)  # time to find no table and reach the other process's lock
        assert waiter.is_alive(), "it must wait while the other process holds the lock"
        other.stdin.write("go\n")
        other.stdin.flush()
        assert other.wait(60) == 0
        waiter.join(60)
    finally:
        other.kill()
        unload_all()
    table, built = answer["result"]
    assert built is False and builder.threads == []
    assert table.start_value == pytest.approx(122.5585, abs=0.001)
