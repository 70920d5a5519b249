"""What a selection of dice scores (docs/games/ten-thousand.md, "What scores"): every
example of the rule text, the table row by row, best splits, non-scoring selections, the
pure helpers, and the stateless calculator."""

import pytest
from test_ten_thousand_support import TEN, brute_value, options

import scoring
from scoring.tenthousand.points import (
    best_free_selection,
    best_selection,
    can_score,
    kind_points,
    selection_value,
)

param = pytest.param


def calculate(dice):
    return TEN.calculate({"dice": dice}, options=options())


def case(dice, points):
    label = "-".join(map(str, dice))
    return param(dice, points, id=f"{label}={points}")


# -- the rule text ---------------------------------------------------------------------

EXAMPLES = [
    case([1, 1, 1], 1000),
    case([1, 5], 150),
    case([5, 5, 5], 500),
    case([2, 2], None),
    case([1, 1, 1, 5, 5, 5], 1500),
    case([1, 1, 1, 1], 2000),
]

TABLE = [
    case([1, 2, 3, 4, 5, 6], 2000),
    case([1] * 6, 8000),
    case([1] * 5, 4000),
    case([1] * 4, 2000),
    case([1] * 3, 1000),
    *(case([d] * 6, d * 800) for d in range(2, 7)),
    *(case([d] * 5, d * 400) for d in range(2, 7)),
    *(case([d] * 4, d * 200) for d in range(2, 7)),
    *(case([d] * 3, d * 100) for d in range(2, 7)),
    case([1], 100),
    case([5], 50),
]

SPLITS = [
    # More dice of a face always beat a split of them.
    case([2] * 6, 1600),
    case([5] * 6, 4000),
    case([5] * 4, 1000),
    case([1] * 5 + [5], 4050),
    case([1, 1, 1, 1, 5], 2050),
    case([1, 1, 5, 5], 300),
    case([1, 1], 200),
    case([5, 5], 100),
    case([2, 2, 2, 3, 3, 3], 500),
    case([4, 4, 4, 6, 6, 6], 1000),
    case([2, 2, 2, 1], 300),
    case([6, 6, 6, 6, 5, 1], 1350),
    case([3, 3, 3, 3, 1, 1], 800),
    # The straight beats its 1 and 5 taken alone.
    case([6, 5, 4, 3, 2, 1], 2000),
    case([3, 1, 6, 2, 5, 4], 2000),
]

NOT_SCORING = [
    case([2], None),
    case([3, 4], None),
    case([6, 6], None),
    case([1, 2], None),
    case([5, 5, 3], None),
    case([1, 1, 1, 2], None),
    case([2, 2, 2, 3], None),
    case([2, 2, 2, 2, 3, 3], None),
    case([1, 2, 3, 4, 5], None),
    case([2, 3, 4, 5, 6], None),
    case([1, 2, 3, 4, 5, 5], None),
    case([4, 4, 6, 6, 3, 3], None),
]


@pytest.mark.parametrize(("dice", "points"), EXAMPLES)
def test_every_example_of_the_rule_text(dice, points):
    assert selection_value(dice) == points


@pytest.mark.parametrize(("dice", "points"), TABLE)
def test_the_scoring_table_row_by_row(dice, points):
    assert selection_value(dice) == points
    assert calculate(dice) == {"points": points, "scoring": True}


@pytest.mark.parametrize(("dice", "points"), SPLITS)
def test_a_selection_takes_its_best_split(dice, points):
    assert selection_value(dice) == points
    assert brute_value(dice) == points


@pytest.mark.parametrize(("dice", "points"), NOT_SCORING)
def test_a_selection_with_a_die_outside_every_combination_does_not_score(dice, points):
    assert selection_value(dice) is None
    assert calculate(dice) == {"points": 0, "scoring": False}


def test_the_empty_selection_does_not_score():
    assert selection_value([]) is None


def test_the_order_of_the_dice_does_not_matter():
    assert selection_value([5, 1, 5, 1, 5, 1]) == selection_value([1, 1, 1, 5, 5, 5]) == 1500


@pytest.mark.parametrize(
    ("face", "count", "points"),
    [(1, 3, 1000), (1, 6, 8000), (2, 3, 200), (6, 6, 4800), (5, 4, 1000)],
)
def test_kind_points(face, count, points):
    assert kind_points(face, count) == points


@pytest.mark.parametrize("count", [0, 1, 2, 7])
def test_kind_points_refuses_a_count_outside_three_to_six(count):
    with pytest.raises(ValueError):
        kind_points(2, count)


# -- the helpers for throws ------------------------------------------------------------

@pytest.mark.parametrize(
    ("dice", "positions", "points"),
    [
        param([2, 2, 3, 3, 4, 6], [], 0, id="nothing"),
        param([2, 3, 4], [], 0, id="nothing-of-three"),
        param([1, 2, 3, 4, 6, 6], [0], 100, id="a-one"),
        param([2, 5, 3, 5, 4, 6], [1, 3], 100, id="two-fives"),
        param([4, 1, 4, 5, 4, 2], [0, 1, 2, 3, 4], 550, id="fours-one-five"),
        param([6, 5, 4, 3, 2, 1], [0, 1, 2, 3, 4, 5], 2000, id="straight"),
        param([3, 3, 3, 3, 3, 3], [0, 1, 2, 3, 4, 5], 2400, id="six-threes"),
        param([2, 2, 2, 3, 3, 3], [0, 1, 2, 3, 4, 5], 500, id="two-triples"),
        param([5], [0], 50, id="a-single-five"),
        param([], [], 0, id="no-dice"),
    ],
)
def test_best_selection_takes_every_die_that_can_score(dice, positions, points):
    best = best_selection(dice)
    assert best == (positions, points)
    assert best.positions == positions
    assert best.points == points
    assert can_score(dice) is bool(positions)


def test_best_free_selection_counts_positions_among_all_six_dice():
    dice = [1, 2, 5, 5, 3, 1]
    set_aside = [True, False, False, True, False, False]
    assert best_free_selection(dice, set_aside) == ([2, 5], 150)
    assert best_free_selection([1, 1, 1, 2, 3, 4], [True] * 3 + [False] * 3) == ([], 0)


# -- the calculator --------------------------------------------------------------------

def test_the_calculator_ignores_options():
    body = {"dice": [1, 5]}
    chosen = options(target=2000, bank_minimum=0, final_round=True)
    assert TEN.calculate(body, options=chosen) == {"points": 150, "scoring": True}


@pytest.mark.parametrize(
    "body",
    [
        param({}, id="missing"),
        param({"dice": None}, id="null"),
        param({"dice": []}, id="empty"),
        param({"dice": [1] * 7}, id="seven-dice"),
        param({"dice": [0]}, id="face-0"),
        param({"dice": [7]}, id="face-7"),
        param({"dice": [1, -1]}, id="negative"),
        param({"dice": [True]}, id="bool"),
        param({"dice": [1.0]}, id="float"),
        param({"dice": ["1"]}, id="string-face"),
        param({"dice": "11"}, id="string"),
        param({"dice": {"0": 1}}, id="object"),
    ],
)
def test_the_calculator_refuses_anything_but_one_to_six_faces(body):
    with pytest.raises(scoring.RuleError) as refused:
        TEN.calculate(body, options=options())
    assert refused.value.code == "invalid_dice"
    assert refused.value.field == "dice"
