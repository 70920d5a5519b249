"""What a box may hold is the rules' to say: the points some throw gives it, or a scratch's 0."""

import pytest

from scoring import RULESETS
from scoring.boxgames.boxgame import BoxGame, spelled_points


@pytest.mark.parametrize(
    ("ruleset", "box", "points"),
    [
        ("yatzy", "small_straight", (0, 15)),
        ("yatzy", "yatzy", (0, 50)),
        ("yahtzee", "small_straight", (0, 30)),
        ("yahtzee", "fours", (0, 4, 8, 12, 16, 20)),
        ("yahtzee", "chance", (0, *range(5, 31))),
        ("maxi-yatzy", "sixes", (0, 6, 12, 18, 24, 30, 36)),
        ("maxi-yatzy", "maxi_yatzy", (0, 100)),
    ],
)
def test_a_box_holds_the_points_its_dice_give_and_zero(ruleset, box, points):
    game = RULESETS[ruleset]
    assert isinstance(game, BoxGame)
    assert game.box_points(box) == points
    assert game.possible_points(box, points[-1])
    assert not game.possible_points(box, points[-1] + 1)


def test_no_box_of_any_ruleset_holds_a_negative_or_endless_score():
    for game in RULESETS.values():
        if isinstance(game, BoxGame):
            for box in game.boxes:
                assert 0 in game.box_points(box.id)
                assert max(game.box_points(box.id)) <= 100


@pytest.mark.parametrize(
    ("options", "card", "most"),
    [
        ({"yahtzee_bonus": "unlimited"}, {"yahtzee": 50}, 1200),
        ({"yahtzee_bonus": "single"}, {"yahtzee": 50}, 100),
        ({"yahtzee_bonus": "none"}, {"yahtzee": 50}, 0),
        ({"yahtzee_bonus": "unlimited"}, {"yahtzee": 0}, 0),
        ({"yahtzee_bonus": "unlimited"}, {}, 0),
    ],
)
def test_a_yahtzee_bonus_needs_the_box_at_fifty_and_the_option(options, card, most):
    game = RULESETS["yahtzee"]
    assert isinstance(game, BoxGame)
    full = {**dict.fromkeys(box.id for box in game.boxes), **card}
    assert game.most_bonus(full, {"joker": "forced", **options}) == most


def test_points_are_spelled_in_runs():
    assert spelled_points((0, 15)) == "0, 15"
    assert spelled_points((0, *range(5, 31))) == "0, 5-30"
    assert spelled_points((0, 2, 4, 6)) == "0, 2, 4, 6"
