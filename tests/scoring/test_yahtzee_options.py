"""Options and seats (docs/games/yahtzee.md, "Options (house rules)"; 1-8 seats)."""

import pytest
from yahtzee_support import YAHTZEE

import scoring

param = pytest.param

DEFAULTS = {"yahtzee_bonus": "unlimited", "joker": "forced"}


@pytest.mark.parametrize("given", [param(None, id="none"), param({}, id="empty")])
def test_defaults_are_unlimited_bonus_and_forced_joker(given):
    assert YAHTZEE.validate_options(given) == DEFAULTS


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        param({"joker": "free"}, {"yahtzee_bonus": "unlimited", "joker": "free"}, id="joker-only"),
        param({"yahtzee_bonus": "single"}, {"yahtzee_bonus": "single", "joker": "forced"},
              id="bonus-only"),
        param({"yahtzee_bonus": "none", "joker": "none"},
              {"yahtzee_bonus": "none", "joker": "none"}, id="both"),
    ],
)
def test_missing_options_take_their_defaults(given, expected):
    assert YAHTZEE.validate_options(given) == expected


@pytest.mark.parametrize("bonus", ["unlimited", "single", "none"])
@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_every_documented_value_is_accepted(bonus, joker):
    given = {"yahtzee_bonus": bonus, "joker": joker}
    assert YAHTZEE.validate_options(given) == given


def test_validation_does_not_modify_the_given_options():
    given = {"joker": "free"}
    YAHTZEE.validate_options(given)
    assert given == {"joker": "free"}


@pytest.mark.parametrize(
    ("given", "field"),
    [
        param({"jokers": "forced"}, "options.jokers", id="unknown-option"),
        param({"joker": "forced", "bonus": "single"}, "options.bonus", id="unknown-beside-known"),
        param({"joker": "FORCED"}, "options.joker", id="wrong-case"),
        param({"joker": "official"}, "options.joker", id="unknown-joker-value"),
        param({"joker": None}, "options.joker", id="joker-null"),
        param({"joker": True}, "options.joker", id="joker-bool"),
        param({"joker": ""}, "options.joker", id="joker-empty"),
        param({"yahtzee_bonus": "double"}, "options.yahtzee_bonus", id="unknown-bonus-value"),
        param({"yahtzee_bonus": 100}, "options.yahtzee_bonus", id="bonus-number"),
        param({"yahtzee_bonus": ["single"]}, "options.yahtzee_bonus", id="bonus-list"),
    ],
)
def test_an_unknown_option_or_a_bad_value_is_invalid(given, field):
    with pytest.raises(scoring.RuleError) as refused:
        YAHTZEE.validate_options(given)
    assert refused.value.code == "invalid"
    assert refused.value.field == field


@pytest.mark.parametrize("seats", range(1, 9))
def test_one_to_eight_seats_are_accepted(seats):
    YAHTZEE.check_seats(seats)
    state = YAHTZEE.new_state(seats=seats, options=YAHTZEE.validate_options({}))
    view = YAHTZEE.view(state, options=YAHTZEE.validate_options({}))
    assert len(view.players) == seats
    assert view.totals == [0] * seats


@pytest.mark.parametrize("seats", [0, 9, -1, 100])
def test_other_seat_counts_are_invalid(seats):
    for attempt in (
        lambda: YAHTZEE.check_seats(seats),
        lambda: YAHTZEE.new_state(seats=seats, options=YAHTZEE.validate_options({})),
    ):
        with pytest.raises(scoring.RuleError) as refused:
            attempt()
        assert refused.value.code == "invalid"


def test_the_registry_knows_yahtzee_and_refuses_unknown_rulesets():
    assert scoring.get_ruleset("yahtzee") is YAHTZEE
    for unknown in ("yahtzee2", "", None, ["yahtzee"]):
        with pytest.raises(scoring.RuleError) as refused:
            scoring.get_ruleset(unknown)
        assert refused.value.code == "unknown_ruleset"


def test_the_options_declare_their_values_and_defaults():
    declared = {o.id: (o.values, o.default) for o in YAHTZEE.options}
    assert declared == {
        "yahtzee_bonus": (("unlimited", "single", "none"), "unlimited"),
        "joker": (("forced", "free", "none"), "forced"),
    }
