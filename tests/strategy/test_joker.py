"""Five of a kind on a card whose yahtzee box is filled: the Joker positions.

The options offered must be exactly the engine's ``legal()`` with its points, each valued
with the bonus its fill earns. The cards here leave one box open after the fill where
possible, so the values can be checked by hand.
"""

import pytest

from scoring import get_ruleset
from scoring.boxgames.strategy import Advice, advise_with

from .support import corner, yahtzee_card

YAHTZEE = get_ruleset("yahtzee")
THREES = [3, 3, 3, 3, 3]


def scores(
    options: dict, card: dict, dice: list[int], rolls_left: int = 0, bonus: int = 0
) -> tuple[Advice, dict[str, dict]]:
    answer = advise_with(corner("yahtzee", options, card), card, bonus, dice, rolls_left)
    offered = {o["category"]: o for o in answer.options if o["action"] == "score"}
    legal = YAHTZEE.legal(card, dice, YAHTZEE.validate_options(options))
    assert {box: o["points"] for box, o in offered.items()} == legal
    return answer, offered


@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_forced_joker_takes_the_open_upper_box_of_the_face(rolls_left: int) -> None:
    # 48 in the other upper boxes: fifteen threes reach 63, with the 35 upper bonus.
    card = yahtzee_card("threes", "chance", ones=3, twos=6, fours=12, fives=15, sixes=12,
                        yahtzee=50)
    answer, offered = scores({}, card, THREES, rolls_left)
    assert list(offered) == ["threes"]
    after = 48 + 50 + 15 + 35 + 100  # banked, the box, upper bonus, Yahtzee bonus
    assert offered["threes"]["expected_final"] > after  # the chance box is still to come
    if rolls_left == 0:
        assert answer.best["category"] == "threes"


def test_forced_joker_fills_lower_boxes_at_fixed_points_once_the_face_is_used() -> None:
    card = yahtzee_card("ones", "full_house", "small_straight", "large_straight", "chance",
                        threes=9, yahtzee=50)
    _, offered = scores({}, card, THREES)
    assert {box: o["points"] for box, o in offered.items()} == {
        "full_house": 25, "small_straight": 30, "large_straight": 40, "chance": 15,
    }


@pytest.mark.parametrize("box,points", [("large_straight", 40), ("full_house", 25)])
def test_a_joker_fill_includes_the_yahtzee_bonus(box: str, points: int) -> None:
    card = yahtzee_card(box, threes=9, yahtzee=50)
    answer, offered = scores({}, card, THREES)
    assert offered[box]["expected_final"] == answer.banked + points + 100


def test_yahtzee_box_at_zero_still_forces_the_joker_but_pays_no_bonus() -> None:
    card = yahtzee_card("large_straight", threes=9)
    answer, offered = scores({}, card, THREES)
    assert offered["large_straight"]["expected_final"] == answer.banked + 40


def test_forced_joker_scratches_an_upper_box_when_nothing_else_is_open() -> None:
    card = yahtzee_card("ones", "sixes", threes=9, yahtzee=50)
    _, offered = scores({}, card, THREES)
    assert {box: o["points"] for box, o in offered.items()} == {"ones": 0, "sixes": 0}


def test_free_joker_offers_any_box_but_fixed_points_only_once_the_face_is_used() -> None:
    card = yahtzee_card("threes", "full_house", "chance", yahtzee=50)
    _, offered = scores({"joker": "free"}, card, THREES)
    assert {box: o["points"] for box, o in offered.items()} == {
        "threes": 15, "full_house": 0, "chance": 15,
    }
    card = yahtzee_card("ones", "full_house", threes=9, yahtzee=50)
    _, offered = scores({"joker": "free"}, card, THREES)
    assert {box: o["points"] for box, o in offered.items()} == {"ones": 0, "full_house": 25}


def test_no_joker_scores_the_dice_as_they_are_but_still_pays_the_bonus() -> None:
    card = yahtzee_card("full_house", threes=9, yahtzee=50)
    answer, offered = scores({"joker": "none"}, card, THREES)
    assert offered["full_house"]["points"] == 0
    assert offered["full_house"]["expected_final"] == answer.banked + 0 + 100


def test_single_bonus_is_paid_once() -> None:
    card = yahtzee_card("chance", "large_straight", threes=9, yahtzee=50)
    options = {"yahtzee_bonus": "single"}
    first, _ = scores(options, card, THREES, bonus=0)
    second, _ = scores(options, card, THREES, bonus=100)
    assert first.expected_final - first.banked > second.expected_final - second.banked + 99
