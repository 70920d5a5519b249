"""A body describing what no game reaches is refused, 400 ``invalid`` naming the field: a
box holding points no dice give it, a bonus no card earns, totals and turn points off the
game's steps, options out of range. Advice about such a position used to be answered
(Yatzy's small straight at 4232 was valued at an expected final score of 5,817)."""

from pathlib import Path

import pytest

from games.models import Game
from scoring.boxgames.strategy import prepare_table

from .conftest import assert_problem

YATZY = "/api/v1/rulesets/yatzy/advice/"
YAHTZEE = "/api/v1/rulesets/yahtzee/advice/"
FORCED = "/api/v1/rulesets/forced-yatzy/advice/"
TEN = "/api/v1/rulesets/ten-thousand/advice/"
CALCULATOR = "/api/v1/rulesets/{}/score/"
DICE = [1, 2, 3, 4, 5]


def refused_field(response) -> str:
    body = assert_problem(response, 400, "invalid")
    (error,) = body["errors"]
    return error["field"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (YATZY, {"scorecard": {"small_straight": 4232}}, "scorecard.small_straight"),
        (YATZY, {"scorecard": {"small_straight": 30}}, "scorecard.small_straight"),
        (YATZY, {"scorecard": {"yatzy": 25}}, "scorecard.yatzy"),
        (YAHTZEE, {"scorecard": {"twos": 3}}, "scorecard.twos"),
        (YAHTZEE, {"scorecard": {"sixes": 36}}, "scorecard.sixes"),
        (YAHTZEE, {"scorecard": {"chance": 4}}, "scorecard.chance"),
        (YAHTZEE, {"scorecard": {"full_house": 24}}, "scorecard.full_house"),
        (FORCED, {"scorecard": {"ones": 7}}, "scorecard.ones"),
        # A bonus is earned only with the yahtzee box at 50, 100 at a time, as the options say.
        (YAHTZEE, {"yahtzee_bonus": 100}, "yahtzee_bonus"),
        (YAHTZEE, {"scorecard": {"yahtzee": 0}, "yahtzee_bonus": 100}, "yahtzee_bonus"),
        (YAHTZEE, {"scorecard": {"yahtzee": 50}, "yahtzee_bonus": 150}, "yahtzee_bonus"),
        (YAHTZEE, {"scorecard": {"yahtzee": 50}, "yahtzee_bonus": 1300}, "yahtzee_bonus"),
        (
            YAHTZEE,
            {"scorecard": {"yahtzee": 50}, "yahtzee_bonus": 200,
             "options": {"yahtzee_bonus": "single"}},
            "yahtzee_bonus",
        ),
        (
            YAHTZEE,
            {"scorecard": {"yahtzee": 50}, "yahtzee_bonus": 100,
             "options": {"yahtzee_bonus": "none"}},
            "yahtzee_bonus",
        ),
        (YATZY, {"scorecard": {"yatzy": 50}, "yahtzee_bonus": 100}, "yahtzee_bonus"),
        (TEN, {"totals": [75]}, "totals.0"),
        (TEN, {"totals": [0, -50]}, "totals.1"),
        (TEN, {"totals": [0], "turn_points": 120}, "turn_points"),
        (TEN, {"totals": [0], "options": {"target": 10_025}}, "options.target"),
        (TEN, {"totals": [0], "options": {"bank_minimum": 375}}, "options.bank_minimum"),
        (CALCULATOR.format("yatzy"), {"dice": DICE, "scorecard": {"one_pair": 7}},
         "scorecard.one_pair"),
        (CALCULATOR.format("maxi-yatzy"), {"dice": [6] * 6, "scorecard": {"sixes": 42}},
         "scorecard.sixes"),
        (CALCULATOR.format("yahtzee"), {"dice": DICE, "scorecard": {"large_straight": 30}},
         "scorecard.large_straight"),
    ],
)
def test_a_position_no_game_reaches_is_refused_naming_the_field(api, path, body, field):
    assert refused_field(api.client.post(path, body, format="json")) == field


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (YATZY, {"scorecard": {"small_straight": 15, "yatzy": 0, "ones": 5, "chance": 0}}),
        (YAHTZEE, {"scorecard": {"yahtzee": 50, "full_house": 25}, "yahtzee_bonus": 1200}),
        (
            YAHTZEE,
            {"scorecard": {"yahtzee": 50, "sixes": 30}, "yahtzee_bonus": 100,
             "options": {"yahtzee_bonus": "single"}},
        ),
        (CALCULATOR.format("yahtzee"), {"dice": DICE, "scorecard": {"chance": 0, "twos": 10}}),
    ],
)
def test_a_position_some_game_reaches_is_answered(api, path, body, strategy_tables: Path):
    if path != CALCULATOR.format("yahtzee"):  # advice reads the table, as a served host has it
        ruleset = "yatzy" if path == YATZY else "yahtzee"
        prepare_table(ruleset, body.get("options", {}), strategy_tables)
    response = api.client.post(path, body, format="json")
    assert response.status_code == 200, response.json()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"target": 75}, "options.target"),
        ({"target": -50}, "options.target"),
        ({"bank_minimum": 10}, "options.bank_minimum"),
        ({"final_round": 1}, "options.final_round"),
    ],
)
def test_a_game_with_options_no_game_takes_is_refused_and_not_created(api, options, field):
    body = {"ruleset": "ten-thousand", "players": [{"name": "Ann"}], "options": options}
    response = api.client.post("/api/v1/games/", body, format="json")
    assert refused_field(response) == field
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"totals": [75]}, 400, "invalid"),
        ({"totals": [0], "turn_points": 120}, 400, "invalid"),
        ({"totals": [10_000]}, 409, "game_not_active"),
    ],
)
def test_a_ten_thousand_position_is_refused_before_any_table_is_read_or_built(
    api, settings, tmp_path, body, status, code
):
    from games.models import StrategyTable

    settings.STRATEGY_DIR = tmp_path  # no table: reading one would answer 503
    body = {**body, "options": {"bank_minimum": 400}}
    assert_problem(api.client.post(TEN, body, format="json"), status, code)
    assert list(tmp_path.iterdir()) == []
    assert not StrategyTable.objects.exists()  # no build queued
