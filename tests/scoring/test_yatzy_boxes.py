"""The Yatzy rulesets as the service offers them, and the boxes of the five-dice card
(docs/games/yatzy.md, "`yatzy`: five dice, 15 rounds"): Scandinavian scoring, where a combination
counts only its own dice, the 50-point upper bonus at 63, and no Yahtzee bonus nor Joker.
Every expected value below is worked out by hand from the rule table."""

import pytest
from yatzy_support import (
    BOXES,
    FAMILY,
    FORCED,
    MAXI,
    PLAIN,
    UPPER,
    YATZY,
    YATZY_BOXES,
    card,
    each_ruleset,
    scores,
    table,
)

import scoring
from scoring.commands import Hold, Roll, Score, Scratch

param = pytest.param


# -- the rulesets ----------------------------------------------------------------------

def test_the_family_is_registered_after_yahtzee_in_the_order_of_the_rules():
    ids = list(scoring.RULESETS)
    assert ids[0] == "yahtzee"
    family = [ruleset_id for ruleset_id in ids if ruleset_id in BOXES]
    assert family == ["yatzy", "forced-yatzy", "maxi-yatzy"]
    assert ids[1:4] == family
    for ruleset in FAMILY:
        assert scoring.get_ruleset(ruleset.id) is ruleset


@pytest.mark.parametrize(
    ("ruleset", "dice"),
    [param(YATZY, 5, id="yatzy"), param(FORCED, 5, id="forced-yatzy"),
     param(MAXI, 6, id="maxi-yatzy")],
)
def test_each_ruleset_states_its_dice_rolls_players_and_no_options(ruleset, dice):
    assert ruleset.dice == dice
    assert ruleset.rolls_per_turn == 3
    assert (ruleset.min_players, ruleset.max_players) == (1, 8)
    assert ruleset.options == ()
    assert ruleset.validate_options({}) == {}
    assert ruleset.validate_options(None) == {}
    assert ruleset.name and ruleset.description.endswith(".")
    assert ruleset.moves == frozenset({Roll, Hold, Score, Scratch})


@each_ruleset
def test_an_option_is_refused_since_the_family_has_none(ruleset):
    with pytest.raises(scoring.RuleError) as error:
        ruleset.validate_options({"joker": "forced"})
    assert (error.value.code, error.value.field) == ("invalid", "options.joker")


@each_ruleset
def test_the_boxes_are_those_of_the_rule_table_in_its_order(ruleset):
    categories = ruleset.categories
    assert tuple(c.id for c in categories) == BOXES[ruleset.id]
    for category in categories:
        assert category.section == ("upper" if category.id in UPPER else "lower")
        assert category.name
        assert category.description.endswith(".")
    assert len({c.name for c in categories}) == len(categories)


@pytest.mark.parametrize(
    ("ruleset", "rounds"),
    [param(YATZY, 15, id="yatzy"), param(FORCED, 15, id="forced-yatzy"),
     param(MAXI, 20, id="maxi-yatzy")],
)
def test_there_is_one_box_for_each_round(ruleset, rounds):
    assert len(ruleset.categories) == rounds


def test_the_yahtzee_only_boxes_are_not_yatzy_boxes():
    assert {"yahtzee", "three_pairs", "villa", "tower", "maxi_yatzy"}.isdisjoint(YATZY_BOXES)


# -- the boxes of the five-dice card ----------------------------------------------------

BOX_POINTS = [
    # upper: the sum of the dice showing that face
    param([1, 1, 2, 3, 1], "ones", 3, id="ones-three-ones"),
    param([2, 3, 4, 5, 6], "ones", 0, id="ones-none-showing"),
    param([2, 2, 2, 2, 5], "twos", 8, id="twos-four-twos"),
    param([3, 1, 3, 6, 6], "threes", 6, id="threes-two-threes"),
    param([4, 4, 4, 4, 4], "fours", 20, id="fours-five-fours"),
    param([5, 1, 2, 3, 4], "fives", 5, id="fives-one-five"),
    param([6, 6, 6, 5, 5], "sixes", 18, id="sixes-three-sixes"),
    param([1, 1, 1, 1, 1], "sixes", 0, id="sixes-none-showing"),
    # one pair: the two dice of the highest pair only
    param([3, 3, 4, 5, 6], "one_pair", 6, id="one-pair-counts-only-the-pair"),
    param([3, 3, 5, 5, 6], "one_pair", 10, id="one-pair-takes-the-highest-pair"),
    param([6, 2, 1, 2, 6], "one_pair", 12, id="one-pair-unsorted"),
    param([4, 4, 4, 1, 2], "one_pair", 8, id="one-pair-from-three-of-a-kind"),
    param([1, 1, 6, 6, 6], "one_pair", 12, id="one-pair-from-full-house-takes-the-sixes"),
    param([5, 5, 5, 5, 5], "one_pair", 10, id="one-pair-from-five-of-a-kind"),
    param([1, 1, 2, 3, 4], "one_pair", 2, id="one-pair-of-ones"),
    param([1, 2, 3, 4, 6], "one_pair", 0, id="one-pair-no-pair-is-not"),
    param([2, 3, 4, 5, 6], "one_pair", 0, id="one-pair-straight-is-not"),
    # two pairs: two pairs of different faces, those four dice only
    param([1, 1, 2, 3, 3], "two_pairs", 8, id="two-pairs-ones-and-threes"),
    param([3, 3, 5, 5, 6], "two_pairs", 16, id="two-pairs-counts-only-the-pairs"),
    param([6, 5, 6, 1, 5], "two_pairs", 22, id="two-pairs-unsorted"),
    param([2, 2, 2, 5, 5], "two_pairs", 14, id="two-pairs-from-full-house"),
    param([6, 6, 6, 5, 5], "two_pairs", 22, id="two-pairs-from-full-house-sixes-over-fives"),
    param([4, 4, 4, 4, 1], "two_pairs", 0, id="two-pairs-four-of-a-kind-is-not"),
    param([6, 6, 6, 6, 6], "two_pairs", 0, id="two-pairs-five-of-a-kind-is-not"),
    param([6, 6, 1, 2, 3], "two_pairs", 0, id="two-pairs-one-pair-is-not"),
    param([2, 2, 2, 1, 3], "two_pairs", 0, id="two-pairs-three-of-a-kind-is-not"),
    param([1, 2, 3, 4, 5], "two_pairs", 0, id="two-pairs-straight-is-not"),
    # three of a kind: three dice of one face only
    param([3, 3, 3, 4, 5], "three_of_a_kind", 9, id="three-kind-counts-only-three-dice"),
    param([5, 2, 5, 1, 5], "three_of_a_kind", 15, id="three-kind-unsorted"),
    param([6, 6, 6, 6, 1], "three_of_a_kind", 18, id="three-kind-from-four-of-a-kind"),
    param([4, 4, 4, 4, 4], "three_of_a_kind", 12, id="three-kind-from-five-of-a-kind"),
    param([2, 2, 2, 6, 6], "three_of_a_kind", 6, id="three-kind-from-full-house-is-the-triple"),
    param([1, 1, 1, 2, 3], "three_of_a_kind", 3, id="three-kind-of-ones"),
    param([2, 2, 5, 5, 6], "three_of_a_kind", 0, id="three-kind-two-pairs-is-not"),
    param([1, 2, 3, 4, 5], "three_of_a_kind", 0, id="three-kind-straight-is-not"),
    # four of a kind: four dice of one face only
    param([2, 2, 2, 2, 6], "four_of_a_kind", 8, id="four-kind-counts-only-four-dice"),
    param([6, 3, 6, 6, 6], "four_of_a_kind", 24, id="four-kind-unsorted"),
    param([1, 1, 1, 1, 1], "four_of_a_kind", 4, id="four-kind-from-five-ones"),
    param([6, 6, 6, 6, 6], "four_of_a_kind", 24, id="four-kind-from-five-sixes"),
    param([3, 3, 3, 5, 5], "four_of_a_kind", 0, id="four-kind-full-house-is-not"),
    param([4, 4, 4, 1, 2], "four_of_a_kind", 0, id="four-kind-three-of-a-kind-is-not"),
    # small straight: exactly 1-2-3-4-5, 15 points
    param([1, 2, 3, 4, 5], "small_straight", 15, id="small-straight-12345"),
    param([5, 3, 1, 4, 2], "small_straight", 15, id="small-straight-unsorted"),
    param([2, 3, 4, 5, 6], "small_straight", 0, id="small-straight-23456-is-not"),
    param([1, 2, 3, 4, 6], "small_straight", 0, id="small-straight-1234-and-6-is-not"),
    param([1, 2, 3, 4, 4], "small_straight", 0, id="small-straight-run-of-four-is-not"),
    param([1, 3, 4, 5, 6], "small_straight", 0, id="small-straight-3456-and-1-is-not"),
    # large straight: exactly 2-3-4-5-6, 20 points
    param([2, 3, 4, 5, 6], "large_straight", 20, id="large-straight-23456"),
    param([6, 4, 2, 5, 3], "large_straight", 20, id="large-straight-unsorted"),
    param([1, 2, 3, 4, 5], "large_straight", 0, id="large-straight-12345-is-not"),
    param([3, 4, 5, 6, 6], "large_straight", 0, id="large-straight-run-of-four-is-not"),
    param([1, 3, 4, 5, 6], "large_straight", 0, id="large-straight-3456-and-1-is-not"),
    # full house: three of one face and two of another, the sum of all five dice
    param([1, 1, 2, 2, 2], "full_house", 8, id="full-house-twos-over-ones"),
    param([6, 6, 6, 5, 5], "full_house", 28, id="full-house-sixes-over-fives"),
    param([2, 5, 2, 5, 5], "full_house", 19, id="full-house-unsorted"),
    param([1, 1, 1, 6, 6], "full_house", 15, id="full-house-ones-over-sixes"),
    param([5, 5, 5, 5, 5], "full_house", 0, id="full-house-five-of-a-kind-is-not"),
    param([4, 4, 4, 4, 2], "full_house", 0, id="full-house-four-and-one-is-not"),
    param([2, 2, 3, 3, 4], "full_house", 0, id="full-house-two-pairs-is-not"),
    param([1, 1, 1, 2, 3], "full_house", 0, id="full-house-three-of-a-kind-is-not"),
    param([1, 2, 3, 4, 5], "full_house", 0, id="full-house-straight-is-not"),
    # chance: the sum of all five dice
    param([1, 1, 1, 1, 1], "chance", 5, id="chance-lowest"),
    param([6, 6, 6, 6, 6], "chance", 30, id="chance-highest"),
    param([1, 2, 3, 4, 6], "chance", 16, id="chance-mixed"),
    # yatzy: 50 if all five dice show the same face
    param([6, 6, 6, 6, 6], "yatzy", 50, id="yatzy-five-sixes"),
    param([1, 1, 1, 1, 1], "yatzy", 50, id="yatzy-five-ones"),
    param([6, 6, 6, 6, 5], "yatzy", 0, id="yatzy-four-of-a-kind-is-not"),
]


@pytest.mark.parametrize(("dice", "box", "points"), BOX_POINTS)
def test_calculator_gives_each_box_its_points_from_the_rule_table(dice, box, points):
    assert scores(YATZY, dice)[box] == points


@pytest.mark.parametrize(("dice", "box", "points"), BOX_POINTS)
def test_scoring_a_box_in_play_enters_the_points_from_the_rule_table(dice, box, points):
    game = table(YATZY)
    game.roll(*dice)
    assert game.view().choices[box] == points
    outcome = game.fill(box)
    assert game.card()[box] == points
    assert outcome.entries == [scoring.Entry(seat=0, category=box, points=points, round=1)]


def test_the_calculator_values_every_box_for_one_set_of_dice():
    assert scores(YATZY, [6, 6, 6, 5, 5]) == {
        "ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 10, "sixes": 18,
        "one_pair": 12, "two_pairs": 22, "three_of_a_kind": 18, "four_of_a_kind": 0,
        "small_straight": 0, "large_straight": 0, "full_house": 28, "chance": 28, "yatzy": 0,
    }


@pytest.mark.parametrize("face", range(1, 7))
def test_five_of_a_kind_is_not_two_pairs(face):
    assert scores(YATZY, [face] * 5)["two_pairs"] == 0


@pytest.mark.parametrize("face", range(1, 7))
def test_five_of_a_kind_is_not_a_full_house(face):
    assert scores(YATZY, [face] * 5)["full_house"] == 0


@pytest.mark.parametrize(
    "dice",
    [param([6, 6, 1, 2, 3], id="pair-of-sixes"), param([1, 1, 3, 4, 5], id="pair-of-ones"),
     param([4, 4, 4, 1, 2], id="three-of-a-kind")],
)
def test_a_single_pair_is_not_two_pairs(dice):
    # docs/games/yatzy.md: a published 248.63 came from counting a single pair as two pairs.
    assert scores(YATZY, dice)["two_pairs"] == 0


@pytest.mark.parametrize(
    ("dice", "points"),
    [param([1, 1, 1, 1, 1], 50, id="ones"), param([6, 6, 6, 6, 6], 50, id="sixes"),
     param([6, 6, 6, 6, 1], 0, id="four-sixes")],
)
def test_yatzy_is_50_whatever_the_face(dice, points):
    assert scores(YATZY, dice)["yatzy"] == points


@pytest.mark.parametrize("face", range(1, 7))
def test_five_of_a_kind_scores_each_box_as_its_own_dice(face):
    answer = scores(YATZY, [face] * 5)
    assert answer[UPPER[face - 1]] == 5 * face
    assert answer["one_pair"] == 2 * face
    assert answer["three_of_a_kind"] == 3 * face
    assert answer["four_of_a_kind"] == 4 * face
    assert answer["chance"] == 5 * face
    assert answer["yatzy"] == 50


# -- the upper bonus and the totals ----------------------------------------------------

def dice_with(face: int, count: int, dice: int = 5) -> list[int]:
    """``count`` dice showing ``face``, the others all different from it and each other."""
    others = [f for f in (2, 3, 4, 5, 6, 1) if f != face][: dice - count]
    return [face] * count + others


# A full lower card of known points, in table order.
LOWER_TURNS = [
    ("one_pair", [6, 6, 1, 2, 3], 12),
    ("two_pairs", [6, 6, 5, 5, 1], 22),
    ("three_of_a_kind", [6, 6, 6, 1, 2], 18),
    ("four_of_a_kind", [6, 6, 6, 6, 1], 24),
    ("small_straight", [1, 2, 3, 4, 5], 15),
    ("large_straight", [2, 3, 4, 5, 6], 20),
    ("full_house", [6, 6, 6, 5, 5], 28),
    ("chance", [6, 6, 6, 6, 5], 29),
    ("yatzy", [2, 2, 2, 2, 2], 50),
]
LOWER_SUM = 12 + 22 + 18 + 24 + 15 + 20 + 28 + 29 + 50


@pytest.mark.parametrize(
    ("upper_counts", "upper_total", "bonus"),
    [
        param((3, 3, 3, 3, 3, 3), 63, 50, id="three-of-each-is-63-bonus"),
        param((2, 3, 3, 3, 3, 3), 62, 0, id="one-short-62-no-bonus"),
        param((0, 0, 4, 4, 4, 3), 66, 50, id="above-63-bonus"),
        param((5, 5, 5, 5, 5, 5), 105, 50, id="all-fives-bonus-is-still-50"),
        param((0, 0, 0, 0, 0, 0), 0, 0, id="nothing"),
    ],
)
@pytest.mark.parametrize("ruleset", [YATZY, FORCED], ids=["yatzy", "forced-yatzy"])
def test_a_whole_card_totals_upper_plus_upper_bonus_plus_lower(
    ruleset, upper_counts, upper_total, bonus
):
    game = table(ruleset)
    for face, count in enumerate(upper_counts, start=1):
        game.turn(dice_with(face, count), UPPER[face - 1])
    shown = game.view().players[0]
    assert shown["upper_total"] == upper_total
    assert shown["upper_bonus"] == bonus        # shown as soon as the upper boxes reach 63
    assert shown["total"] == upper_total + bonus
    for box, dice, points in LOWER_TURNS:
        game.turn(dice, box)
        assert game.card()[box] == points
    view = game.view()
    assert view.finished
    assert view.players[0]["upper_total"] == upper_total
    assert view.players[0]["upper_bonus"] == bonus
    assert view.totals == [upper_total + bonus + LOWER_SUM]
    assert game.events[-1].data == {"winners": [0], "totals": view.totals}


@pytest.mark.parametrize(
    ("filled", "upper_total", "bonus"),
    [
        param({"sixes": 30, "fives": 25, "fours": 8}, 63, 50, id="63-from-three-boxes"),
        param({"sixes": 30, "fives": 25, "fours": 4, "threes": 3}, 62, 0, id="62"),
        param({"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},
              63, 50, id="63-three-of-each"),
    ],
)
def test_the_upper_bonus_is_50_at_63_and_none_at_62(filled, upper_total, bonus):
    shown = YATZY.seat_view(card(YATZY, **filled), 0)
    assert (shown["upper_total"], shown["upper_bonus"]) == (upper_total, bonus)
    assert shown["total"] == upper_total + bonus


@each_ruleset
def test_a_seat_shows_its_card_and_totals_but_no_yahtzee_bonus(ruleset):
    game = table(ruleset, seats=2)
    view = game.view()
    for player in view.players:
        assert set(player) == {"scorecard", "upper_total", "upper_bonus", "total"}
        assert player["scorecard"] == dict.fromkeys(BOXES[ruleset.id])
    game.turn(PLAIN[ruleset.id], "ones")
    assert "yahtzee_bonus" not in game.view().players[0]


# -- no Yahtzee bonus and no Joker -----------------------------------------------------

@pytest.mark.parametrize("first", [param(False, id="yatzy-box-50"), param(True, id="scratched")])
def test_a_second_yatzy_earns_no_bonus_and_scores_as_its_dice_in_any_open_box(first):
    game = table(YATZY)
    game.roll(3, 3, 3, 3, 3)
    game.fill("yatzy", scratch=first)
    game.roll(3, 3, 3, 3, 3)
    choices = game.view().choices
    # every open box is offered at the points of its own dice: no Joker
    assert choices == {
        "ones": 0, "twos": 0, "threes": 15, "fours": 0, "fives": 0, "sixes": 0,
        "one_pair": 6, "two_pairs": 0, "three_of_a_kind": 9, "four_of_a_kind": 12,
        "small_straight": 0, "large_straight": 0, "full_house": 0, "chance": 15,
    }
    outcome = game.fill("full_house")
    (scored,) = outcome.events
    assert scored.data == {
        "category": "full_house", "points": 0, "dice": [3] * 5, "yahtzee_bonus": 0,
    }
    assert game.card()["full_house"] == 0
    assert game.view().totals == [0 if first else 50]


def test_a_second_maxi_yatzy_earns_no_bonus_and_any_open_box_may_take_it():
    game = table(MAXI)
    game.turn([2] * 6, "maxi_yatzy")
    game.roll(*[2] * 6)
    choices = game.view().choices
    assert set(choices) == set(BOXES["maxi-yatzy"]) - {"maxi_yatzy"}
    assert choices["twos"] == 12 and choices["chance"] == 12 and choices["tower"] == 0
    (scored,) = game.fill("chance").events
    assert scored.data["yahtzee_bonus"] == 0
    assert game.view().totals == [112]
