"""The Joker rules (docs/games/yahtzee.md, "The Joker" and the `joker` option).

A Joker applies when the dice are a Yahtzee and the yahtzee box is already filled (with
50 or with 0).  forced: the upper box of the face if open; else any open lower box, with
full house / small straight / large straight at 25 / 30 / 40; else 0 in an open upper
box.  free: any open box, the fixed points only once the upper box of the face is
filled.  none: a Yahtzee scores as its dice do.
"""

import pytest
from yahtzee_support import OTHER_LOWER, PLAIN, UPPER, Table, card, scores, upper_box

import scoring

param = pytest.param

# The dice of every case in the matrix: a Yahtzee of fours.
FOURS = [4, 4, 4, 4, 4]
OTHER_UPPER_AT_0 = {"ones": 0, "twos": 0, "threes": 0, "fives": 0, "sixes": 0}
LOWER_AS_THE_DICE_SCORE = {
    "three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 0,
    "small_straight": 0, "large_straight": 0, "chance": 20,
}
LOWER_WITH_JOKER_POINTS = {
    "three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 25,
    "small_straight": 30, "large_straight": 40, "chance": 20,
}

# (joker mode, fours box filled?, every lower box filled?, the legal choices for 44444)
JOKER_MATRIX = [
    param("forced", False, False, {"fours": 20}, id="forced-upper-open-must-be-taken"),
    param("forced", False, True, {"fours": 20}, id="forced-upper-open-lower-full-must-be-taken"),
    param("forced", True, False, LOWER_WITH_JOKER_POINTS,
          id="forced-upper-filled-any-lower-at-fixed-points"),
    param("forced", True, True, OTHER_UPPER_AT_0,
          id="forced-upper-and-lower-filled-zero-in-open-upper"),
    param("free", False, False, {**OTHER_UPPER_AT_0, "fours": 20, **LOWER_AS_THE_DICE_SCORE},
          id="free-upper-open-any-box-no-fixed-points"),
    param("free", False, True, {**OTHER_UPPER_AT_0, "fours": 20},
          id="free-upper-open-lower-full-any-upper"),
    param("free", True, False, {**OTHER_UPPER_AT_0, **LOWER_WITH_JOKER_POINTS},
          id="free-upper-filled-any-box-fixed-points"),
    param("free", True, True, OTHER_UPPER_AT_0, id="free-upper-and-lower-filled-open-upper"),
    param("none", False, False, {**OTHER_UPPER_AT_0, "fours": 20, **LOWER_AS_THE_DICE_SCORE},
          id="none-upper-open-scores-as-dice"),
    param("none", False, True, {**OTHER_UPPER_AT_0, "fours": 20},
          id="none-upper-open-lower-full-scores-as-dice"),
    param("none", True, False, {**OTHER_UPPER_AT_0, **LOWER_AS_THE_DICE_SCORE},
          id="none-upper-filled-scores-as-dice"),
    param("none", True, True, OTHER_UPPER_AT_0, id="none-upper-and-lower-filled-open-upper"),
]
YAHTZEE_BOX = pytest.mark.parametrize(
    "yahtzee_box", [param(50, id="yahtzee-box-50"), param(0, id="yahtzee-box-0")]
)


def matrix_card(yahtzee_box, fours_filled, lower_filled):
    filled = {"yahtzee": yahtzee_box}
    if fours_filled:
        filled["fours"] = 12
    if lower_filled:
        filled.update(dict.fromkeys(OTHER_LOWER, 0))
    return card(**filled)


def matrix_table(joker, yahtzee_box, fours_filled, lower_filled):
    """Reach the matrix case by real moves, then roll the Yahtzee of fours."""
    table = Table(joker=joker)
    if yahtzee_box == 50:
        table.turn([2, 2, 2, 2, 2], "yahtzee")
    else:
        table.turn(PLAIN, "yahtzee", scratch=True)
    if fours_filled:
        table.turn([4, 4, 4, 1, 2], "fours")
    if lower_filled:
        for box in OTHER_LOWER:
            table.turn(PLAIN, box, scratch=True)
    table.roll(*FOURS)
    return table


@YAHTZEE_BOX
@pytest.mark.parametrize(("joker", "fours_filled", "lower_filled", "expected"), JOKER_MATRIX)
def test_joker_choices_in_the_calculator(joker, yahtzee_box, fours_filled, lower_filled, expected):
    scorecard = matrix_card(yahtzee_box, fours_filled, lower_filled)
    assert scores(FOURS, scorecard, joker=joker) == expected


@YAHTZEE_BOX
@pytest.mark.parametrize(("joker", "fours_filled", "lower_filled", "expected"), JOKER_MATRIX)
def test_joker_choices_in_a_real_game(joker, yahtzee_box, fours_filled, lower_filled, expected):
    table = matrix_table(joker, yahtzee_box, fours_filled, lower_filled)
    assert table.view().choices == expected


@YAHTZEE_BOX
@pytest.mark.parametrize(("joker", "fours_filled", "lower_filled", "expected"), JOKER_MATRIX)
def test_each_joker_choice_enters_the_points_it_showed(
    joker, yahtzee_box, fours_filled, lower_filled, expected
):
    for box, points in expected.items():
        table = matrix_table(joker, yahtzee_box, fours_filled, lower_filled)
        outcome = table.fill(box)
        assert table.card()[box] == points
        assert outcome.events[0].data["points"] == points


@YAHTZEE_BOX
@pytest.mark.parametrize(("joker", "fours_filled", "lower_filled", "expected"), JOKER_MATRIX)
def test_boxes_outside_the_joker_choices_are_not_allowed(
    joker, yahtzee_box, fours_filled, lower_filled, expected
):
    table = matrix_table(joker, yahtzee_box, fours_filled, lower_filled)
    open_boxes = {box for box, value in table.card().items() if value is None}
    for box in sorted(open_boxes - set(expected)):
        for scratch in (False, True):
            with pytest.raises(scoring.RuleError) as refused:
                table.fill(box, scratch=scratch)
            assert refused.value.code == "category_not_allowed"


@pytest.mark.parametrize("face", range(1, 7))
def test_joker_forces_the_matching_upper_box(face):
    for yahtzee_box in (50, 0):
        assert scores([face] * 5, card(yahtzee=yahtzee_box)) == {upper_box(face): 5 * face}


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize("joker", ["forced", "free"])
def test_joker_gives_fixed_points_whatever_the_face(face, joker):
    scorecard = card(yahtzee=50, **{upper_box(face): 0})
    answer = scores([face] * 5, scorecard, joker=joker)
    assert answer["full_house"] == 25
    assert answer["small_straight"] == 30
    assert answer["large_straight"] == 40
    assert answer["three_of_a_kind"] == 5 * face
    assert answer["four_of_a_kind"] == 5 * face
    assert answer["chance"] == 5 * face


@pytest.mark.parametrize("face", range(1, 7))
def test_free_joker_gives_fixed_points_only_once_the_upper_box_is_filled(face):
    before = scores([face] * 5, card(yahtzee=50), joker="free")
    assert (before["full_house"], before["small_straight"], before["large_straight"]) == (0, 0, 0)
    assert before[upper_box(face)] == 5 * face
    after = scores([face] * 5, card(yahtzee=50, **{upper_box(face): face}), joker="free")
    assert (after["full_house"], after["small_straight"], after["large_straight"]) == (25, 30, 40)


@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_no_joker_while_the_yahtzee_box_is_open(joker):
    answer = scores(FOURS, card(fours=12), joker=joker)
    assert answer == {**OTHER_UPPER_AT_0, **LOWER_AS_THE_DICE_SCORE, "yahtzee": 50}


def test_joker_applies_only_to_a_yahtzee():
    # Four of a kind is no Yahtzee: every open box, as the dice score.
    answer = scores([4, 4, 4, 4, 1], card(yahtzee=50))
    assert answer == {
        "ones": 1, "twos": 0, "threes": 0, "fours": 16, "fives": 0, "sixes": 0,
        "three_of_a_kind": 17, "four_of_a_kind": 17, "full_house": 0,
        "small_straight": 0, "large_straight": 0, "chance": 17,
    }


@pytest.mark.parametrize(
    ("filled", "expected"),
    [
        param(
            {"three_of_a_kind": 0, "chance": 20, "full_house": 25},
            {"four_of_a_kind": 20, "small_straight": 30, "large_straight": 40},
            id="some-lower-filled",
        ),
        param(
            {"three_of_a_kind": 0, "four_of_a_kind": 0, "full_house": 0, "small_straight": 0,
             "chance": 0},
            {"large_straight": 40},
            id="only-large-straight-open",
        ),
        param(
            {"three_of_a_kind": 0, "four_of_a_kind": 0, "small_straight": 0,
             "large_straight": 0, "chance": 0},
            {"full_house": 25},
            id="only-full-house-open",
        ),
    ],
)
def test_forced_joker_offers_only_open_lower_boxes_once_the_upper_box_is_filled(filled, expected):
    assert scores(FOURS, card(yahtzee=50, fours=8, **filled)) == expected


def test_forced_joker_with_one_open_upper_box_left_offers_it_at_zero_in_a_real_game():
    table = Table()
    table.turn([2, 2, 2, 2, 2], "yahtzee")
    table.turn([4, 4, 4, 1, 2], "fours")
    for box in (*OTHER_LOWER, "ones", "twos", "threes", "fives"):
        table.turn(PLAIN, box, scratch=True)
    table.roll(*FOURS)
    assert table.view().choices == {"sixes": 0}
    outcome = table.fill("sixes")
    assert table.card()["sixes"] == 0
    assert outcome.events[0].data == {
        "category": "sixes", "points": 0, "dice": FOURS, "yahtzee_bonus": 100,
    }
    assert outcome.events[-1].type == "finished"


def test_forced_joker_lets_the_matching_upper_box_be_scratched():
    table = Table()
    table.turn(PLAIN, "yahtzee", scratch=True)
    table.roll(*FOURS)
    outcome = table.fill("fours", scratch=True)
    assert table.card()["fours"] == 0
    assert outcome.events[0].type == "scratched"


def test_free_joker_lets_any_open_box_be_filled():
    table = Table(joker="free")
    table.turn([2, 2, 2, 2, 2], "yahtzee")
    table.roll(*FOURS)
    table.fill("full_house")          # the fours box is open: no fixed points
    assert table.card()["full_house"] == 0
    assert table.card()["fours"] is None


@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_upper_boxes_of_other_faces_take_zero_under_any_joker_mode(joker):
    answer = scores([6] * 5, card(yahtzee=0, sixes=30, **dict.fromkeys(OTHER_LOWER, 0)),
                    joker=joker)
    assert answer == {box: 0 for box in UPPER if box != "sixes"}
