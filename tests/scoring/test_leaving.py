"""A seat that leaves: its later turns are skipped, its total stands, it cannot win."""

import copy
import random

import pytest

import scoring
from scoring.commands import command_for

YAHTZEE = scoring.get_ruleset("yahtzee")
TEN_THOUSAND = scoring.get_ruleset("ten-thousand")
YAHTZEE_OPTIONS = YAHTZEE.validate_options({})


def play_turn(ruleset, state, options, rng):
    """Roll once, score the first legal box."""
    seat = state["current"]
    state = ruleset.move(
        state, seat=seat, command=command_for("roll", {}), options=options, rng=rng
    ).state
    box = next(iter(ruleset.view(state, options=options).choices))
    return ruleset.move(
        state, seat=seat, command=command_for("score", {"category": box}), options=options, rng=rng
    ).state


def leave(ruleset, state, seat, options, end=False):
    return ruleset.leave(state, seat=seat, options=options, end=end)


def test_a_seat_that_left_is_skipped_in_turn_order():
    rng = random.Random(1)
    state = YAHTZEE.new_state(seats=3, options=YAHTZEE_OPTIONS)
    outcome = leave(YAHTZEE, state, 1, YAHTZEE_OPTIONS)
    assert [e.type for e in outcome.events] == ["left"] and outcome.events[0].seat == 1
    state = play_turn(YAHTZEE, outcome.state, YAHTZEE_OPTIONS, rng)
    assert state["current"] == 2 and state["round"] == 1
    state = play_turn(YAHTZEE, state, YAHTZEE_OPTIONS, rng)
    assert state["current"] == 0 and state["round"] == 2
    assert YAHTZEE.view(state, options=YAHTZEE_OPTIONS).left == [False, True, False]


def test_leaving_on_ones_own_turn_passes_the_dice_on():
    rng = random.Random(2)
    state = YAHTZEE.new_state(seats=2, options=YAHTZEE_OPTIONS)
    state = YAHTZEE.move(
        state, seat=0, command=command_for("roll", {}), options=YAHTZEE_OPTIONS, rng=rng
    ).state
    after = leave(YAHTZEE, state, 0, YAHTZEE_OPTIONS).state
    assert after["current"] == 1 and after["dice"] is None and after["rolls_used"] == 0


def test_the_game_ends_when_the_seats_still_playing_fill_their_cards_and_leavers_cannot_win():
    rng = random.Random(3)
    state = YAHTZEE.new_state(seats=2, options=YAHTZEE_OPTIONS)
    state = play_turn(YAHTZEE, state, YAHTZEE_OPTIONS, rng)  # seat 0 scores something
    state = leave(YAHTZEE, state, 0, YAHTZEE_OPTIONS).state
    total_at_leaving = YAHTZEE.view(state, options=YAHTZEE_OPTIONS).totals[0]
    for _ in range(13):
        assert not state["finished"]
        state = play_turn(YAHTZEE, state, YAHTZEE_OPTIONS, rng)
    view = YAHTZEE.view(state, options=YAHTZEE_OPTIONS)
    assert view.finished and view.winners == [1]
    assert view.totals[0] == total_at_leaving


def test_the_last_seat_leaving_ends_the_game_without_winners():
    state = YAHTZEE.new_state(seats=2, options=YAHTZEE_OPTIONS)
    state = leave(YAHTZEE, state, 1, YAHTZEE_OPTIONS).state
    outcome = leave(YAHTZEE, state, 0, YAHTZEE_OPTIONS)
    assert [e.type for e in outcome.events] == ["left", "finished"]
    assert outcome.events[-1].data["winners"] == []


def test_the_service_can_end_the_game_when_no_person_is_left():
    state = YAHTZEE.new_state(seats=3, options=YAHTZEE_OPTIONS)
    outcome = leave(YAHTZEE, state, 0, YAHTZEE_OPTIONS, end=True)
    view = YAHTZEE.view(outcome.state, options=YAHTZEE_OPTIONS)
    assert view.finished and view.winners == [1, 2]


def test_a_seat_that_left_can_neither_move_nor_leave_again():
    state = YAHTZEE.new_state(seats=2, options=YAHTZEE_OPTIONS)
    state = leave(YAHTZEE, state, 1, YAHTZEE_OPTIONS).state
    before = copy.deepcopy(state)
    with pytest.raises(scoring.RuleError) as refused:
        leave(YAHTZEE, state, 1, YAHTZEE_OPTIONS)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(scoring.RuleError) as refused:
        YAHTZEE.move(
            state, seat=1, command=command_for("roll", {}), options=YAHTZEE_OPTIONS,
            rng=random.Random(),
        )
    assert refused.value.code == "not_your_turn"
    assert state == before


def test_leaving_a_finished_game_is_refused():
    state = YAHTZEE.new_state(seats=1, options=YAHTZEE_OPTIONS)
    state = leave(YAHTZEE, state, 0, YAHTZEE_OPTIONS).state
    with pytest.raises(scoring.RuleError) as refused:
        leave(YAHTZEE, state, 0, YAHTZEE_OPTIONS)
    assert refused.value.code == "game_not_active"


class Faces:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_ten_thousand_final_round_skips_a_seat_that_left():
    options = TEN_THOUSAND.validate_options({"target": 1000, "final_round": True})
    state = TEN_THOUSAND.new_state(seats=3, options=options)
    state = leave(TEN_THOUSAND, state, 2, options).state
    state = TEN_THOUSAND.move(
        state, seat=0, command=command_for("roll", {}), options=options, rng=Faces(1, 1, 1, 2, 3, 4)
    ).state
    state = TEN_THOUSAND.move(
        state, seat=0, command=command_for("bank", {"set_aside": [0, 1, 2]}), options=options,
        rng=Faces(),
    ).state
    assert state["current"] == 1 and not state["finished"]
    state = TEN_THOUSAND.move(
        state, seat=1, command=command_for("pass", {}), options=options, rng=Faces()
    ).state
    view = TEN_THOUSAND.view(state, options=options)
    assert view.finished and view.winners == [0]


def test_computers_that_run_out_of_moves_end_the_game(monkeypatch):
    """The last guard of a request's work: a game of computers that has not ended after
    COMPUTER_MOVES moves ends there, with the best totals winning."""
    from functools import partial

    from scoring import match
    from scoring.strategy.players import computer_command

    monkeypatch.setattr(match, "COMPUTER_MOVES", 30)
    seats = [match.Seat("A", "random"), match.Seat("B", "random")]
    game = match.Match(
        TEN_THOUSAND, TEN_THOUSAND.validate_options({}), seats,
        partial(computer_command, folder="unused"),
    )
    outcome = game.new(open_seats=0, dice=random.Random(1), mind=random.Random(2))
    assert outcome.state["finished"]
    assert outcome.events[-1].type == "finished"
    assert sum(e.type != "finished" for e in outcome.events) >= 30
