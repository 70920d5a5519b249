"""Rule families: each ruleset answers through its family, registered beside its rules."""

import random

import pytest

from scoring import FAMILIES, RULESETS, family_of, get_ruleset
from scoring.strategy.players import computer_command, levels_for


def test_every_ruleset_belongs_to_exactly_one_family() -> None:
    owners = {
        ruleset.id: [family.id for family in FAMILIES.values() if ruleset in family.rulesets]
        for ruleset in RULESETS.values()
    }
    assert owners == {
        "yahtzee": ["box-games"],
        "yatzy": ["box-games"],
        "forced-yatzy": ["box-games"],
        "maxi-yatzy": ["box-games"],
        "ten-thousand": ["ten-thousand"],
    }
    assert all(family_of(id_) is family_of(RULESETS[id_]) for id_ in RULESETS)


def test_the_rulesets_are_listed_family_by_family_in_the_published_order() -> None:
    assert list(RULESETS) == ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy", "ten-thousand"]


@pytest.mark.parametrize(
    ("ruleset_id", "levels"),
    [
        ("yahtzee", ("random", "greedy", "optimal")),
        ("maxi-yatzy", ("random", "greedy", "optimal")),
        ("ten-thousand", ("random", "greedy", "classic", "optimal")),
        ("no-such-game", ()),
    ],
)
def test_each_family_offers_its_computer_levels(ruleset_id: str, levels: tuple[str, ...]) -> None:
    assert levels_for(ruleset_id) == levels


def test_advice_and_analysis_are_offered_where_the_strategy_is_solved() -> None:
    solved = [id_ for id_, ruleset in RULESETS.items() if family_of(ruleset).solved(ruleset)]
    assert solved == ["yahtzee", "yatzy", "forced-yatzy", "ten-thousand"]


def test_ten_thousand_games_that_differ_only_in_target_share_a_table() -> None:
    ruleset = get_ruleset("ten-thousand")
    family = family_of(ruleset)
    short = family.table_options(ruleset, {"target": 5000, "bank_minimum": 500})
    long = family.table_options(ruleset, {"target": 20000, "bank_minimum": 500})
    assert short == long == ("ten-thousand", {"bank_minimum": 500})


def test_ten_thousand_is_analysed_in_games_of_two_seats_but_not_three() -> None:
    ruleset = get_ruleset("ten-thousand")
    family = family_of(ruleset)
    options = ruleset.validate_options({})
    assert family.analysis_refusal(ruleset, ruleset.new_state(seats=2, options=options)) is None
    refusal = family.analysis_refusal(ruleset, ruleset.new_state(seats=3, options=options))
    assert refusal is not None and "3" in str(refusal)


def _finished(ruleset_id: str, seats: int, seed: int) -> dict:
    """A whole game of random computer seats, played through the engine."""
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.validate_options({"target": 2000} if ruleset_id == "ten-thousand" else {})
    state = ruleset.new_state(seats=seats, options=options)
    rng = random.Random(seed)
    while not state["finished"]:
        command = computer_command(ruleset, state, "random", options, rng, folder=".")
        state = ruleset.move(
            state, seat=state["current"], command=command, options=options, rng=rng
        ).state
    return state


@pytest.mark.parametrize("ruleset_id", ["yahtzee", "maxi-yatzy", "ten-thousand"])
def test_a_finished_games_standings_rank_the_seats_by_points(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    state = _finished(ruleset_id, seats=3, seed=7)
    standings = family_of(ruleset).standings(ruleset, state, {})
    view = ruleset.view(state, options=ruleset.validate_options({}))
    assert standings.totals == view.totals
    assert standings.winners == view.winners
    assert sorted(standings.ranking) == [0, 1, 2]
    assert standings.ranking[0] in standings.winners
    ranked = [standings.totals[seat] for seat in standings.ranking]
    assert ranked == sorted(ranked, reverse=True)


def test_a_seat_that_left_ranks_last_whatever_its_points() -> None:
    ruleset = get_ruleset("yahtzee")
    options = ruleset.validate_options({})
    state = _finished("yahtzee", seats=2, seed=3)
    best = state["winners"][0]
    state["left"][best] = True
    standings = family_of(ruleset).standings(ruleset, state, options)
    assert standings.ranking == [1 - best, best]
