"""What the ruleset declares, its options (docs/games/ten-thousand.md, the option table of
"The end") and seats, and the bounded whole-number options added to ``Option`` for it."""

import dataclasses

import pytest
from test_ten_thousand_support import TEN, Table

import scoring
from scoring.commands import Bank, Pass, Roll
from scoring.tenthousand.rules import TenThousand

param = pytest.param

DEFAULTS = {"target": 10000, "bank_minimum": 350, "final_round": False}


def test_the_ruleset_declares_itself():
    assert isinstance(TEN, TenThousand)
    assert (TEN.id, TEN.name, TEN.dice) == ("ten-thousand", "Ten Thousand", 6)
    assert TEN.rolls_per_turn == 0  # no limit
    assert (TEN.min_players, TEN.max_players) == (1, 8)
    assert TEN.categories == ()
    assert TEN.moves == frozenset({Roll, Bank, Pass})
    assert "no limit" in TEN.description


def test_the_registry_lists_ten_thousand_last():
    assert scoring.get_ruleset("ten-thousand") is TEN
    ids = list(scoring.RULESETS)
    assert ids[0] == "yahtzee"
    assert ids[-1] == "ten-thousand"


@pytest.mark.parametrize("given", [param(None, id="none"), param({}, id="empty")])
def test_the_defaults(given):
    assert TEN.validate_options(given) == DEFAULTS


def test_the_options_declare_their_values_defaults_and_bounds():
    declared = {
        o.id: (o.kind, o.values, o.default, o.minimum, o.maximum, o.step) for o in TEN.options
    }
    assert declared == {
        "target": (int, (), 10000, 50, 100_000, 50),
        "bank_minimum": (int, (), 350, 0, 100_000, 50),
        "final_round": (bool, (False, True), False, None, None, None),
    }
    for option in TEN.options:
        assert option.check(option.default) == option.default


@pytest.mark.parametrize(
    "given",
    [
        param({"target": 50}, id="target-least"),
        param({"target": 100_000}, id="target-most"),
        param({"target": 2050}, id="target-2050"),
        param({"bank_minimum": 0}, id="minimum-0"),
        param({"bank_minimum": 50}, id="minimum-50"),
        param({"bank_minimum": 100_000}, id="minimum-most"),
        param({"final_round": True}, id="final-round-true"),
        param({"final_round": False}, id="final-round-false"),
        param({"target": 1000, "bank_minimum": 300, "final_round": True}, id="all-three"),
    ],
)
def test_values_within_bounds_are_accepted(given):
    assert TEN.validate_options(given) == {**DEFAULTS, **given}


@pytest.mark.parametrize(
    ("given", "field"),
    [
        param({"target": 0}, "options.target", id="target-0"),
        param({"target": 49}, "options.target", id="target-49"),
        param({"target": -50}, "options.target", id="target-negative"),
        param({"target": 10001}, "options.target", id="target-not-a-multiple-of-50"),
        param({"target": 100_050}, "options.target", id="target-too-high"),
        param({"target": 10000.0}, "options.target", id="target-float"),
        param({"target": "10000"}, "options.target", id="target-string"),
        param({"target": True}, "options.target", id="target-bool"),
        param({"target": None}, "options.target", id="target-null"),
        param({"bank_minimum": -50}, "options.bank_minimum", id="minimum-negative"),
        param({"bank_minimum": 349}, "options.bank_minimum", id="minimum-349"),
        param({"bank_minimum": 100_050}, "options.bank_minimum", id="minimum-too-high"),
        param({"bank_minimum": False}, "options.bank_minimum", id="minimum-bool"),
        param({"bank_minimum": 350.0}, "options.bank_minimum", id="minimum-float"),
        param({"final_round": 1}, "options.final_round", id="final-round-1"),
        param({"final_round": 0}, "options.final_round", id="final-round-0"),
        param({"final_round": "true"}, "options.final_round", id="final-round-string"),
        param({"final_round": None}, "options.final_round", id="final-round-null"),
        param({"targets": 10000}, "options.targets", id="unknown-option"),
        param({"target": 1000, "joker": "forced"}, "options.joker", id="unknown-beside-known"),
    ],
)
def test_other_values_are_invalid(given, field):
    with pytest.raises(scoring.RuleError) as refused:
        TEN.validate_options(given)
    assert refused.value.code == "invalid"
    assert refused.value.field == field


def test_the_error_spells_out_the_allowed_values():
    with pytest.raises(scoring.RuleError) as refused:
        TEN.validate_options({"target": 75})
    assert refused.value.detail == (
        "option 'target' takes a whole number from 50 to 100000, a multiple of 50"
    )
    with pytest.raises(scoring.RuleError) as refused:
        TEN.validate_options({"final_round": "yes"})
    assert refused.value.detail == "option 'final_round' takes one of: false, true"


def test_validation_does_not_modify_the_given_options():
    given = {"target": 2000}
    TEN.validate_options(given)
    assert given == {"target": 2000}


# -- the Option extension stays backwards-compatible -----------------------------------

def test_an_option_without_bounds_checks_as_before():
    option = scoring.Option("house", ("a", "b"), "a", "A house rule.")
    assert option.check("b") == "b"
    assert (option.minimum, option.maximum, option.step) == (None, None, None)
    with pytest.raises(scoring.RuleError) as refused:
        option.check("c")
    assert refused.value.detail == "option 'house' takes one of: a, b"
    assert refused.value.field == "options.house"


def test_an_unbounded_whole_number_option_takes_any_int_but_no_bool():
    option = scoring.Option("count", (), 3, "A count.", int)
    for value in (-7, 0, 10**12):
        assert option.check(value) == value
    for value in (True, 1.0, "1"):
        with pytest.raises(scoring.RuleError):
            option.check(value)


@pytest.mark.parametrize(
    ("bounds", "good", "bad"),
    [
        param({"minimum": 2}, [2, 99], [1, -2], id="minimum-only"),
        param({"maximum": 9}, [-5, 9], [10], id="maximum-only"),
        param({"step": 5}, [0, -5, 25], [3, 26], id="step-only"),
        param({"minimum": 10, "maximum": 30, "step": 10}, [10, 20, 30], [0, 15, 40],
              id="all-bounds"),
    ],
)
def test_bounds_apply_each_on_its_own(bounds, good, bad):
    option = scoring.Option("n", (), good[0], "A number.", int, **bounds)
    for value in good:
        assert option.check(value) == value
    for value in bad:
        with pytest.raises(scoring.RuleError) as refused:
            option.check(value)
        assert refused.value.code == "invalid"


def test_the_bounds_are_keyword_only():
    with pytest.raises(TypeError):
        scoring.Option("n", (), 1, "A number.", int, 0)  # type: ignore[misc]
    keyword_only = {f.name for f in dataclasses.fields(scoring.Option) if f.kw_only}
    assert keyword_only == {"minimum", "maximum", "step"}


# -- seats -----------------------------------------------------------------------------

@pytest.mark.parametrize("seats", range(1, 9))
def test_one_to_eight_seats_are_accepted(seats):
    view = Table(seats=seats).view()
    assert view.players == [{"total": 0}] * seats
    assert view.totals == [0] * seats


@pytest.mark.parametrize("seats", [0, 9, -1])
def test_other_seat_counts_are_invalid(seats):
    with pytest.raises(scoring.RuleError) as refused:
        TEN.new_state(seats=seats, options=TEN.validate_options({}))
    assert refused.value.code == "invalid"
    assert refused.value.field == "players"
