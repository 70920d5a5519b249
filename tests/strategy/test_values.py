"""Values small enough to check by hand: the last boxes of a game."""

from math import isclose

import pytest

from scoring.boxgames.strategy import advise_with

from .support import card_with, corner, yahtzee_card

YATZY_BOXES = (
    "ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
    "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight", "full_house",
    "chance", "yatzy",
)
# P(five of a kind within three rolls, always keeping the most common face).
P_YATZY_IN_THREE = 2_783_176 / 6**10


def yatzy_card(*open_boxes: str, **filled: int) -> dict:
    return card_with(open_boxes, YATZY_BOXES, **filled)


def start_value(ruleset: str, options: dict, card: dict, bonus: int = 0) -> float:
    advice = advise_with(corner(ruleset, options, card), card, bonus, None, None)
    assert advice.best is None and advice.options == []
    return advice.expected_final


def test_chance_alone_is_worth_five_dice_rerolled_below_five_then_below_four() -> None:
    # One die: 3.5 with one roll; 4.25 with two (keep 4+); 14/3 with three (keep 5+).
    assert isclose(start_value("yatzy", {}, yatzy_card("chance")), 5 * 14 / 3, abs_tol=1e-4)
    card = yahtzee_card("chance")
    assert isclose(start_value("yahtzee", {}, card), 5 * 14 / 3, abs_tol=1e-4)


def test_yatzy_alone_is_worth_fifty_times_the_chance_of_five_of_a_kind() -> None:
    value = start_value("yatzy", {}, yatzy_card("yatzy"))
    assert isclose(value, 50 * P_YATZY_IN_THREE, abs_tol=1e-4)


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [("one_pair", [6, 6, 1, 2, 3], 12), ("full_house", [2, 2, 3, 3, 3], 13),
     ("small_straight", [5, 3, 1, 2, 4], 15), ("yatzy", [1, 2, 3, 4, 6], 0)],
)
def test_the_last_box_with_no_roll_left_is_worth_its_points(
    box: str, dice: list[int], points: int
) -> None:
    card = yatzy_card(box, chance=20)
    advice = advise_with(corner("yatzy", {}, card), card, 0, dice, 0)
    assert advice.banked == 20
    assert advice.options == [
        {"action": "score", "category": box, "points": points, "expected_final": 20 + points}
    ]
    assert advice.expected_final == 20 + points


@pytest.mark.parametrize(
    ("dice", "final"), [([6, 6, 6, 1, 2], 45 + 18 + 50), ([6, 6, 1, 2, 3], 45 + 12)]
)
def test_reaching_63_earns_the_upper_bonus_with_the_fill(dice: list[int], final: int) -> None:
    card = yatzy_card("sixes", ones=3, twos=6, threes=9, fours=12, fives=15)
    advice = advise_with(corner("yatzy", {}, card), card, 0, dice, 0)
    assert advice.expected_final == final


@pytest.mark.parametrize(
    ("bonus_rule", "bonus_so_far", "earned"),
    [("unlimited", 0, 100), ("unlimited", 300, 100), ("single", 0, 100), ("single", 100, 0),
     ("none", 0, 0)],
)
def test_a_further_yahtzee_earns_the_bonus_the_options_say(
    bonus_rule: str, bonus_so_far: int, earned: int
) -> None:
    card = yahtzee_card("chance", yahtzee=50)
    options = {"yahtzee_bonus": bonus_rule}
    advice = advise_with(corner("yahtzee", options, card), card, bonus_so_far, [4] * 5, 0)
    assert advice.banked == 50 + bonus_so_far
    assert advice.expected_final == 50 + bonus_so_far + 20 + earned


def test_with_the_bonus_pending_the_last_box_is_worth_more_than_without() -> None:
    card = yahtzee_card("chance", yahtzee=50)
    flagged = start_value("yahtzee", {"yahtzee_bonus": "single"}, card, 0)
    paid = start_value("yahtzee", {"yahtzee_bonus": "single"}, card, 100)
    # Paid: only the chance box is left to play for (and the bonus already banked).
    assert isclose(paid - 150, 5 * 14 / 3, abs_tol=1e-4)
    assert flagged - 50 > paid - 150
