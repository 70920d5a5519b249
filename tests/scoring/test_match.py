"""The match: seats, lobby, computer turns and the game's status, decided by the engine."""

import random

import pytest

import scoring
from scoring.commands import Join, Leave, Roll, Score, Start
from scoring.match import GameStatus, Match, Seat, status

YAHTZEE = scoring.get_ruleset("yahtzee")
OPTIONS = YAHTZEE.validate_options({})


def first_box(ruleset, state, level, options, rng):
    """A computer that rolls once and fills the first legal box: easy to follow."""
    if state["dice"] is None:
        return Roll()
    return Score(category=next(iter(ruleset.view(state, options=options).choices)))


def match(*seats: Seat) -> Match:
    return Match(YAHTZEE, OPTIONS, list(seats), first_box)


def new(game: Match, open_seats: int = 0) -> scoring.Outcome:
    return game.new(open_seats=open_seats, dice=random.Random(1), mind=random.Random(2))


def play(game: Match, state, seat, command) -> scoring.Outcome:
    return game.play(state, seat=seat, command=command, dice=random.Random(3),
                     mind=random.Random(4))


def test_a_game_without_open_seats_is_active_and_with_them_waiting():
    assert status(new(match(Seat("Ann"))).state) == GameStatus.ACTIVE
    assert status(new(match(Seat("Ann")), open_seats=2).state) == GameStatus.WAITING


def test_the_last_join_starts_the_game_and_the_joined_seat_moves_in_turn():
    game = match(Seat("Ann"))
    state = new(game, open_seats=1).state
    joined = play(game, state, None, Join(name="Ben"))
    assert [e.type for e in joined.events] == ["joined", "started"]
    assert joined.events[0].seat == 1 and status(joined.state) == GameStatus.ACTIVE
    assert len(joined.state["cards"]) == 2


def test_joining_an_active_game_is_refused_as_full():
    game = match(Seat("Ann"))
    with pytest.raises(scoring.RuleError) as refused:
        play(game, new(game).state, None, Join(name="Ben"))
    assert refused.value.code == "game_full"


def test_start_drops_the_open_seats_and_only_a_waiting_game_starts():
    game = match(Seat("Ann"))
    started = play(game, new(game, open_seats=3).state, 0, Start())
    assert status(started.state) == GameStatus.ACTIVE and started.events[0].type == "started"
    with pytest.raises(scoring.RuleError) as refused:
        play(game, started.state, 0, Start())
    assert refused.value.code == "game_not_active"


def test_no_move_is_played_while_the_game_waits():
    game = match(Seat("Ann"))
    with pytest.raises(scoring.RuleError) as refused:
        play(game, new(game, open_seats=1).state, 0, Roll())
    assert refused.value.code == "game_not_active"


def test_computers_play_until_a_persons_turn():
    game = match(Seat("Ann"), Seat("Bot", "greedy"), Seat("Cid"))
    state = new(game).state
    state = play(game, state, 0, Roll()).state
    box = next(iter(YAHTZEE.view(state, options=OPTIONS).choices))
    after = play(game, state, 0, Score(category=box))
    assert [(e.type, e.seat) for e in after.events][-2:] == [("rolled", 1), ("scored", 1)]
    assert after.state["current"] == 2


def test_a_game_opened_by_a_computer_seat_starts_with_its_turn_played():
    game = match(Seat("Bot", "greedy"), Seat("Ann"))
    outcome = new(game)
    assert outcome.state["current"] == 1
    assert [e.type for e in outcome.events] == ["rolled", "scored"]


def test_when_the_last_person_leaves_the_computers_do_not_play_on():
    game = match(Seat("Ann"), Seat("Bot", "greedy"))
    left = play(game, new(game).state, 0, Leave())
    assert status(left.state) == GameStatus.FINISHED
    assert [e.type for e in left.events] == ["left", "finished"]


def test_computer_seats_need_a_strategy():
    game = Match(YAHTZEE, OPTIONS, [Seat("Bot", "greedy")])
    with pytest.raises(ValueError):
        new(game)


def test_an_abandoned_game_is_abandoned_and_can_be_abandoned_only_once():
    game = match(Seat("Ann"))
    abandoned = game.abandon(new(game).state, by="admin")
    assert status(abandoned.state) == GameStatus.ABANDONED
    assert abandoned.events[0].data == {"by": "admin"}
    with pytest.raises(scoring.RuleError) as refused:
        game.abandon(abandoned.state, by="admin")
    assert refused.value.code == "game_not_active"
