"""Turns and games of the Yatzy family (docs/games/yatzy.md: turns go as in Yahtzee, up to
three rolls with dice held between them, then one open box scored or scratched): seats in
turn order, one box a turn, the game over when every seat has filled every box."""

import copy

import pytest
from yatzy_support import (
    BOXES,
    FORCED,
    MAXI,
    PLAIN,
    YATZY,
    ScriptedRng,
    each_ruleset,
    refused,
    table,
)

import scoring
from scoring.commands import command_for

param = pytest.param


def any_dice(ruleset: scoring.Ruleset) -> list[int]:
    return list(PLAIN[ruleset.id])


@each_ruleset
def test_a_new_game_waits_for_the_first_roll(ruleset):
    view = table(ruleset, seats=2).view()
    assert (view.round, view.current_seat) == (1, 0)
    assert view.turn == {
        "dice": None, "held": [False] * ruleset.dice, "rolls_used": 0, "rolls_left": 3,
    }
    assert view.choices == {}
    assert view.totals == [0, 0]
    assert not view.finished and view.winners == []


@pytest.mark.parametrize("seats", [1, 8])
@each_ruleset
def test_one_to_eight_seats_may_play(ruleset, seats):
    assert len(table(ruleset, seats=seats).view().players) == seats


@pytest.mark.parametrize("seats", [0, 9])
@each_ruleset
def test_no_seats_or_more_than_eight_are_refused(ruleset, seats):
    with pytest.raises(scoring.RuleError) as error:
        ruleset.new_state(seats=seats, options={})
    assert (error.value.code, error.value.field) == ("invalid", "players")


@pytest.mark.parametrize("ruleset", [YATZY, FORCED], ids=["yatzy", "forced-yatzy"])
def test_a_turn_has_three_rolls_and_a_fourth_is_refused(ruleset):
    game = table(ruleset)
    game.roll(1, 2, 3, 4, 5)
    game.roll(6, 6, hold=[0, 1, 2])
    game.roll(1, hold=[0, 1, 2, 3])
    turn = game.view().turn
    assert (turn["dice"], turn["rolls_used"], turn["rolls_left"]) == ([1, 2, 3, 6, 1], 3, 0)
    refused("no_rolls_left", game, "roll", rng=ScriptedRng(1, 1, 1, 1, 1))
    game.fill("ones")
    assert game.card()["ones"] == 2


@pytest.mark.parametrize("action", ["score", "scratch"])
@each_ruleset
def test_filling_a_box_before_rolling_is_refused(ruleset, action):
    refused("roll_first", table(ruleset), action, {"category": "ones"})


@pytest.mark.parametrize(
    "category",
    [
        param("yahtzee", id="the-yahtzee-box"),
        param("Ones", id="wrong-case"),
        param("sevens", id="no-such-box"),
        param(None, id="missing"),
        param(1, id="a-number"),
    ],
)
@pytest.mark.parametrize("action", ["score", "scratch"])
@each_ruleset
def test_an_unknown_box_is_refused(ruleset, action, category):
    game = table(ruleset)
    game.roll(*any_dice(ruleset))
    refused("unknown_category", game, action, {"category": category})


@pytest.mark.parametrize(
    ("ruleset", "box"),
    [param(YATZY, "three_pairs", id="yatzy-has-no-three-pairs"),
     param(YATZY, "maxi_yatzy", id="yatzy-has-no-maxi-yatzy"),
     param(MAXI, "yatzy", id="maxi-has-no-yatzy")],
)
def test_a_box_of_another_ruleset_is_unknown(ruleset, box):
    game = table(ruleset)
    game.roll(*any_dice(ruleset))
    refused("unknown_category", game, "score", {"category": box})


@pytest.mark.parametrize("action", ["score", "scratch"])
@pytest.mark.parametrize("ruleset", [YATZY, MAXI], ids=["yatzy", "maxi-yatzy"])
def test_a_filled_box_is_refused(ruleset, action):
    game = table(ruleset)
    game.turn([6] * ruleset.dice, "sixes")
    game.roll(*[6] * ruleset.dice)
    refused("category_filled", game, action, {"category": "sixes"})
    assert game.card()["sixes"] == 6 * ruleset.dice


@each_ruleset
def test_scoring_and_scratching_log_the_box_points_dice_and_a_zero_yahtzee_bonus(ruleset):
    game = table(ruleset)
    dice = [1] * ruleset.dice
    game.roll(*dice)
    (scored,) = game.fill("ones").events
    assert (scored.type, scored.seat) == ("scored", 0)
    assert scored.data == {
        "category": "ones", "points": ruleset.dice, "dice": dice, "yahtzee_bonus": 0,
    }
    game.roll(*dice)
    (scratched,) = game.fill("twos", scratch=True).events
    assert scratched.type == "scratched"
    assert scratched.data == {"category": "twos", "points": 0, "dice": dice, "yahtzee_bonus": 0}


# -- seats, rounds and the end of the game ---------------------------------------------

def play_out(game, dice_for):
    """Every seat fills every box in table order (legal in forced order too)."""
    last = None
    boxes = BOXES[game.ruleset.id]
    for round_number, box in enumerate(boxes, start=1):
        for seat in range(len(game.state["cards"])):
            view = game.view()
            assert (view.round, view.current_seat, view.finished) == (round_number, seat, False)
            dice, scratch = dice_for(seat, box)
            last = game.turn(dice, box, scratch=scratch)
            (entry,) = last.entries
            assert (entry.seat, entry.category, entry.round) == (seat, box, round_number)
    return last


@pytest.mark.parametrize("seats", [1, 2, 3])
@each_ruleset
def test_the_game_ends_when_every_seat_has_filled_every_box(ruleset, seats):
    game = table(ruleset, seats=seats)
    last = play_out(game, lambda seat, box: (any_dice(ruleset), True))
    fills = [e for e in game.events if e.type in ("scored", "scratched")]
    assert len(fills) == len(BOXES[ruleset.id]) * seats
    assert [e.type for e in last.events] == ["scratched", "finished"]
    assert [e.type for e in game.events].count("finished") == 1
    view = game.view()
    assert view.finished and view.current_seat is None
    assert view.round == len(BOXES[ruleset.id])
    assert view.winners == list(range(seats))       # nobody scored: all draw
    assert view.choices == {}


@each_ruleset
def test_the_highest_total_wins(ruleset):
    game = table(ruleset, seats=3)
    chance = [6] * (ruleset.dice - 1) + [5]

    def dice_for(seat, box):
        # seat 1 scores its chance; everything else is scratched
        if (seat, box) == (1, "chance"):
            return chance, False
        return any_dice(ruleset), True

    last = play_out(game, dice_for)
    assert last.events[-1].data == {"winners": [1], "totals": [0, sum(chance), 0]}
    assert game.view().winners == [1]


@pytest.mark.parametrize("action", ["roll", "hold", "score", "scratch"])
@each_ruleset
def test_every_move_after_the_game_is_finished_is_refused(ruleset, action):
    game = table(ruleset, seats=2)
    play_out(game, lambda seat, box: (any_dice(ruleset), True))
    args = {"hold": [0]} if action in ("hold", "roll") else {"category": "chance"}
    refused("game_not_active", game, action, args, seat=0, rng=ScriptedRng(*any_dice(ruleset)))


@pytest.mark.parametrize("action", ["roll", "hold", "score", "scratch"])
@each_ruleset
def test_moving_for_another_seat_is_refused(ruleset, action):
    game = table(ruleset, seats=2)
    args = {"hold": [0]} if action in ("hold", "roll") else {"category": "ones"}
    game.roll(*any_dice(ruleset))
    refused("not_your_turn", game, action, args, seat=1, rng=ScriptedRng(*any_dice(ruleset)))


@each_ruleset
def test_a_move_never_modifies_the_state_it_was_given(ruleset):
    state = ruleset.new_state(seats=2, options={})
    moves = [
        ("roll", {}, ScriptedRng(*[3] * ruleset.dice)),
        ("hold", {"hold": [0, 1]}, ScriptedRng()),
        ("roll", {}, ScriptedRng(*[3] * (ruleset.dice - 2))),
        ("score", {"category": "ones"}, ScriptedRng()),
    ]
    for action, args, rng in moves:
        before = copy.deepcopy(state)
        outcome = ruleset.move(
            state, seat=0, command=command_for(action, args), options={}, rng=rng
        )
        assert state == before
        state = outcome.state
    assert state["cards"][0]["ones"] == 0
    assert state["current"] == 1
