"""Rulesets and the stateless score calculator."""

import pytest

from .conftest import assert_problem

CALC = "/api/v1/rulesets/yahtzee/score/"


def test_rulesets_list_yahtzee_with_its_boxes_and_options(api):
    listed = api.client.get("/api/v1/rulesets/").json()
    yahtzee = next(r for r in listed if r["id"] == "yahtzee")
    assert yahtzee == api.client.get("/api/v1/rulesets/yahtzee/").json()
    assert yahtzee["dice"] == 5 and yahtzee["rolls_per_turn"] == 3
    assert (yahtzee["min_players"], yahtzee["max_players"]) == (1, 8)
    assert [c["id"] for c in yahtzee["categories"]] == [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    ]
    assert {c["section"] for c in yahtzee["categories"]} == {"upper", "lower"}
    assert all(c["name"] and c["description"] for c in yahtzee["categories"])
    assert yahtzee["options"]["joker"]["values"] == ["forced", "free", "none"]
    assert yahtzee["options"]["joker"]["default"] == "forced"
    assert yahtzee["options"]["yahtzee_bonus"]["default"] == "unlimited"


def test_the_calculator_scores_every_open_box(api):
    scores = api.client.post(CALC, {"dice": [2, 2, 3, 3, 3]}, format="json").json()["scores"]
    assert scores["full_house"] == 25 and scores["three_of_a_kind"] == 13 and scores["threes"] == 9
    assert scores["yahtzee"] == 0 and len(scores) == 13


def test_the_calculator_applies_the_joker_with_a_scorecard(api):
    body = {"dice": [4, 4, 4, 4, 4], "scorecard": {"yahtzee": 50, "fours": 12}}
    scores = api.client.post(CALC, body, format="json").json()["scores"]
    assert scores == {
        "three_of_a_kind": 20,
        "four_of_a_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    forced = api.client.post(CALC, {"dice": [4] * 5, "scorecard": {"yahtzee": 0}}, format="json")
    assert forced.json()["scores"] == {"fours": 20}


def test_the_calculator_takes_house_rules(api):
    body = {"dice": [4] * 5, "scorecard": {"yahtzee": 50}, "options": {"joker": "none"}}
    scores = api.client.post(CALC, body, format="json").json()["scores"]
    assert scores["fours"] == 20 and scores["full_house"] == 0 and "yahtzee" not in scores


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"dice": [1, 2, 3, 4]}, "invalid_dice"),
        ({"dice": [1, 2, 3, 4, 7]}, "invalid_dice"),
        ({"dice": [0, 2, 3, 4, 5]}, "invalid_dice"),
        ({}, "invalid_dice"),
        ({"dice": "12345"}, "invalid_dice"),
        ({"dice": [1, 2, 3, 4, 5], "scorecard": {"bingo": 3}}, "unknown_category"),
        ({"dice": [1, 2, 3, 4, 5], "scorecard": {"ones": -1}}, "invalid"),
        ({"dice": [1, 2, 3, 4, 5], "scorecard": [1]}, "invalid"),
        ({"dice": [1, 2, 3, 4, 5], "options": {"joker": "maybe"}}, "invalid"),
        ({"dice": [1, 2, 3, 4, 5], "options": "x"}, "invalid"),
    ],
)
def test_the_calculator_refuses_bad_input(api, body, code):
    assert_problem(api.client.post(CALC, body, format="json"), 400, code)


def test_the_calculator_of_an_unknown_ruleset_is_not_found(api):
    assert_problem(
        api.client.post("/api/v1/rulesets/chess/score/", {"dice": [1]}, format="json"),
        404,
        "not_found",
    )
