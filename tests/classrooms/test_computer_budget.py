"""The computer budget: the computer seats' moves played within requests count against the
caller by their cost, so one address cannot keep the processors busy with games of
computers, while a class playing against computers all evening is never stopped."""

import time
import uuid
from types import SimpleNamespace

import pytest

import config.settings as defaults
from games.http import limits, throttles
from games.http.limits import parse_rates
from games.http.throttles import create_estimate, move_weight
from games.models import Game
from scoring.match import Seat
from tests.conftest import postgres_only

from .conftest import ClassApi, assert_problem
from .test_concurrency import race

BOTS = [{"name": f"Bot{i}", "computer": "random"} for i in range(8)]
# What the budget reserves before a game of 8 random Yahtzee computers: 13 boxes x 4 moves.
EIGHT_BOTS = 8 * 13 * 4


def bots_game(classes, *, key: str | None = None, address: str = "192.0.2.1", seats: int = 8):
    body = {"ruleset": "yahtzee", "players": BOTS[:seats], "seed": 7}
    headers = {"HTTP_X_API_KEY": key} if key is not None else {}
    return classes.client.post(
        "/api/v1/games/", body, format="json", REMOTE_ADDR=address, **headers
    )


def test_a_loop_creating_games_of_computers_is_refused_and_nothing_is_created(classes, settings):
    settings.THROTTLE_RATES = {"computers": f"{EIGHT_BOTS + 100}/minute"}
    first = bots_game(classes)
    assert first.status_code == 201 and first.json()["status"] == "finished"
    games = Game.objects.count()
    refused = bots_game(classes)
    assert_problem(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 61
    assert Game.objects.count() == games
    # The refusal took nothing: a smaller game that fits what is left is played.
    assert bots_game(classes, seats=1).status_code == 201
    # Games of persons cost the budget nothing, and another address has a budget of its own.
    assert classes.create()["status"] == "active"
    assert bots_game(classes, address="192.0.2.2").status_code == 201


def test_moves_after_which_computers_play_are_refused_once_the_budget_is_spent(classes, settings):
    settings.THROTTLE_RATES = {"computers": "40/minute"}
    game = classes.create(names=(), players=[{"name": "Ann"}, *BOTS[:3]], seed=3)
    person = classes.create()  # a game of persons only, from the same address
    refused, before, log = None, game, []
    for _ in range(13):
        for action in ("roll", "score"):
            before, log = classes.get(game), classes.events(game)
            body = {"category": next(iter(before["choices"]))} if action == "score" else {}
            answer = classes.move(game, action, body)
            if answer.status_code == 429:
                refused = answer
                break
            assert answer.status_code == 200, answer.json()
        if refused is not None:
            break
    assert refused is not None, "three computers' turns after each of 13 never spent 40"
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) >= 1
    # A refused move changes nothing: the game and its log stand as they were.
    assert classes.get(game) == before
    assert classes.events(game) == log
    # Moves in a game without computers go on.
    assert classes.play_turn(person)["status"] == "active"


def computer_moves(classes, game: dict) -> int:
    return sum(e["seat"] is not None and e["type"] in ("rolled", "scored") for e in
               classes.events(game))


def test_a_key_has_its_own_budget_and_the_address_a_ceiling(classes, settings):
    # A key's budget, as an address's, holds one game of 8 bots a minute; the address's
    # ceiling with keys, twice that, two: a third game's reservation passes it.
    settings.THROTTLE_RATES = {"computers": "450/minute"}
    settings.THROTTLE_COMPUTERS_KEYED_FACTOR = 2
    room = classes.open()
    ann, ben, cleo = (classes.join(room, name)["api_key"] for name in ("Ann", "Ben", "Cleo"))
    first = bots_game(classes, key=ann)
    assert first.status_code == 201
    cost = computer_moves(classes, first.json())
    assert cost + EIGHT_BOTS <= 900 < 2 * cost + EIGHT_BOTS
    assert_problem(bots_game(classes, key=ann), 429, "throttled")  # Ann's own budget
    assert bots_game(classes, key=ben).status_code == 201  # Ben's, within the ceiling
    # Cleo's budget is whole, but the address's ceiling is spent.
    assert_problem(bots_game(classes, key=cleo), 429, "throttled")
    # The same key from another address: that address's ceiling is its own.
    assert bots_game(classes, key=cleo, address="192.0.2.9").status_code == 201
    # And the address without a key counts on its own too.
    assert bots_game(classes).status_code == 201


def test_a_teacher_may_lower_the_computer_quota_but_not_raise_it(classes, settings):
    settings.THROTTLE_RATES = {"computers": "100000/minute"}
    room = classes.open()
    path = f"/api/v1/classrooms/{room.id}/"
    default = defaults.CLASSROOM_QUOTA["computer_moves_per_hour"]
    shown = classes.teacher(path, room.teacher_key).json()["quota"]
    assert shown["computer_moves_per_hour"] == default
    raised = {"quota": {"computer_moves_per_hour": default + 1}}
    assert_problem(
        classes.teacher(path, room.teacher_key, "patch", raised), 403, "quota_above_default"
    )
    lowered = {"quota": {"computer_moves_per_hour": 300}}
    answer = classes.teacher(path, room.teacher_key, "patch", lowered)
    assert answer.json()["quota"]["computer_moves_per_hour"] == 300
    key = classes.join(room, "Ann")["api_key"]
    assert_problem(bots_game(classes, key=key), 429, "throttled")  # 416 of 300 an hour
    assert bots_game(classes, key=key, seats=4).status_code == 201  # 208 at most
    assert_problem(bots_game(classes, key=key, seats=4), 429, "throttled")
    # The address without a key is held to the deployment's budget, not the classroom's.
    assert bots_game(classes).status_code == 201


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("cache", ["test default", "database"])
def test_racing_games_of_computers_never_pass_the_budget(settings, cache):
    """Two reservations fit the budget, a third never does, and after two games (286 each)
    no third fits either, in whatever order the racing requests reach the counters."""
    if cache == "database":
        settings.CACHES = {"default": {
            "BACKEND": "games.db.cache.DatabaseCache", "LOCATION": "dice_cache",
            "KEY_PREFIX": f"race-{uuid.uuid4().hex}",
        }}
    settings.THROTTLE_RATES = {"computers": f"{2 * EIGHT_BOTS + 100}/minute"}
    answers = race(8, lambda client: bots_game(ClassApi(client)).status_code)
    assert sorted(answers) == [201] * 2 + [429] * 6


# -- the defaults ----------------------------------------------------------------------------


def budget() -> tuple[int, int]:
    """The default budget's units a minute and an hour."""
    minute, hour = parse_rates(defaults.THROTTLE_RATES["computers"])
    assert (minute.seconds, hour.seconds) == (60, 3600)
    return minute.count, hour.count


def test_a_computer_move_costs_by_its_level():
    assert move_weight("yahtzee", "random") < move_weight("yahtzee", "optimal")
    assert move_weight("yahtzee", "optimal") < move_weight("maxi-yatzy", "optimal")


@pytest.mark.slow
def test_the_default_budget_stops_a_loop_of_optimal_maxi_games_within_seconds(
    classes, settings, monkeypatch
):
    """Eight optimal Maxi Yatzy computers: about 4,400 units, 0.4 s of the web process's
    core a game and as much of PostgreSQL's (docs/operations.md): a loop has 4 played, then
    is refused until the minute ends; the hour's budget holds about 270. The clock of the
    limits and of the budget's reservations stands still at the start of a minute, so that
    the loop never straddles two windows (a slow loop on a loaded machine once did, its fifth
    game reserved in the next minute's window), and the counters' own expiry (two minutes of
    real time) outlasts the loop."""
    middle = (time.time() // 3600) * 3600 + 1800
    still = SimpleNamespace(time=lambda: middle, monotonic=time.monotonic)
    monkeypatch.setattr(limits, "time", still)
    monkeypatch.setattr(throttles, "time", still)
    _, hour = budget()
    seats = [Seat(f"Bot{i}", "optimal") for i in range(8)]
    game = create_estimate(ruleset_id="maxi-yatzy", players=seats, open_seats=0)
    assert 4_000 < game < 5_000 and hour // game <= 270
    settings.THROTTLE_RATES = dict(defaults.THROTTLE_RATES)
    body = {"ruleset": "maxi-yatzy", "players": [
        {"name": s.name, "computer": s.computer} for s in seats
    ]}
    answers = [
        classes.client.post("/api/v1/games/", body | {"seed": seed}, format="json")
        for seed in range(5)
    ]
    assert [a.status_code for a in answers] == [201] * 4 + [429]
    assert 1 <= int(answers[-1]["Retry-After"]) <= 61


def test_a_class_of_30_against_computers_all_evening_stays_within_the_budget(classes, settings):
    """30 students behind one address, without keys (the address's budget is the smallest),
    each playing Maxi Yatzy (the costliest computers) against three optimal computers at a
    brisk turn every 10 seconds. Half a minute of it (3 turns each) is played against half
    the default minute's budget and a 120th of the hour's: at that pace, the class stays
    within both windows all evening."""
    minute, hour = budget()
    settings.THROTTLE_RATES = {"computers": f"{minute // 2}/minute,{hour // 120}/hour"}
    players = [{"name": "Ann"}] + [{"name": f"Bot{i}", "computer": "optimal"} for i in range(3)]
    games = [classes.create(names=(), ruleset="maxi-yatzy", players=players) for _ in range(30)]
    for _ in range(3):
        for game in games:
            rolled = classes.ok(game, "roll")
            classes.ok(game, "score", {"category": next(iter(rolled["choices"]))})
    turns = [
        sum(e["seat"] == 3 and e["type"] in ("scored", "scratched") for e in classes.events(g))
        for g in games
    ]
    assert turns == [3] * 30
