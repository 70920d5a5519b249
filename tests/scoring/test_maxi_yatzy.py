"""Maxi Yatzy (docs/games/yatzy.md, "`maxi-yatzy`: six dice, 20 rounds"): the six-dice boxes, the
100-point upper bonus at 84, and saved rolls: rolls a player does not use are kept for
that player's later turns and shown as ``turn.rolls_left`` beyond 3.  Expected values are
worked out by hand from the rule table."""

import pytest
from yatzy_support import (
    FORCED,
    MAXI,
    MAXI_BOXES,
    MAXI_LOWER,
    PLAIN,
    UPPER,
    YATZY,
    ScriptedRng,
    card,
    refused,
    scores,
    table,
)

import scoring

param = pytest.param
SIX = (1, 2, 3, 4, 5, 6)

BOX_POINTS = [
    # upper: the sum of the dice showing that face
    param([1, 1, 1, 2, 3, 4], "ones", 3, id="ones-three-ones"),
    param([2, 3, 4, 5, 6, 6], "ones", 0, id="ones-none-showing"),
    param([2, 2, 2, 2, 2, 5], "twos", 10, id="twos-five-twos"),
    param([3, 1, 3, 6, 6, 2], "threes", 6, id="threes-two-threes"),
    param([4, 4, 4, 4, 1, 1], "fours", 16, id="fours-four-fours"),
    param([5, 5, 1, 2, 3, 4], "fives", 10, id="fives-two-fives"),
    param([6, 6, 6, 6, 6, 6], "sixes", 36, id="sixes-six-sixes"),
    # one pair: the highest pair only
    param([6, 6, 5, 5, 4, 4], "one_pair", 12, id="one-pair-takes-the-highest-of-three"),
    param([1, 1, 2, 3, 4, 5], "one_pair", 2, id="one-pair-of-ones"),
    param([2, 2, 2, 3, 4, 5], "one_pair", 4, id="one-pair-from-three-of-a-kind"),
    param([5, 5, 5, 5, 5, 5], "one_pair", 10, id="one-pair-from-six-of-a-kind"),
    param([1, 2, 3, 4, 5, 6], "one_pair", 0, id="one-pair-full-straight-is-not"),
    # two pairs: the best two pairs of different faces
    param([6, 6, 5, 5, 4, 4], "two_pairs", 22, id="two-pairs-best-two-of-three-pairs"),
    param([1, 1, 2, 2, 3, 4], "two_pairs", 6, id="two-pairs-ones-and-twos"),
    param([4, 1, 6, 1, 4, 2], "two_pairs", 10, id="two-pairs-unsorted"),
    param([3, 3, 3, 3, 2, 2], "two_pairs", 10, id="two-pairs-from-four-and-two"),
    param([6, 6, 6, 5, 5, 5], "two_pairs", 22, id="two-pairs-from-two-triples"),
    param([5, 5, 5, 5, 1, 2], "two_pairs", 0, id="two-pairs-four-of-a-kind-is-not"),
    param([6, 6, 6, 6, 6, 1], "two_pairs", 0, id="two-pairs-five-of-a-kind-is-not"),
    param([4, 4, 4, 4, 4, 4], "two_pairs", 0, id="two-pairs-six-of-a-kind-is-not"),
    param([6, 6, 1, 2, 3, 4], "two_pairs", 0, id="two-pairs-one-pair-is-not"),
    # three pairs: three pairs of different faces, all six dice
    param([1, 1, 2, 2, 3, 3], "three_pairs", 12, id="three-pairs-lowest"),
    param([6, 6, 5, 5, 4, 4], "three_pairs", 30, id="three-pairs-highest"),
    param([4, 1, 6, 1, 4, 6], "three_pairs", 22, id="three-pairs-unsorted"),
    param([3, 3, 3, 3, 2, 2], "three_pairs", 0, id="three-pairs-four-and-two-is-not"),
    param([5, 5, 5, 2, 2, 2], "three_pairs", 0, id="three-pairs-two-triples-is-not"),
    param([6, 6, 6, 6, 6, 6], "three_pairs", 0, id="three-pairs-six-of-a-kind-is-not"),
    param([1, 1, 2, 2, 3, 4], "three_pairs", 0, id="three-pairs-two-pairs-is-not"),
    # three, four and five of a kind: only that many dice of the best face
    param([2, 2, 2, 3, 4, 5], "three_of_a_kind", 6, id="three-kind-counts-only-three-dice"),
    param([5, 5, 5, 6, 6, 6], "three_of_a_kind", 18, id="three-kind-best-of-two-triples"),
    param([4, 4, 4, 4, 4, 4], "three_of_a_kind", 12, id="three-kind-from-six-of-a-kind"),
    param([5, 5, 1, 1, 2, 2], "three_of_a_kind", 0, id="three-kind-three-pairs-is-not"),
    param([3, 3, 3, 3, 1, 2], "four_of_a_kind", 12, id="four-kind-counts-only-four-dice"),
    param([5, 5, 5, 5, 5, 1], "four_of_a_kind", 20, id="four-kind-from-five-of-a-kind"),
    param([6, 6, 6, 6, 6, 6], "four_of_a_kind", 24, id="four-kind-from-six-of-a-kind"),
    param([6, 6, 6, 5, 5, 5], "four_of_a_kind", 0, id="four-kind-two-triples-is-not"),
    param([2, 2, 2, 2, 2, 6], "five_of_a_kind", 10, id="five-kind-counts-only-five-dice"),
    param([6, 6, 6, 6, 6, 6], "five_of_a_kind", 30, id="five-kind-from-six-of-a-kind"),
    param([4, 4, 4, 4, 1, 1], "five_of_a_kind", 0, id="five-kind-four-of-a-kind-is-not"),
    # straights: contain 1-2-3-4-5 (15), contain 2-3-4-5-6 (20), are 1-2-3-4-5-6 (21)
    param([1, 2, 3, 4, 5, 5], "small_straight", 15, id="small-straight-with-a-spare-five"),
    param([5, 4, 3, 2, 1, 1], "small_straight", 15, id="small-straight-unsorted"),
    param([1, 2, 3, 4, 5, 6], "small_straight", 15, id="small-straight-in-a-full-straight"),
    param([2, 3, 4, 5, 6, 6], "small_straight", 0, id="small-straight-23456-is-not"),
    param([1, 2, 3, 4, 6, 6], "small_straight", 0, id="small-straight-run-of-four-is-not"),
    param([2, 3, 4, 5, 6, 6], "large_straight", 20, id="large-straight-with-a-spare-six"),
    param([6, 5, 4, 3, 2, 2], "large_straight", 20, id="large-straight-unsorted"),
    param([1, 2, 3, 4, 5, 6], "large_straight", 20, id="large-straight-in-a-full-straight"),
    param([1, 2, 3, 4, 5, 5], "large_straight", 0, id="large-straight-12345-is-not"),
    param([1, 3, 4, 5, 6, 6], "large_straight", 0, id="large-straight-run-of-four-is-not"),
    param([1, 2, 3, 4, 5, 6], "full_straight", 21, id="full-straight"),
    param([6, 4, 2, 1, 3, 5], "full_straight", 21, id="full-straight-unsorted"),
    param([1, 2, 3, 4, 5, 5], "full_straight", 0, id="full-straight-12345-is-not"),
    param([2, 3, 4, 5, 6, 6], "full_straight", 0, id="full-straight-23456-is-not"),
    # full house: the best three of one face and two of another, those five dice
    param([2, 2, 2, 3, 3, 1], "full_house", 12, id="full-house-leaves-the-odd-die"),
    param([6, 6, 6, 1, 1, 5], "full_house", 20, id="full-house-sixes-over-ones"),
    param([6, 6, 6, 5, 5, 5], "full_house", 28, id="full-house-from-two-triples-best"),
    param([1, 1, 1, 6, 6, 6], "full_house", 20, id="full-house-from-two-triples-unsorted"),
    param([5, 5, 5, 5, 6, 6], "full_house", 27, id="full-house-from-four-and-two"),
    param([2, 2, 2, 2, 6, 6], "full_house", 18, id="full-house-from-four-twos-and-two-sixes"),
    param([4, 4, 4, 4, 4, 6], "full_house", 0, id="full-house-five-and-one-is-not"),
    param([3, 3, 3, 3, 3, 3], "full_house", 0, id="full-house-six-of-a-kind-is-not"),
    param([1, 1, 2, 2, 3, 3], "full_house", 0, id="full-house-three-pairs-is-not"),
    param([2, 2, 2, 1, 3, 4], "full_house", 0, id="full-house-three-of-a-kind-is-not"),
    # villa: two triples of different faces, all six dice
    param([1, 1, 1, 2, 2, 2], "villa", 9, id="villa-lowest"),
    param([6, 5, 6, 5, 6, 5], "villa", 33, id="villa-highest-unsorted"),
    param([3, 3, 3, 3, 3, 3], "villa", 0, id="villa-six-of-a-kind-is-not"),
    param([4, 4, 4, 4, 2, 2], "villa", 0, id="villa-four-and-two-is-not"),
    param([5, 5, 5, 1, 1, 2], "villa", 0, id="villa-full-house-is-not"),
    # tower: four of one face and two of another, all six dice
    param([4, 4, 4, 4, 2, 2], "tower", 20, id="tower-fours-and-twos"),
    param([6, 1, 6, 1, 6, 6], "tower", 26, id="tower-unsorted"),
    param([1, 1, 1, 1, 6, 6], "tower", 16, id="tower-ones-and-sixes"),
    param([5, 5, 5, 5, 5, 5], "tower", 0, id="tower-six-of-a-kind-is-not"),
    param([5, 5, 5, 5, 5, 1], "tower", 0, id="tower-five-and-one-is-not"),
    param([3, 3, 3, 3, 1, 2], "tower", 0, id="tower-four-of-a-kind-alone-is-not"),
    param([6, 6, 6, 5, 5, 5], "tower", 0, id="tower-two-triples-is-not"),
    # chance and maxi yatzy
    param([1, 1, 1, 1, 1, 1], "chance", 6, id="chance-lowest"),
    param([6, 6, 6, 6, 6, 6], "chance", 36, id="chance-highest"),
    param([1, 2, 3, 4, 5, 6], "chance", 21, id="chance-mixed"),
    param([6, 6, 6, 6, 6, 6], "maxi_yatzy", 100, id="maxi-yatzy-six-sixes"),
    param([1, 1, 1, 1, 1, 1], "maxi_yatzy", 100, id="maxi-yatzy-six-ones"),
    param([6, 6, 6, 6, 6, 5], "maxi_yatzy", 0, id="maxi-yatzy-five-of-a-kind-is-not"),
]


@pytest.mark.parametrize(("dice", "box", "points"), BOX_POINTS)
def test_calculator_gives_each_box_its_points_from_the_rule_table(dice, box, points):
    assert scores(MAXI, dice)[box] == points


@pytest.mark.parametrize(("dice", "box", "points"), BOX_POINTS)
def test_scoring_a_box_in_play_enters_the_points_from_the_rule_table(dice, box, points):
    game = table(MAXI)
    game.roll(*dice)
    assert game.view().choices[box] == points
    game.fill(box)
    assert game.card()[box] == points


def test_the_calculator_values_every_box_for_one_set_of_dice():
    assert scores(MAXI, [6, 6, 5, 5, 5, 1]) == {
        "ones": 1, "twos": 0, "threes": 0, "fours": 0, "fives": 15, "sixes": 12,
        "one_pair": 12, "two_pairs": 22, "three_pairs": 0, "three_of_a_kind": 15,
        "four_of_a_kind": 0, "five_of_a_kind": 0, "small_straight": 0, "large_straight": 0,
        "full_straight": 0, "full_house": 27, "villa": 0, "tower": 0, "chance": 28,
        "maxi_yatzy": 0,
    }


@pytest.mark.parametrize("face", range(1, 7))
def test_six_of_a_kind_is_none_of_the_boxes_of_different_faces(face):
    answer = scores(MAXI, [face] * 6)
    for box in ("two_pairs", "three_pairs", "full_house", "villa", "tower"):
        assert answer[box] == 0, box
    assert answer["maxi_yatzy"] == 100
    assert answer[UPPER[face - 1]] == answer["chance"] == 6 * face
    for n, box in ((2, "one_pair"), (3, "three_of_a_kind"), (4, "four_of_a_kind"),
                   (5, "five_of_a_kind")):
        assert answer[box] == n * face


def test_the_calculator_refuses_five_dice():
    with pytest.raises(scoring.RuleError) as error:
        scores(MAXI, [1, 2, 3, 4, 5])
    assert (error.value.code, error.value.field) == ("invalid_dice", "dice")
    with pytest.raises(scoring.RuleError):
        scores(YATZY, [1, 2, 3, 4, 5, 6])


# -- upper bonus -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("upper_counts", "upper_total", "bonus"),
    [
        param((4, 4, 4, 4, 4, 4), 84, 100, id="four-of-each-is-84-bonus"),
        param((3, 4, 4, 4, 4, 4), 83, 0, id="one-short-83-no-bonus"),
        param((0, 0, 0, 6, 6, 6), 90, 100, id="above-84-bonus"),
        param((3, 3, 3, 3, 3, 3), 63, 0, id="the-yatzy-threshold-63-is-not-enough"),
    ],
)
def test_the_upper_bonus_is_100_at_84_and_none_at_83(upper_counts, upper_total, bonus):
    game = table(MAXI)
    for face, count in enumerate(upper_counts, start=1):
        others = [f for f in (2, 3, 4, 5, 6, 1) if f != face] * 2
        game.turn(([face] * count + others)[:6], UPPER[face - 1])
    shown = game.view().players[0]
    assert (shown["upper_total"], shown["upper_bonus"]) == (upper_total, bonus)
    for box in MAXI_LOWER:
        game.turn(PLAIN["maxi-yatzy"], box, scratch=True)
    view = game.view()
    assert view.finished
    assert view.totals == [upper_total + bonus]


def test_a_seat_view_totals_upper_bonus_and_lower():
    filled = card(MAXI, ones=4, twos=8, threes=12, fours=16, fives=20, sixes=24,
                  villa=33, maxi_yatzy=100)
    assert MAXI.seat_view(filled, 0) == {
        "scorecard": filled, "upper_total": 84, "upper_bonus": 100, "total": 84 + 100 + 133,
    }


# -- six dice in play ------------------------------------------------------------------

def test_the_first_roll_throws_all_six_dice_and_holds_cover_six():
    game = table(MAXI)
    assert game.view().turn == {
        "dice": None, "held": [False] * 6, "rolls_used": 0, "rolls_left": 3,
    }
    (rolled,) = game.roll(1, 2, 3, 4, 5, 6).events
    assert rolled.data == {"dice": [1, 2, 3, 4, 5, 6], "thrown": [0, 1, 2, 3, 4, 5]}
    (rolled,) = game.roll(6, 6, hold=[1, 2, 3, 5]).events
    assert rolled.data == {"dice": [6, 2, 3, 4, 6, 6], "thrown": [0, 4]}
    refused("invalid_dice", game, "hold", {"hold": [6]})


def test_a_maxi_game_lasts_20_rounds():
    game = table(MAXI)
    for round_number, box in enumerate(MAXI_BOXES, start=1):
        assert game.view().round == round_number
        assert not game.view().finished
        game.turn(PLAIN["maxi-yatzy"], box, scratch=True)
    assert game.view().finished
    assert game.view().turn["rolls_left"] == 0


# -- saved rolls -----------------------------------------------------------------------

def rolls(game, count):
    """Roll ``count`` times: all six dice first, then again with every die held."""
    for _ in range(count):
        if game.view().turn["dice"] is None:
            game.roll(*PLAIN["maxi-yatzy"])
        else:
            game.roll(hold=list(range(6)))


def play_turn(game, used, box):
    """A turn that rolls ``used`` times, then scratches ``box``."""
    rolls(game, used)
    game.fill(box, scratch=True)


def test_a_turn_that_uses_one_roll_saves_two_for_the_next_turn():
    game = table(MAXI)
    play_turn(game, 1, "ones")
    assert game.view().turn == {
        "dice": None, "held": [False] * 6, "rolls_used": 0, "rolls_left": 5,
    }


@pytest.mark.parametrize(
    ("used", "left_next"),
    [param(1, 5, id="one-roll-saves-two"), param(2, 4, id="two-rolls-save-one"),
     param(3, 3, id="three-rolls-save-none")],
)
def test_unused_rolls_are_shown_beyond_three_at_the_next_turn(used, left_next):
    game = table(MAXI)
    play_turn(game, used, "ones")
    assert game.view().turn["rolls_left"] == left_next


def test_saved_rolls_may_all_be_spent_and_then_no_more():
    game = table(MAXI)
    play_turn(game, 1, "ones")
    for used in range(1, 6):
        rolls(game, 1)
        assert game.view().turn["rolls_used"] == used
        assert game.view().turn["rolls_left"] == 5 - used
    refused("no_rolls_left", game, "roll", rng=ScriptedRng(1, 1, 1, 1, 1, 1))
    game.fill("twos", scratch=True)
    assert game.view().turn["rolls_left"] == 3      # every saved roll was spent


@pytest.mark.parametrize(
    ("used_per_turn", "left_at_each_turn"),
    [
        param((1, 1, 1, 1), (3, 5, 7, 9, 11), id="saving-every-turn-accumulates"),
        param((1, 4, 1), (3, 5, 4, 6), id="spend-some-then-save-again"),
        param((1, 5, 3), (3, 5, 3, 3), id="spend-all-then-none-saved"),
        param((2, 1, 6), (3, 4, 6, 3), id="spend-six-in-one-turn"),
        param((3, 3), (3, 3, 3), id="using-every-roll-saves-none"),
    ],
)
def test_saved_rolls_are_spent_and_saved_again_turn_after_turn(used_per_turn,
                                                               left_at_each_turn):
    game = table(MAXI)
    seen = [game.view().turn["rolls_left"]]
    for box, used in zip(MAXI_BOXES, used_per_turn, strict=False):
        play_turn(game, used, box)
        seen.append(game.view().turn["rolls_left"])
    assert tuple(seen) == left_at_each_turn


def test_saved_rolls_belong_to_the_seat_that_saved_them():
    game = table(MAXI, seats=3)
    play_turn(game, 1, "ones")          # seat 0 saves 2
    assert (game.current, game.view().turn["rolls_left"]) == (1, 3)
    play_turn(game, 3, "ones")          # seat 1 saves none
    assert (game.current, game.view().turn["rolls_left"]) == (2, 3)
    play_turn(game, 2, "ones")          # seat 2 saves 1
    assert (game.current, game.view().turn["rolls_left"]) == (0, 5)
    play_turn(game, 4, "twos")          # seat 0 spends 1 of its 2 saved rolls, keeps 1
    assert (game.current, game.view().turn["rolls_left"]) == (1, 3)
    play_turn(game, 1, "twos")          # seat 1 saves 2
    assert (game.current, game.view().turn["rolls_left"]) == (2, 4)
    play_turn(game, 4, "twos")          # seat 2 spends its saved roll
    assert (game.current, game.view().turn["rolls_left"]) == (0, 4)
    play_turn(game, 1, "threes")
    assert (game.current, game.view().turn["rolls_left"]) == (1, 5)
    play_turn(game, 1, "threes")
    assert (game.current, game.view().turn["rolls_left"]) == (2, 3)


@pytest.mark.parametrize("action", ["score", "scratch"])
def test_a_turn_must_use_at_least_one_roll_even_with_saved_rolls(action):
    game = table(MAXI)
    play_turn(game, 1, "ones")
    refused("roll_first", game, action, {"category": "twos"})
    assert game.view().turn["rolls_left"] == 5


def test_holding_dice_does_not_spend_a_roll():
    game = table(MAXI)
    rolls(game, 1)
    game.hold([0, 1])
    game.hold([2])
    assert game.view().turn["rolls_left"] == 2
    game.fill("chance")
    assert game.view().turn["rolls_left"] == 5


def test_saved_rolls_are_not_points():
    game = table(MAXI)
    play_turn(game, 1, "ones")
    assert game.view().totals == [0]


@pytest.mark.parametrize("ruleset", [YATZY, FORCED], ids=["yatzy", "forced-yatzy"])
def test_the_five_dice_rulesets_save_no_rolls(ruleset):
    game = table(ruleset)
    game.turn(PLAIN[ruleset.id], "ones")
    assert game.view().turn["rolls_left"] == 3
    game.roll(*PLAIN[ruleset.id])
    game.roll(hold=[0, 1, 2, 3, 4])
    game.roll(hold=[0, 1, 2, 3, 4])
    refused("no_rolls_left", game, "roll", rng=ScriptedRng(1, 1, 1, 1, 1))
