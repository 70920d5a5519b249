"""The advice answer: every legal move, valued consistently with the solved table."""

from collections import Counter
from math import isclose

import numpy as np
import pytest

from scoring import RuleError, get_ruleset
from scoring.boxgames.strategy import Advice, advise_with
from scoring.strategy.combinatorics import dice_space, sub_multisets

from .support import corner, yahtzee_card

SPACE = dice_space(5)
YAHTZEE = get_ruleset("yahtzee")
OPTIONS = {"joker": "forced", "yahtzee_bonus": "unlimited"}
# Three boxes open, upper bonus still reachable, a pending Yahtzee bonus.
CARD = yahtzee_card(
    "fives", "full_house", "chance", ones=3, twos=6, threes=9, fours=12, sixes=18, yahtzee=50
)


def advice(
    dice: list[int] | None, rolls_left: int | None, card: dict = CARD, bonus: int = 0
) -> Advice:
    return advise_with(corner("yahtzee", OPTIONS, card), card, bonus, dice, rolls_left)


def rolls_of(answer: Advice) -> list[dict]:
    return [o for o in answer.options if o["action"] == "roll"]


def scores_of(answer: Advice) -> list[dict]:
    return [o for o in answer.options if o["action"] == "score"]


@pytest.mark.parametrize(
    "dice", [[1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [3, 1, 3, 1, 2], [5, 2, 5, 5, 2]]
)
@pytest.mark.parametrize("rolls_left", [1, 2])
def test_every_distinct_keep_is_offered_once(dice: list[int], rolls_left: int) -> None:
    rolls = rolls_of(advice(dice, rolls_left))
    held = [tuple(sorted(dice[i] for i in option["hold"])) for option in rolls]
    assert sorted(held) == sorted(sub_multisets(tuple(sorted(dice))))
    for option in rolls:
        assert option["hold"] == sorted(set(option["hold"]))
        assert Counter(dice[i] for i in option["hold"]) <= Counter(dice)


def test_no_roll_is_offered_when_no_roll_is_left() -> None:
    assert rolls_of(advice([1, 2, 3, 4, 5], 0)) == []


@pytest.mark.parametrize("dice", [[5, 5, 2, 2, 2], [1, 2, 3, 4, 6], [5, 5, 5, 5, 5]])
@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_every_legal_box_is_offered_with_the_engine_points(
    dice: list[int], rolls_left: int
) -> None:
    scores = scores_of(advice(dice, rolls_left))
    legal = YAHTZEE.legal(CARD, dice, OPTIONS)
    assert {o["category"]: o["points"] for o in scores} == legal


def test_best_is_the_highest_option_and_options_come_best_first() -> None:
    answer = advice([5, 5, 2, 2, 3], 2)
    values = [o["expected_final"] for o in answer.options]
    assert values == sorted(values, reverse=True)
    assert answer.best == answer.options[0]
    assert answer.expected_final == values[0]


def test_the_start_of_a_turn_is_the_mean_over_first_rolls_of_the_best_move() -> None:
    start = advice(None, None).expected_final
    mean = sum(
        p * advice(list(roll), 2).expected_final
        for p, roll in zip(SPACE.first_roll, SPACE.rolls, strict=True)
    )
    assert isclose(start, mean, abs_tol=1e-4)


def test_a_keep_is_worth_the_mean_over_the_rolls_it_leads_to() -> None:
    dice = [5, 2, 6, 5, 1]
    option = next(o for o in rolls_of(advice(dice, 1)) if o["hold"] == [0, 3])  # the fives
    keep = SPACE.keep_index[(5, 5)]
    mean = sum(
        SPACE.transition[keep, r] * advice(list(roll), 0).expected_final
        for r, roll in enumerate(SPACE.rolls)
        if SPACE.transition[keep, r]
    )
    assert isclose(option["expected_final"], mean, abs_tol=1e-6)


def test_holding_every_die_is_worth_stopping_with_one_roll_fewer() -> None:
    dice = [2, 2, 2, 5, 5]
    for rolls_left in (1, 2):
        hold_all = next(o for o in rolls_of(advice(dice, rolls_left)) if len(o["hold"]) == 5)
        assert isclose(
            hold_all["expected_final"], advice(dice, rolls_left - 1).expected_final, abs_tol=1e-9
        )


def test_scoring_is_preferred_to_an_equal_valued_reroll_of_nothing() -> None:
    card = yahtzee_card("chance")
    answer = advise_with(corner("yahtzee", OPTIONS, card), card, 0, [6, 6, 6, 6, 5], 1)
    assert answer.best["action"] == "score"
    hold_all = next(o for o in rolls_of(answer) if len(o["hold"]) == 5)
    assert isclose(hold_all["expected_final"], answer.best["expected_final"], abs_tol=1e-9)


def test_a_full_card_is_its_total() -> None:
    card = yahtzee_card(chance=20, yahtzee=50)
    answer = advise_with(corner("yahtzee", OPTIONS, card), card, 200, [1, 1, 1, 1, 1], 0)
    assert (answer.expected_final, answer.best, answer.options) == (270, None, [])


def test_as_dict_is_plain_data() -> None:
    answer = advice([1, 1, 2, 5, 5], 1).as_dict()
    assert set(answer) == {"ruleset", "rule_options", "banked", "expected_final", "best", "options"}
    assert answer["ruleset"] == "yahtzee" and answer["rule_options"] == OPTIONS
    assert all(type(o["expected_final"]) is float for o in answer["options"])
    assert not any(isinstance(v, np.generic) for o in answer["options"] for v in o.values())


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"rolls_left": 3}, "invalid", "rolls_left"),
        ({"rolls_left": -1}, "invalid", "rolls_left"),
        ({"rolls_left": None}, "invalid", "rolls_left"),
        ({"dice": [1, 2, 3, 4, 7]}, "invalid_dice", "dice"),
        ({"dice": [1, 2, 3, 4]}, "invalid_dice", "dice"),
        ({"bonus": -100}, "invalid", "yahtzee_bonus"),
        ({"card": {**CARD, "sevens": 0}}, "unknown_category", "scorecard.sevens"),
    ],
)
def test_bad_input_is_refused_with_the_engine_codes(kwargs: dict, code: str, field: str) -> None:
    call = {"dice": [1, 2, 3, 4, 5], "rolls_left": 1, "card": CARD, "bonus": 0, **kwargs}
    with pytest.raises(RuleError) as caught:
        advise_with(corner("yahtzee", OPTIONS, CARD), call["card"], call["bonus"],
                    call["dice"], call["rolls_left"])
    assert (caught.value.code, caught.value.field) == (code, field)


def test_a_card_whose_upper_total_no_dice_make_is_refused() -> None:
    # Ones alone cannot hold 7 (at most 5): the box is refused before the table is read.
    card = yahtzee_card("twos", "threes", "fours", "fives", "sixes", ones=7)
    with pytest.raises(RuleError) as caught:
        advise_with(corner("yahtzee", OPTIONS, card), card, 0, None, None)
    assert (caught.value.code, caught.value.field) == ("invalid", "scorecard.ones")
