"""The boxes of the Yahtzee scorecard, the upper bonus and the totals (docs/games/yahtzee.md,
"Boxes").  Every expected value below is worked out by hand from the rule table."""

import pytest
from yahtzee_support import BOXES, LOWER, PLAIN, UPPER, YAHTZEE, Table, card, scores

import scoring

param = pytest.param

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
    # three of a kind: the sum of ALL five dice when three or more match
    param([3, 3, 3, 4, 5], "three_of_a_kind", 18, id="three-kind-sums-all-dice"),
    param([5, 2, 5, 1, 5], "three_of_a_kind", 18, id="three-kind-unsorted"),
    param([6, 6, 6, 6, 1], "three_of_a_kind", 25, id="three-kind-from-four-of-a-kind"),
    param([5, 5, 5, 2, 2], "three_of_a_kind", 19, id="three-kind-from-full-house"),
    param([4, 4, 4, 4, 4], "three_of_a_kind", 20, id="three-kind-from-five-of-a-kind"),
    param([2, 2, 5, 5, 6], "three_of_a_kind", 0, id="three-kind-two-pairs-is-not"),
    param([1, 2, 3, 4, 5], "three_of_a_kind", 0, id="three-kind-straight-is-not"),
    # four of a kind: the sum of ALL five dice when four or more match
    param([2, 2, 2, 2, 6], "four_of_a_kind", 14, id="four-kind-sums-all-dice"),
    param([6, 3, 6, 6, 6], "four_of_a_kind", 27, id="four-kind-unsorted"),
    param([1, 1, 1, 1, 1], "four_of_a_kind", 5, id="four-kind-from-five-ones"),
    param([6, 6, 6, 6, 6], "four_of_a_kind", 30, id="four-kind-from-five-sixes"),
    param([3, 3, 3, 5, 5], "four_of_a_kind", 0, id="four-kind-full-house-is-not"),
    # full house: three of one face and two of ANOTHER
    param([2, 2, 3, 3, 3], "full_house", 25, id="full-house-threes-over-twos"),
    param([6, 1, 6, 1, 6], "full_house", 25, id="full-house-unsorted"),
    param([5, 5, 5, 5, 5], "full_house", 0, id="full-house-five-of-a-kind-is-not"),
    param([4, 4, 4, 4, 2], "full_house", 0, id="full-house-four-and-one-is-not"),
    param([2, 2, 3, 3, 4], "full_house", 0, id="full-house-two-pairs-is-not"),
    param([1, 2, 3, 4, 5], "full_house", 0, id="full-house-straight-is-not"),
    # small straight: contains 1-2-3-4, 2-3-4-5 or 3-4-5-6
    param([1, 2, 3, 4, 6], "small_straight", 30, id="small-straight-1234-and-6"),
    param([1, 2, 3, 4, 4], "small_straight", 30, id="small-straight-1234-with-duplicate"),
    param([2, 3, 4, 5, 5], "small_straight", 30, id="small-straight-2345-with-duplicate"),
    param([6, 5, 4, 3, 3], "small_straight", 30, id="small-straight-3456-unsorted"),
    param([1, 3, 4, 5, 6], "small_straight", 30, id="small-straight-3456-and-1"),
    param([1, 2, 3, 4, 5], "small_straight", 30, id="small-straight-from-large-12345"),
    param([2, 3, 4, 5, 6], "small_straight", 30, id="small-straight-from-large-23456"),
    param([1, 2, 3, 5, 6], "small_straight", 0, id="small-straight-gap-at-4-is-not"),
    param([1, 2, 4, 5, 6], "small_straight", 0, id="small-straight-gap-at-3-is-not"),
    param([1, 1, 2, 2, 3], "small_straight", 0, id="small-straight-run-of-three-is-not"),
    # large straight: exactly 1-2-3-4-5 or 2-3-4-5-6
    param([1, 2, 3, 4, 5], "large_straight", 40, id="large-straight-12345"),
    param([2, 3, 4, 5, 6], "large_straight", 40, id="large-straight-23456"),
    param([5, 3, 1, 4, 2], "large_straight", 40, id="large-straight-unsorted"),
    param([1, 2, 3, 4, 6], "large_straight", 0, id="large-straight-1234-and-6-is-not"),
    param([1, 2, 3, 4, 4], "large_straight", 0, id="large-straight-small-with-duplicate-is-not"),
    param([1, 3, 4, 5, 6], "large_straight", 0, id="large-straight-3456-and-1-is-not"),
    param([2, 3, 4, 5, 5], "large_straight", 0, id="large-straight-2345-and-5-is-not"),
    # yahtzee: all five the same
    param([6, 6, 6, 6, 6], "yahtzee", 50, id="yahtzee-five-sixes"),
    param([1, 1, 1, 1, 1], "yahtzee", 50, id="yahtzee-five-ones"),
    param([6, 6, 6, 6, 5], "yahtzee", 0, id="yahtzee-four-of-a-kind-is-not"),
    # chance: the sum of all five dice
    param([1, 1, 1, 1, 1], "chance", 5, id="chance-lowest"),
    param([6, 6, 6, 6, 6], "chance", 30, id="chance-highest"),
    param([1, 2, 3, 4, 6], "chance", 16, id="chance-mixed"),
]


@pytest.mark.parametrize(("dice", "box", "points"), BOX_POINTS)
def test_calculator_gives_each_box_its_points_from_the_rule_table(dice, box, points):
    assert scores(dice)[box] == points


@pytest.mark.parametrize(("dice", "box", "points"), BOX_POINTS)
def test_scoring_a_box_in_play_enters_the_points_from_the_rule_table(dice, box, points):
    table = Table()
    outcome = table.turn(dice, box)
    assert table.card()[box] == points
    assert outcome.events[-1].data["points"] == points


@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_five_of_a_kind_is_no_full_house_without_a_joker(joker):
    # The yahtzee box is open, so no Joker rule applies in any mode.
    assert scores([3, 3, 3, 3, 3], card(fours=12), joker=joker)["full_house"] == 0


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        param(
            [2, 3, 4, 5, 6],
            {"ones": 0, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6,
             "three_of_a_kind": 0, "four_of_a_kind": 0, "full_house": 0,
             "small_straight": 30, "large_straight": 40, "yahtzee": 0, "chance": 20},
            id="large-straight",
        ),
        param(
            [3, 5, 3, 5, 3],
            {"ones": 0, "twos": 0, "threes": 9, "fours": 0, "fives": 10, "sixes": 0,
             "three_of_a_kind": 19, "four_of_a_kind": 0, "full_house": 25,
             "small_straight": 0, "large_straight": 0, "yahtzee": 0, "chance": 19},
            id="full-house",
        ),
        param(
            [2, 2, 2, 2, 2],
            {"ones": 0, "twos": 10, "threes": 0, "fours": 0, "fives": 0, "sixes": 0,
             "three_of_a_kind": 10, "four_of_a_kind": 10, "full_house": 0,
             "small_straight": 0, "large_straight": 0, "yahtzee": 50, "chance": 10},
            id="first-yahtzee",
        ),
    ],
)
def test_calculator_answers_every_box_of_an_empty_card(dice, expected):
    assert scores(dice) == expected
    assert scores(dice, card()) == expected


def test_calculator_leaves_filled_boxes_out():
    answer = scores([1, 2, 3, 4, 5], {"chance": 15, "ones": 0, "large_straight": 40})
    assert set(answer) == set(BOXES) - {"chance", "ones", "large_straight"}
    assert answer["small_straight"] == 30


def test_calculator_with_every_box_filled_answers_nothing():
    assert scores([1, 2, 3, 4, 5], card(**dict.fromkeys(BOXES, 0))) == {}


@pytest.mark.parametrize(
    "dice",
    [
        param([1, 2, 3, 4], id="four-dice"),
        param([1, 2, 3, 4, 5, 6], id="six-dice"),
        param([], id="no-dice"),
        param([0, 1, 2, 3, 4], id="face-0"),
        param([1, 2, 3, 4, 7], id="face-7"),
        param([1, 2, 3, 4, "5"], id="face-as-string"),
        param([1, 2, 3, 4, 5.0], id="face-as-float"),
        param([True, 2, 3, 4, 5], id="face-as-bool"),
        param("12345", id="a-string"),
        param(None, id="missing"),
    ],
)
def test_calculator_refuses_bad_dice(dice):
    with pytest.raises(scoring.RuleError) as refused:
        YAHTZEE.calculate({"dice": dice}, options=YAHTZEE.validate_options({}))
    assert refused.value.code == "invalid_dice"


@pytest.mark.parametrize(
    ("scorecard", "code"),
    [
        param({"sevens": 0}, "unknown_category", id="unknown-box"),
        param({"chance": -1}, "invalid", id="negative-points"),
        param({"chance": 1.5}, "invalid", id="fractional-points"),
        param({"chance": "20"}, "invalid", id="points-as-string"),
        param({"chance": True}, "invalid", id="points-as-bool"),
        param(["chance"], "invalid", id="not-a-mapping"),
    ],
)
def test_calculator_refuses_bad_scorecards(scorecard, code):
    with pytest.raises(scoring.RuleError) as refused:
        YAHTZEE.calculate(
            {"dice": [1, 2, 3, 4, 5], "scorecard": scorecard},
            options=YAHTZEE.validate_options({}),
        )
    assert refused.value.code == code


def test_the_ruleset_describes_the_rule_table():
    assert YAHTZEE.id == "yahtzee"
    assert YAHTZEE.dice == 5
    assert YAHTZEE.rolls_per_turn == 3
    assert (YAHTZEE.min_players, YAHTZEE.max_players) == (1, 8)
    assert [c.id for c in YAHTZEE.categories] == list(BOXES)
    assert {c.id for c in YAHTZEE.categories if c.section == "upper"} == set(UPPER)
    assert {c.id for c in YAHTZEE.categories if c.section == "lower"} == set(LOWER)


# -- upper bonus and totals ------------------------------------------------------------

THREE_OF_EACH = [
    ([1, 1, 1, 2, 3], "ones"),      # 3
    ([2, 2, 2, 1, 3], "twos"),      # 6
    ([3, 3, 3, 1, 2], "threes"),    # 9
    ([4, 4, 4, 1, 2], "fours"),     # 12
    ([5, 5, 5, 1, 2], "fives"),     # 15
    ([6, 6, 6, 1, 2], "sixes"),     # 18  -> 63
]


@pytest.mark.parametrize(
    ("fills", "upper_total", "upper_bonus"),
    [
        param(THREE_OF_EACH, 63, 35, id="exactly-63-three-of-each-face"),
        param([([1, 1, 2, 3, 4], "ones"), *THREE_OF_EACH[1:]], 62, 0, id="62-one-short"),
        param([([1, 1, 1, 1, 2], "ones"), *THREE_OF_EACH[1:]], 64, 35, id="64-over"),
        param(
            [([6, 6, 6, 6, 6], "sixes"), ([5, 5, 5, 5, 5], "fives"), ([4, 4, 1, 2, 3], "fours")],
            63, 35, id="63-from-three-boxes-only",
        ),
        param(
            [([6, 6, 6, 6, 6], "sixes"), ([5, 5, 5, 5, 5], "fives"), ([4, 1, 1, 2, 3], "fours")],
            59, 0, id="59-from-three-boxes",
        ),
        param([], 0, 0, id="empty-card"),
    ],
)
def test_upper_bonus_is_35_from_63_upper_points(fills, upper_total, upper_bonus):
    table = Table()
    for dice, box in fills:
        table.turn(dice, box)
    player = table.view().players[0]
    assert player["upper_total"] == upper_total
    assert player["upper_bonus"] == upper_bonus
    assert player["total"] == upper_total + upper_bonus
    assert table.view().totals == [upper_total + upper_bonus]


def test_lower_boxes_do_not_count_towards_the_upper_bonus():
    table = Table()
    for dice, box in THREE_OF_EACH[1:]:          # 60 in the upper section
        table.turn(dice, box)
    table.turn([6, 6, 6, 6, 5], "chance")         # 29 in the lower section
    player = table.view().players[0]
    assert player["upper_total"] == 60
    assert player["upper_bonus"] == 0
    assert player["total"] == 89


def test_total_is_upper_plus_upper_bonus_plus_lower_plus_yahtzee_bonuses():
    table = Table()  # defaults: forced Joker, unlimited Yahtzee bonus
    table.turn([2, 2, 2, 2, 2], "yahtzee")          # 50, the box itself earns no bonus
    table.turn([6, 6, 6, 6, 6], "sixes")            # Joker: sixes 30, +100 bonus
    table.turn([6, 6, 6, 6, 6], "large_straight")   # Joker: 40, +100 bonus
    table.turn([5, 5, 5, 6, 6], "fives")            # 15
    table.turn([4, 4, 4, 4, 1], "fours")            # 16
    table.turn([3, 3, 1, 2, 4], "threes")           # 6   -> upper 67
    table.turn([1, 2, 3, 4, 6], "chance")           # 16  -> lower 50 + 40 + 16 = 106
    player = table.view().players[0]
    assert player["upper_total"] == 67
    assert player["upper_bonus"] == 35
    assert player["yahtzee_bonus"] == 200
    assert player["total"] == 67 + 35 + 106 + 200
    assert table.view().totals == [408]


def test_a_whole_game_adds_up_to_the_hand_counted_total():
    table = Table()
    game = [
        ([1, 1, 1, 2, 3], "ones"),              # 3
        ([2, 2, 2, 1, 3], "twos"),              # 6
        ([3, 3, 3, 1, 2], "threes"),            # 9
        ([4, 4, 4, 1, 2], "fours"),             # 12
        ([5, 5, 5, 1, 2], "fives"),             # 15
        ([6, 6, 6, 1, 2], "sixes"),             # 18 -> upper 63, bonus 35
        ([6, 6, 6, 5, 4], "three_of_a_kind"),   # 27
        ([5, 5, 5, 5, 6], "four_of_a_kind"),    # 26
        ([2, 2, 6, 6, 6], "full_house"),        # 25
        ([1, 2, 3, 4, 6], "small_straight"),    # 30
        ([6, 5, 4, 3, 2], "large_straight"),    # 40
        ([6, 6, 5, 5, 4], "chance"),            # 26
        ([3, 3, 3, 3, 3], "yahtzee"),           # 50 -> lower 224
    ]
    for dice, box in game[:-1]:
        outcome = table.turn(dice, box)
        assert [e.type for e in outcome.events] == ["scored"]
    outcome = table.turn(*game[-1])
    assert outcome.events[-1].type == "finished"
    assert outcome.events[-1].data == {"winners": [0], "totals": [63 + 35 + 224]}
    view = table.view()
    assert view.finished
    assert view.totals == [322]
    assert view.players[0]["scorecard"] == {
        "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
        "three_of_a_kind": 27, "four_of_a_kind": 26, "full_house": 25,
        "small_straight": 30, "large_straight": 40, "yahtzee": 50, "chance": 26,
    }


def test_a_scratched_box_holds_zero_whatever_the_dice():
    table = Table()
    outcome = table.turn([6, 6, 6, 6, 6], "chance", scratch=True)
    assert table.card()["chance"] == 0
    assert outcome.events[-1].type == "scratched"
    assert outcome.events[-1].data["points"] == 0


def test_scoring_dice_that_do_not_fit_enters_zero():
    table = Table()
    outcome = table.turn(PLAIN, "full_house")
    assert table.card()["full_house"] == 0
    assert outcome.events[-1].type == "scored"
