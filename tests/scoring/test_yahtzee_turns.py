"""The turn state machine (docs/games/yahtzee.md, "The game"; docs/contract.md, "Moves"):
up to three rolls a turn, the first throwing all five dice, held dice not thrown, the
turn ended by filling one open box; seats in turn order for 13 rounds."""

import copy

import pytest
from yahtzee_support import BOXES, PLAIN, YAHTZEE, ScriptedRng, Table, refused

import scoring
from scoring.commands import command_for

param = pytest.param




# -- a new turn ------------------------------------------------------------------------

def test_a_new_game_waits_for_the_first_roll():
    view = Table(seats=2).view()
    assert view.round == 1
    assert view.current_seat == 0
    assert view.turn == {
        "dice": None, "held": [False] * 5, "rolls_used": 0, "rolls_left": 3,
    }
    assert view.choices == {}
    assert view.totals == [0, 0]
    assert not view.finished
    assert view.winners == []
    for player in view.players:
        assert player["scorecard"] == dict.fromkeys(BOXES)
        assert player["upper_total"] == player["upper_bonus"] == player["total"] == 0
        assert player["yahtzee_bonus"] == 0


@pytest.mark.parametrize("args", [param({}, id="no-hold"), param({"hold": []}, id="empty-hold")])
def test_the_first_roll_throws_all_five_dice(args):
    table = Table()
    rng = ScriptedRng(3, 1, 4, 1, 5)
    outcome = table.move("roll", args, rng=rng)
    assert rng.calls == 5
    (event,) = outcome.events
    assert (event.type, event.seat) == ("rolled", 0)
    assert event.data == {"dice": [3, 1, 4, 1, 5], "thrown": [0, 1, 2, 3, 4]}
    assert outcome.entries == []
    view = table.view()
    assert view.turn == {
        "dice": [3, 1, 4, 1, 5], "held": [False] * 5, "rolls_used": 1, "rolls_left": 2,
    }
    assert view.choices["chance"] == 14


def test_hold_before_the_first_roll_is_refused():
    refused("roll_first", Table(), "hold", {"hold": [0, 1]})


def test_roll_holding_dice_before_the_first_roll_is_refused():
    # The first roll throws all five dice: there is nothing to hold yet.
    refused("roll_first", Table(), "roll", {"hold": [0]}, rng=ScriptedRng(1, 2, 3, 4, 5))


@pytest.mark.parametrize("action", ["score", "scratch"])
def test_filling_a_box_before_rolling_is_refused(action):
    refused("roll_first", Table(), action, {"category": "chance"})


@pytest.mark.parametrize("action", ["score", "scratch"])
def test_filling_a_box_before_the_next_turns_first_roll_is_refused(action):
    table = Table()
    table.turn(PLAIN, "chance")
    refused("roll_first", table, action, {"category": "ones"})


# -- rolls and holds -------------------------------------------------------------------

def test_a_turn_has_three_rolls_and_a_fourth_is_refused():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    table.roll(1, 2, 3, 4, 5)
    table.roll(6, 6, 6, 6, 6)
    assert table.view().turn["rolls_used"] == 3
    assert table.view().turn["rolls_left"] == 0
    refused("no_rolls_left", table, "roll", rng=ScriptedRng(1, 1, 1, 1, 1))
    refused("no_rolls_left", table, "roll", {"hold": [0, 1]}, rng=ScriptedRng(1, 1, 1))
    # the turn still ends by filling a box with the third roll's dice
    table.fill("yahtzee")
    assert table.card()["yahtzee"] == 50


def test_held_dice_keep_their_faces_and_are_not_thrown():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    (held,) = table.hold([4, 0, 2]).events
    assert (held.type, held.data) == ("held", {"held": [0, 2, 4]})
    assert table.view().turn["held"] == [True, False, True, False, True]
    rng = ScriptedRng(6, 6)
    (rolled,) = table.move("roll", rng=rng).events
    assert rng.calls == 2
    assert rolled.data == {"dice": [1, 6, 3, 6, 5], "thrown": [1, 3]}
    # holds stay in place for the next roll until changed
    rolled = table.roll(2, 2).events[0]
    assert rolled.data == {"dice": [1, 2, 3, 2, 5], "thrown": [1, 3]}


def test_roll_with_hold_sets_exactly_those_dice_held_then_throws_the_others():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    table.hold([0, 1])
    (rolled,) = table.roll(6, 6, 6, 6, hold=[4]).events
    assert rolled.data == {"dice": [6, 6, 6, 6, 5], "thrown": [0, 1, 2, 3]}
    assert table.view().turn["held"] == [False, False, False, False, True]


def test_hold_replaces_the_previous_hold():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    table.hold([0, 1])
    table.hold([3])
    assert table.view().turn["held"] == [False, False, False, True, False]
    table.hold([])
    assert table.view().turn["held"] == [False] * 5
    assert table.view().turn["rolls_used"] == 1    # holding is not a roll


def test_holding_every_die_throws_none():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    (rolled,) = table.roll(hold=[0, 1, 2, 3, 4]).events
    assert rolled.data == {"dice": [1, 2, 3, 4, 5], "thrown": []}


def test_the_next_turn_starts_with_no_dice_and_nothing_held():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    table.hold([0, 1, 2])
    table.fill("chance")
    assert table.view().turn == {
        "dice": None, "held": [False] * 5, "rolls_used": 0, "rolls_left": 3,
    }
    (rolled,) = table.roll(6, 6, 6, 6, 6).events
    assert rolled.data["thrown"] == [0, 1, 2, 3, 4]


BAD_HOLDS = [
    param([5], id="index-5-out-of-range"),
    param([-1], id="negative-index"),
    param([0, 0], id="duplicate-index"),
    param([1, 2, 1], id="duplicate-among-others"),
    param(["1"], id="index-as-string"),
    param([1.0], id="index-as-float"),
    param([True], id="index-as-bool"),
    param([[0]], id="nested-list"),
    param("01", id="a-string"),
    param(3, id="a-bare-number"),
    param({"0": True}, id="a-mapping"),
]


@pytest.mark.parametrize("hold", BAD_HOLDS)
@pytest.mark.parametrize("action", ["hold", "roll"])
def test_bad_hold_indices_are_refused_as_invalid_dice(action, hold):
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    refused("invalid_dice", table, action, {"hold": hold}, rng=ScriptedRng(1, 1, 1, 1, 1))


# -- filling boxes ---------------------------------------------------------------------

@pytest.mark.parametrize(
    "category",
    [
        param("sevens", id="no-such-box"),
        param("Chance", id="wrong-case"),
        param("", id="empty"),
        param(None, id="missing"),
        param(3, id="a-number"),
        param(["chance"], id="a-list"),
    ],
)
@pytest.mark.parametrize("action", ["score", "scratch"])
def test_an_unknown_box_is_refused(action, category):
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    refused("unknown_category", table, action, {"category": category})


@pytest.mark.parametrize("action", ["score", "scratch"])
def test_a_filled_box_is_refused(action):
    table = Table()
    table.turn([6, 6, 6, 1, 2], "sixes")
    table.roll(6, 6, 6, 6, 2)
    refused("category_filled", table, action, {"category": "sixes"})
    assert table.card()["sixes"] == 18


def test_a_box_outside_the_forced_joker_choices_is_not_allowed():
    table = Table(joker="forced")
    table.turn([2, 2, 2, 2, 2], "yahtzee")
    table.roll(5, 5, 5, 5, 5)
    refused("category_not_allowed", table, "score", {"category": "chance"})
    refused("category_not_allowed", table, "scratch", {"category": "full_house"})
    refused("category_filled", table, "score", {"category": "yahtzee"})
    table.fill("fives")
    assert table.card()["fives"] == 25


def test_filling_a_box_ends_the_turn_with_an_entry():
    table = Table()
    table.roll(2, 2, 3, 3, 3)
    outcome = table.fill("full_house")
    assert outcome.entries == [scoring.Entry(seat=0, category="full_house", points=25, round=1)]
    assert table.view().round == 2


def test_an_unknown_action_is_refused():
    table = Table()
    refused("invalid", table, "bank", rng=ScriptedRng(1, 2, 3, 4, 5))


# -- seats, rounds and the end of the game ---------------------------------------------

@pytest.mark.parametrize("action", ["roll", "hold", "score", "scratch"])
def test_moving_for_another_seat_is_refused(action):
    table = Table(seats=3)
    args = {"hold": [0]} if action in ("hold", "roll") else {"category": "chance"}
    refused("not_your_turn", table, action, args, seat=1, rng=ScriptedRng(1, 2, 3, 4, 5))
    table.roll(1, 2, 3, 4, 5)
    refused("not_your_turn", table, action, args, seat=2, rng=ScriptedRng(1, 2, 3, 4, 5))
    table.fill("chance")
    refused("not_your_turn", table, action, args, seat=0, rng=ScriptedRng(1, 2, 3, 4, 5))


def test_seats_take_turns_in_order_and_rounds_count_up():
    table = Table(seats=3)
    seen = []
    for box in ("ones", "twos"):
        for seat in range(3):
            view = table.view()
            seen.append((view.round, view.current_seat))
            outcome = table.turn(PLAIN, box)
            assert outcome.events[-1].seat == seat
            assert outcome.entries[0].seat == seat
            assert outcome.entries[0].round == view.round
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert (table.view().round, table.view().current_seat) == (3, 0)
    for seat in range(3):
        assert table.card(seat)["ones"] == 1
        assert table.card(seat)["twos"] == 2


def play_out(table, seat_box_dice):
    """Play 13 rounds: every seat fills the boxes in order, with the dice chosen per seat."""
    last = None
    for round_number, box in enumerate(BOXES, start=1):
        for seat in range(len(table.state["cards"])):
            assert table.view().round == round_number
            assert table.view().current_seat == seat
            assert not table.view().finished
            dice, scratch = seat_box_dice(seat, box)
            last = table.turn(dice, box, scratch=scratch)
    return last


def test_two_seats_finish_after_13_rounds_with_a_single_winner():
    table = Table(seats=2)

    def dice_for(seat, box):
        # seat 1 scores a chance of 16; everything else is scratched
        return (PLAIN, True) if (seat, box) != (1, "chance") else ([1, 2, 3, 4, 6], False)

    last = play_out(table, dice_for)
    fills = [e for e in table.events if e.type in ("scored", "scratched")]
    assert len(fills) == 13 * 2
    assert [e.type for e in last.events] == ["scored", "finished"]
    finished = last.events[-1]
    assert finished.seat is None
    assert finished.data == {"winners": [1], "totals": [0, 16]}
    assert [e.type for e in table.events].count("finished") == 1
    view = table.view()
    assert view.finished
    assert view.current_seat is None
    assert view.winners == [1]
    assert view.totals == [0, 16]
    assert view.choices == {}
    assert view.round == 13


def test_equal_highest_totals_all_win():
    table = Table(seats=3)

    def dice_for(seat, box):
        # seats 0 and 2 score 16 in chance, seat 1 scores 1 in ones
        if box == "chance" and seat != 1:
            return [1, 2, 3, 4, 6], False
        if box == "ones" and seat == 1:
            return [1, 2, 3, 5, 6], False
        return PLAIN, True

    last = play_out(table, dice_for)
    assert last.events[-1].data == {"winners": [0, 2], "totals": [16, 1, 16]}
    assert table.view().winners == [0, 2]


def test_a_game_where_nobody_scores_is_a_draw_of_all_seats():
    table = Table(seats=2)
    last = play_out(table, lambda seat, box: (PLAIN, True))
    assert last.events[-1].data == {"winners": [0, 1], "totals": [0, 0]}


def test_a_solitaire_game_lasts_13_turns():
    table = Table(seats=1)
    for round_number, box in enumerate(BOXES, start=1):
        assert table.view().round == round_number
        table.turn(PLAIN, box, scratch=True)
    assert table.view().finished
    assert table.view().winners == [0]


@pytest.mark.parametrize("action", ["roll", "hold", "score", "scratch"])
@pytest.mark.parametrize("seat", [0, 1])
def test_every_move_after_the_game_is_finished_is_refused(action, seat):
    table = Table(seats=2)
    play_out(table, lambda s, box: (PLAIN, True))
    args = {"hold": [0]} if action in ("hold", "roll") else {"category": "chance"}
    refused("game_not_active", table, action, args, seat=seat, rng=ScriptedRng(1, 2, 3, 4, 5))


# -- a refused move changes nothing; a move never changes the state it was given -------

def test_a_successful_move_does_not_modify_the_given_state():
    options = YAHTZEE.validate_options({})
    state = YAHTZEE.new_state(seats=2, options=options)
    for action, args, rng in [
        ("roll", {}, ScriptedRng(2, 2, 3, 3, 3)),
        ("hold", {"hold": [0, 1]}, ScriptedRng()),
        ("roll", {}, ScriptedRng(3, 3, 3)),
        ("score", {"category": "full_house"}, ScriptedRng()),
    ]:
        before = copy.deepcopy(state)
        outcome = YAHTZEE.move(
            state, seat=0, command=command_for(action, args), options=options, rng=rng
        )
        assert state == before
        assert outcome.state is not state
        state = outcome.state
    assert state["cards"][0]["full_house"] == 25


# -- a bounded log ---------------------------------------------------------------------


def test_a_turn_takes_thirty_holds_and_refuses_the_next_changing_nothing():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    for count in range(30):
        table.hold([count % 5])
    assert table.view().turn["held"] == [False, False, False, False, True]
    refused("too_many_holds", table, "hold", {"hold": [0]})
    # Rolling and filling a box are still open; the next turn starts a new count.
    table.roll(6, 6, 6, 6)
    table.fill("chance")
    table.roll(1, 1, 1, 1, 1)
    for _ in range(30):
        table.hold([0])
    refused("too_many_holds", table, "hold", {"hold": []})


def test_a_state_saved_before_holds_were_counted_counts_from_its_next_hold():
    table = Table()
    table.roll(1, 2, 3, 4, 5)
    del table.state["holds"]
    table.hold([0])
    assert table.state["holds"] == 1
