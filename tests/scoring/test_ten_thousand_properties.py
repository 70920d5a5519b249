"""Properties of the Ten Thousand engine for any dice and any game, checked with Hypothesis
against an independent brute force (every partition of the dice into the table's
combinations).  Example counts are kept small so the suite stays fast."""

import copy
import json
import random
from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_ten_thousand_support import (
    TEN,
    ScriptedRng,
    Table,
    brute_can_score,
    brute_value,
    die_fits_somewhere,
    options,
    sub_selections,
    types,
)

import scoring
from scoring.commands import command_for
from scoring.tenthousand.points import (
    best_free_selection,
    best_selection,
    can_score,
    selection_value,
)


def modest(examples: int):
    # No example database: the tests must not write outside tests/scoring and scoring/.
    return settings(max_examples=examples, deadline=None, database=None)


faces_st = st.lists(st.integers(1, 6), min_size=0, max_size=6)
throw_st = st.lists(st.integers(1, 6), min_size=1, max_size=6)
six_st = st.lists(st.integers(1, 6), min_size=6, max_size=6)


# -- selections ------------------------------------------------------------------------

@modest(400)
@given(faces_st)
def test_a_selection_is_worth_its_best_split_into_combinations(faces):
    assert selection_value(faces) == brute_value(faces)


@modest(300)
@given(throw_st)
def test_a_selection_fails_exactly_when_some_die_fits_no_combination(faces):
    stray = not all(die_fits_somewhere(faces, i) for i in range(len(faces)))
    assert (selection_value(faces) is None) is stray
    answer = TEN.calculate({"dice": faces}, options=options())
    assert answer["scoring"] is not stray
    assert answer["points"] == (0 if stray else brute_value(faces))


@modest(200)
@given(throw_st, st.randoms(use_true_random=False))
def test_the_order_of_the_dice_never_matters(faces, rnd):
    shuffled = list(faces)
    rnd.shuffle(shuffled)
    assert selection_value(shuffled) == selection_value(faces)


@modest(300)
@given(faces_st)
def test_the_best_selection_beats_every_other_selection(faces):
    values = {
        picked: brute_value([faces[i] for i in picked]) for picked in sub_selections(faces)
    }
    best = best_selection(faces)
    assert best.points == max((v for v in values.values() if v is not None), default=0)
    if best.positions:
        assert values[tuple(best.positions)] == best.points
    assert can_score(faces) is bool(best.positions) is brute_can_score(faces)


# -- throws ----------------------------------------------------------------------------

@modest(300)
@given(six_st)
def test_a_first_throw_busts_exactly_when_no_die_can_score(faces):
    table = Table(seats=2)
    outcome = table.roll(*faces)
    busted = not brute_can_score(faces)
    assert ("busted" in types(outcome)) is busted
    if busted:
        assert outcome.events[-1].data == {"dice": faces, "lost": 0}
        assert table.current == 1
    else:
        assert table.view().turn["throw_points_available"]


@modest(300)
@given(st.integers(1, 5), st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_a_later_throw_busts_exactly_when_no_thrown_die_can_score(kept, faces):
    table = Table(seats=2)
    # ``kept`` 5s then dice that score nothing: set the 5s aside, throw the rest.
    table.roll(*([5] * kept + [2, 3, 4, 6, 2][: 6 - kept]))
    thrown = faces[: 6 - kept]
    outcome = table.roll(*thrown, set_aside=list(range(kept)))
    busted = not brute_can_score(thrown)
    assert ("busted" in types(outcome)) is busted
    points = selection_value([5] * kept)
    if busted:
        assert outcome.events[-1].data == {"dice": thrown, "lost": points}
        assert table.view().turn["turn_points"] == 0
    else:
        assert table.view().turn["turn_points"] == points
        assert table.view().turn["dice"] == [5] * kept + thrown


@modest(200)
@given(six_st, st.sets(st.integers(0, 5)))
def test_a_refused_selection_changes_nothing(faces, positions):
    assume(brute_can_score(faces))
    table = Table()
    table.roll(*faces)
    chosen = sorted(positions)
    value = selection_value([faces[i] for i in chosen])
    before = copy.deepcopy(table.state)
    try:
        table.move("roll", {"set_aside": chosen}, rng=random.Random(0))
    except scoring.RuleError as error:
        assert error.code == "not_scoring"
        assert value is None
        assert table.state == before
    else:
        assert value is not None


# -- whole games -----------------------------------------------------------------------

def scoring_selections(free: list[tuple[int, int]]) -> list[list[int]]:
    """Every scoring selection of the free dice, given as (position, face) pairs."""
    return [
        [position for position, _ in picked]
        for size in range(1, len(free) + 1)
        for picked in combinations(free, size)
        if selection_value([face for _, face in picked]) is not None
    ]


def random_move(table: Table, rnd: random.Random) -> tuple[str, dict]:
    turn = table.view().turn
    if turn["dice"] is None:
        return ("pass", {}) if rnd.random() < 0.03 else ("roll", {})
    free = [(i, face) for i, face in enumerate(turn["dice"]) if not turn["set_aside"][i]]
    chosen = rnd.choice(scoring_selections(free))
    if rnd.random() < 0.03:
        return "pass", {}
    value = selection_value([turn["dice"][i] for i in chosen])
    assert value is not None
    bankable = turn["turn_points"] + value >= table.options["bank_minimum"]
    if bankable and rnd.random() < 0.6:
        return "bank", {"set_aside": chosen}
    return "roll", {"set_aside": chosen}


@modest(40)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 4),
    target=st.integers(20, 40).map(lambda n: n * 50),
    minimum=st.sampled_from([0, 300, 350]),
    final_round=st.booleans(),
)
def test_random_games_end_with_winners_and_totals_that_add_up(
    seed, seats, target, minimum, final_round
):
    rnd = random.Random(seed)
    dice = random.Random(seed + 1)
    table = Table(seats=seats, target=target, bank_minimum=minimum, final_round=final_round)
    reached = None  # (seat, turns started since) once someone reaches the target
    for _ in range(5000):
        view = table.view()
        if view.finished:
            break
        turn = view.turn
        if turn["dice"] is not None:
            # The flags promise exactly what the moves accept.
            assert turn["throw_points_available"]
            best = best_free_selection(turn["dice"], turn["set_aside"])
            trial = copy.deepcopy(table.state)
            try:
                TEN.move(trial, seat=table.current,
                         command=command_for("bank", {"set_aside": best.positions}),
                         options=table.options,
                         rng=ScriptedRng())
            except scoring.RuleError as error:
                assert error.code == "bank_too_low"
                assert not turn["can_bank"]
            else:
                assert turn["can_bank"]
        action, args = random_move(table, rnd)
        seat = table.current
        outcome = table.move(action, args, rng=dice)
        if reached is None and any(t >= target for t in table.totals):
            reached = seat
        assert json.loads(json.dumps(table.state)) == table.state
        assert all(entry.seat == seat and entry.category == "" for entry in outcome.entries)
    view = table.view()
    assert view.finished, "the game did not end"
    assert view.current_seat is None
    assert view.winners
    best_total = max(view.totals)
    assert view.winners == [s for s, t in enumerate(view.totals) if t == best_total]
    assert best_total >= target
    if not final_round:
        assert view.winners == [reached]
    for seat in range(seats):
        banked = sum(e.points for e in table.entries if e.seat == seat)
        assert view.totals[seat] == banked == view.players[seat]["total"]
    assert sum(1 for e in table.events if e.type == "banked") == len(table.entries)
    assert [e.type for e in table.events].count("finished") == 1
    assert table.events[-1].type == "finished"
    assert table.events[-1].data == {"winners": view.winners, "totals": view.totals}
    if final_round:
        # After the target is first reached, each other seat starts exactly one turn.
        first = next(
            i for i, e in enumerate(table.events)
            if e.type == "banked" and e.data["total"] >= target
        )
        later = [e.seat for e in table.events[first + 1:]
                 if e.type in ("banked", "busted", "passed")]
        assert later == [(reached + step) % seats for step in range(1, seats)]
