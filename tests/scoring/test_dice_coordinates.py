"""Whole games of every ruleset with the verifiable dice: each die the engine throws, a
person's or a computer's, shows the face derived at its (seat, turn, roll, position), the
coordinates counted here from the game's own events as docs/contract.md defines them. So two games
with the same secret and client seed share their luck whatever each player held; and the
games created before keep their sequential dice."""

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import scoring
from scoring.commands import Roll
from scoring.match import Match, Seat
from scoring.strategy.players import computer_command
from scoring.tenthousand.points import best_selection
from scoring.verifiable import DerivedDice, face
from tests.scoring.test_match import first_box

SECRET = scoring.seeded_secret(2024)
CLIENT_SEED = "shared-luck"
TURN_ENDS = {"scored", "scratched", "banked", "busted", "passed"}
MOST_MOVES = 5_000  # a guard: these games take a few hundred moves

Coordinates = tuple[int, int, int, int]


def thrown_dice(events: list[scoring.Event]) -> Iterator[tuple[Coordinates, int]]:
    """Every die thrown in a game's log with its coordinates: ``turn`` counts the seat's
    ended turns, ``roll`` the throws since the turn began, ``position`` the die's index."""
    turns: Counter[int] = Counter()
    roll = 0
    for event in events:
        if event.type == "rolled":
            assert event.seat is not None
            for position in event.data["thrown"]:
                coordinates = (event.seat, turns[event.seat], roll, position)
                yield coordinates, event.data["dice"][position]
            roll += 1
        elif event.type in TURN_ENDS:
            assert event.seat is not None
            turns[event.seat] += 1
            roll = 0


# Two ways to play each ruleset: the person's seat (0) and the computer's seat (1) follow
# different levels in the two games, so they hold or set aside different dice.
PLAYS = {
    "yahtzee": (("greedy", "random"), ("random", "greedy")),
    "yatzy": (("greedy", "random"), ("random", "greedy")),
    "forced-yatzy": (("greedy", "random"), ("random", "greedy")),
    "maxi-yatzy": (("greedy", "random"), ("random", "greedy")),
    "ten-thousand": (("greedy", "random"), ("classic", "greedy")),
}


def whole_game(
    ruleset_id: str, levels: tuple[str, str], dice: scoring.Dice, folder: Path
) -> list[scoring.Event]:
    """Seat 0, a person, sends the moves its level's player would choose; seat 1 is a
    computer of its level that the match plays."""
    ruleset = scoring.get_ruleset(ruleset_id)
    options = ruleset.validate_options({})
    mind = random.Random(7)

    def strategy(ruleset, state, level, options, rng):
        return computer_command(ruleset, state, level, options, rng, folder=folder)

    match = Match(ruleset, options, [Seat("Ann"), Seat("Bot", levels[1])], strategy)
    outcome = match.new(open_seats=0, dice=dice, mind=mind)
    state, events = outcome.state, list(outcome.events)
    for _ in range(MOST_MOVES):
        if state["finished"]:
            return events
        command = strategy(ruleset, state, levels[0], options, mind)
        outcome = match.play(state, seat=0, command=command, dice=dice, mind=mind)
        state = outcome.state
        events.extend(outcome.events)
    raise AssertionError(f"the game did not end within {MOST_MOVES} moves")


@pytest.mark.parametrize("ruleset_id", list(PLAYS))
def test_every_die_of_a_whole_game_is_derived_from_its_coordinates(ruleset_id, tmp_path):
    events = whole_game(
        ruleset_id, PLAYS[ruleset_id][0], DerivedDice(SECRET, CLIENT_SEED), tmp_path
    )
    thrown = list(thrown_dice(events))
    assert {seat for (seat, *_), _ in thrown} == {0, 1}
    for coordinates, shown in thrown:
        assert shown == face(SECRET, CLIENT_SEED, *coordinates), coordinates


@pytest.mark.parametrize("ruleset_id", list(PLAYS))
def test_the_same_secret_gives_the_same_face_at_the_same_coordinates(ruleset_id, tmp_path):
    dice = DerivedDice(SECRET, CLIENT_SEED)
    first, second = (
        dict(thrown_dice(whole_game(ruleset_id, levels, dice, tmp_path)))
        for levels in PLAYS[ruleset_id]
    )
    assert first.keys() != second.keys(), "the two games should hold different dice"
    shared = first.keys() & second.keys()
    assert len(shared) > 50
    assert all(first[at] == second[at] for at in shared)


def test_saved_rolls_take_a_turn_past_its_third_throw(tmp_path):
    maxi = whole_game(
        "maxi-yatzy", ("greedy", "greedy"), DerivedDice(SECRET, CLIENT_SEED), tmp_path
    )
    assert max(roll for (_, _, roll, _), _ in thrown_dice(maxi)) >= 3


def test_hot_dice_are_the_turns_next_throw():
    """All six dice set aside are thrown again as the turn's next roll, not its first."""
    ten = scoring.get_ruleset("ten-thousand")
    options = ten.validate_options({})
    client_seed = next(
        seed
        for seed in (f"hot-{i}" for i in range(10_000))
        if len(best_selection([face(SECRET, seed, 0, 0, 0, p) for p in range(6)]).positions)
        == 6
    )
    dice = DerivedDice(SECRET, client_seed)
    state = ten.new_state(seats=1, options=options)
    state = ten.move(state, seat=0, command=Roll(), options=options, rng=dice).state
    hot = Roll(set_aside=tuple(range(6)))
    outcome = ten.move(state, seat=0, command=hot, options=options, rng=dice)
    rolled = next(event for event in outcome.events if event.type == "rolled")
    assert rolled.data["thrown"] == list(range(6))
    assert rolled.data["dice"] == [face(SECRET, client_seed, 0, 0, 1, p) for p in range(6)]


def test_held_dice_are_not_thrown_and_keep_their_faces():
    yahtzee = scoring.get_ruleset("yahtzee")
    options = yahtzee.validate_options({})
    dice = DerivedDice(SECRET, CLIENT_SEED)
    state = yahtzee.new_state(seats=1, options=options)
    state = yahtzee.move(state, seat=0, command=Roll(), options=options, rng=dice).state
    first = list(state["dice"])
    state = yahtzee.move(state, seat=0, command=Roll(hold=(1, 3)), options=options, rng=dice).state
    assert state["dice"] == [
        first[p] if p in (1, 3) else face(SECRET, CLIENT_SEED, 0, 0, 1, p) for p in range(5)
    ]


# -- the games created before ------------------------------------------------------------

def test_an_rng_still_throws_its_draws_in_order():
    """A seeded game's move draws ``randint(1, 6)`` once per thrown die, in position order,
    exactly as before the dice were positional."""
    yahtzee = scoring.get_ruleset("yahtzee")
    options = yahtzee.validate_options({})
    state = yahtzee.new_state(seats=1, options=options)
    state = yahtzee.move(
        state, seat=0, command=Roll(), options=options, rng=scoring.seeded_rng(5, 1)
    ).state
    draws = random.Random("5:1")
    assert state["dice"] == [draws.randint(1, 6) for _ in range(5)]
    again = yahtzee.move(
        state, seat=0, command=Roll(hold=(0, 4)), options=options, rng=scoring.seeded_rng(5, 2)
    ).state
    draws = random.Random("5:2")
    assert again["dice"] == [state["dice"][0], *(draws.randint(1, 6) for _ in range(3)),
                             state["dice"][4]]


def test_a_ten_thousand_state_saved_before_the_throw_counter_still_plays():
    ten = scoring.get_ruleset("ten-thousand")
    options = ten.validate_options({})
    state = ten.new_state(seats=2, options=options)
    del state["throws"]
    rng = scoring.seeded_rng(9, 1)
    outcome = ten.move(state, seat=0, command=Roll(), options=options, rng=rng)
    draws = random.Random("9:1")
    assert outcome.events[0].data["dice"] == [draws.randint(1, 6) for _ in range(6)]


def test_a_computer_seat_scores_with_derived_dice(tmp_path):
    """The match hands the derived dice to the computers' moves as to the persons'."""
    yahtzee = scoring.get_ruleset("yahtzee")
    options = yahtzee.validate_options({})

    match = Match(yahtzee, options, [Seat("Bot", "greedy")], first_box)
    outcome = match.new(open_seats=0, dice=DerivedDice(SECRET, CLIENT_SEED),
                        mind=random.Random(1))
    rolled = [event for event in outcome.events if event.type == "rolled"]
    assert len(rolled) == 13
    for turn, event in enumerate(rolled):
        assert event.data["dice"] == [face(SECRET, CLIENT_SEED, 0, turn, 0, p) for p in range(5)]
