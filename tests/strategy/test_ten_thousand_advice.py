"""Ten Thousand advice and analysis: every option of a throw valued in the objective, the
values of a turn consistent with the solved turn-start tables, and games analysed
decision by decision."""

import random
from pathlib import Path

import pytest

from scoring import RuleError, get_ruleset
from scoring.strategy.selfplay import play_game
from scoring.tenthousand.points import can_score
from scoring.tenthousand.strategy.advice import PASS, Position, advise_position
from scoring.tenthousand.strategy.analysis import analyse_ten_thousand
from scoring.tenthousand.strategy.solver import throws
from scoring.tenthousand.strategy.tables import load_tables

TEN = get_ruleset("ten-thousand")
DEFAULTS = TEN.validate_options({})


@pytest.fixture(scope="module")
def tables(folder: Path):
    return load_tables(350, folder)


@pytest.mark.parametrize(("own", "other"), [(0, 0), (2500, 7000), (9650, 9950), (None, None)])
def test_a_turns_start_is_the_average_of_its_throws_best_options(tables, own, other) -> None:
    """The value before the first throw is the chance-weighted best option of every throw
    of six dice (a bust: the value of passing): the in-turn values agree with the table."""
    others = () if own is None else (other,)
    own = own or 0
    start = advise_position(tables, DEFAULTS, Position(own, others, 0, None))
    passed = start.value_of(PASS)
    total = 0.0
    for faces, p in throws(6):
        if not can_score(faces):
            total += p * passed
            continue
        advice = advise_position(tables, DEFAULTS, Position(own, others, 0, faces))
        total += p * advice.options[0][1]
    assert start.value_of({"keep": [], "then": "roll"}) == pytest.approx(total, abs=1e-12)


def test_two_seats_are_valued_in_chances_and_one_seat_in_turns(tables) -> None:
    duel = advise_position(tables, DEFAULTS, Position(0, (0,), 0, None))
    alone = advise_position(tables, DEFAULTS, Position(0, (), 0, None))
    assert (duel.method, duel.objective) == ("optimal", "win_probability")
    assert (alone.method, alone.objective) == ("optimal", "expected_turns")
    assert duel.options[0][1] == pytest.approx(tables.two[0, 0], abs=1e-15)
    assert alone.options[0][1] == pytest.approx(tables.one[0], abs=1e-15)
    # A pass is the turn lost: the other's chance to win from the other side, one more turn.
    assert duel.value_of(PASS) == pytest.approx(1 - tables.two[0, 0])
    assert alone.value_of(PASS) == pytest.approx(1 + tables.one[0])


def test_every_distinct_selection_is_an_option_with_roll_and_where_allowed_bank(tables) -> None:
    advice = advise_position(tables, DEFAULTS, Position(3000, (4000,), 300, (1, 5, 2, 2)))
    shown = {(tuple(o["keep"]), o["then"]) for o, _ in advice.options if o != PASS}
    # 300 + 50 reaches the bank minimum: every selection may be banked; the 2s score not.
    assert shown == {
        ((1,), "roll"), ((1,), "bank"), ((5,), "roll"), ((5,), "bank"),
        ((1, 5), "roll"), ((1, 5), "bank"),
    }
    low = advise_position(tables, DEFAULTS, Position(3000, (4000,), 250, (1, 5, 2, 2)))
    assert {"keep": [5], "then": "bank"} not in [o for o, _ in low.options]
    values = [value for _, value in advice.options]
    assert values == sorted(values, reverse=True)
    assert advice.best == advice.options[0][0]


def test_a_bank_that_reaches_the_target_wins(tables) -> None:
    advice = advise_position(tables, DEFAULTS, Position(9700, (0,), 300, (1, 3)))
    assert advice.best == {"keep": [1], "then": "bank"}
    assert advice.options[0][1] == 1.0
    alone = advise_position(tables, DEFAULTS, Position(9700, (), 300, (1, 3)))
    assert alone.options[0] == ({"keep": [1], "then": "bank"}, 1.0)  # this turn, the last


def test_a_smaller_target_is_valued_as_the_end_of_a_longer_game(tables) -> None:
    short = TEN.validate_options({"target": 2000})
    a = advise_position(tables, short, Position(500, (1000,), 0, None))
    b = advise_position(tables, DEFAULTS, Position(8500, (9000,), 0, None))
    assert a.options == b.options


def test_beyond_the_solved_games_the_method_says_approximate(tables) -> None:
    three = advise_position(tables, DEFAULTS, Position(0, (0, 500), 0, None))
    longer = TEN.validate_options({"target": 20000})
    far = advise_position(tables, longer, Position(0, (0,), 0, None))
    last = TEN.validate_options({"final_round": True})
    final = advise_position(tables, last, Position(9000, (10200,), 0, None, 10200))
    assert {three.method, far.method, final.method} == {"approximate"}
    # The last turn of a final round: 1250 or more wins; 1200 draws (counted half).
    roll = final.value_of({"keep": [], "then": "roll"})
    assert 0 < roll < 1 and final.value_of(PASS) == 0.0


@pytest.mark.parametrize(
    ("position", "code"),
    [
        (Position(10000, (0,), 0, None), "game_not_active"),
        (Position(0, (10000,), 0, None), "game_not_active"),
        (Position(0, (75,), 0, None), "invalid"),
        (Position(0, (0,), 75, None), "invalid"),
        (Position(0, (0,), 0, (1, 7)), "invalid_dice"),
        (Position(0, (0,), 0, (1, 5, 5, 5, 5, 5, 5)), "invalid_dice"),
    ],
)
def test_what_is_no_position_is_refused(tables, position: Position, code: str) -> None:
    with pytest.raises(RuleError) as refused:
        advise_position(tables, DEFAULTS, position)
    assert refused.value.code == code


def test_a_bust_leaves_only_the_pass_and_six_dice_may_be_thrown_holding_points(tables) -> None:
    bust = advise_position(tables, DEFAULTS, Position(0, (0,), 300, (2, 3, 4, 6)))
    assert bust.options == [("pass", 1 - tables.two[0, 0])]
    hot = advise_position(tables, DEFAULTS, Position(0, (0,), 600, None))
    assert hot.best == {"keep": [], "then": "roll"}
    start = advise_position(tables, DEFAULTS, Position(0, (0,), 0, None))
    assert hot.options[0][1] > start.options[0][1]  # 600 already held: better


def test_analysis_finds_optimal_play_best_and_greedy_play_wanting(tables, folder: Path) -> None:
    game = play_game(TEN, ["optimal", "greedy"], options=DEFAULTS, rng=random.Random(5),
                     folder=folder)
    analysis = analyse_ten_thousand(
        tables, DEFAULTS, 2, game.log, [0, 1], finished=True, winners=game.winners
    )
    assert (analysis.method, analysis.objective) == ("optimal", "win_probability")
    optimal, greedy = analysis.seats
    throws_scoring = [
        sum(1 for e in game.log if e["seat"] == seat and e["type"] in ("set_aside", "passed"))
        for seat in (0, 1)
    ]
    assert [s.counts["best"] + s.counts["inaccuracy"] + s.counts["mistake"]
            + s.counts["blunder"] for s in analysis.seats] == throws_scoring
    assert optimal.accuracy == 100.0 and optimal.expected_loss == 0.0
    assert greedy.expected_loss > 0 and greedy.accuracy < 100
    assert optimal.expected_start == pytest.approx(1 - greedy.expected_start)
    assert optimal.luck == pytest.approx(
        (1.0 if 0 in game.winners else 0.0) - optimal.expected_start
    )
    for decision in analysis.decisions:
        assert decision.loss >= 0
        assert (decision.label == "best") == (decision.loss == 0)


def test_a_solitaire_analysis_counts_turns(tables, folder: Path) -> None:
    game = play_game(TEN, ["classic"], options=DEFAULTS, rng=random.Random(2), folder=folder)
    analysis = analyse_ten_thousand(tables, DEFAULTS, 1, game.log, [0], finished=True)
    (seat,) = analysis.seats
    assert analysis.objective == "expected_turns"
    assert seat.expected_start == pytest.approx(tables.one[0])
    assert seat.luck == pytest.approx(seat.expected_start + seat.expected_loss - game.turns)
    worse = [d for d in analysis.decisions if d.loss > 0]
    assert worse and all(d.chosen_value > d.best_value for d in worse)
