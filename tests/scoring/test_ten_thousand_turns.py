"""The turn (docs/games/ten-thousand.md, "A turn"; docs/contract.md, "Moves"): the
first throw of six dice, setting aside and throwing the rest, hot dice, busts detected by
the engine, banking at the minimum, passing, and the seats in turn order."""

import json

import pytest
from test_ten_thousand_support import ALL, NOTHING, TEN, ScriptedRng, Table, event, types

import scoring

param = pytest.param

FRESH_TURN = {
    "dice": None, "set_aside": [False] * 6, "turn_points": 0,
    "throw_points_available": False, "can_bank": False,
}


# -- a new turn ------------------------------------------------------------------------

def test_a_new_game_waits_for_the_first_throw():
    view = Table(seats=3).view()
    assert view.round == 1
    assert view.current_seat == 0
    assert view.turn == FRESH_TURN
    assert view.choices == {}
    assert view.players == [{"total": 0}] * 3
    assert view.totals == [0, 0, 0]
    assert not view.finished
    assert view.winners == []


@pytest.mark.parametrize(
    "args", [param({}, id="absent"), param({"set_aside": []}, id="empty"),
             param({"set_aside": None}, id="null")],
)
def test_the_first_throw_throws_all_six_dice(args):
    table = Table()
    rng = ScriptedRng(3, 1, 4, 1, 5, 2)
    outcome = table.move("roll", args, rng=rng)
    assert rng.calls == 6
    (rolled,) = outcome.events
    assert (rolled.type, rolled.seat) == ("rolled", 0)
    assert rolled.data == {"dice": [3, 1, 4, 1, 5, 2], "thrown": ALL}
    assert outcome.entries == []
    assert table.turn == {
        "dice": [3, 1, 4, 1, 5, 2], "set_aside": [False] * 6, "turn_points": 0,
        "throw_points_available": True, "can_bank": False,
    }


@pytest.mark.parametrize("positions", [[0], [0, 1, 2], ALL])
def test_setting_aside_before_the_first_throw_is_refused(positions):
    Table().refused("roll_first", "roll", {"set_aside": positions})


def test_banking_before_the_first_throw_is_refused():
    table = Table()
    table.refused("roll_first", "bank", {"set_aside": [0]})
    table.refused("roll_first", "bank", {})


# -- setting aside and throwing again --------------------------------------------------

def test_setting_aside_adds_the_selection_and_throws_the_free_dice():
    table = Table()
    table.roll(1, 2, 3, 4, 6, 5)
    outcome = table.roll(2, 6, 4, 1, set_aside=[5, 0])
    assert types(outcome) == ["set_aside", "rolled"]
    assert outcome.events[0].data == {"dice": [0, 5], "points": 150}
    assert outcome.events[1].data == {"dice": [1, 2, 6, 4, 1, 5], "thrown": [1, 2, 3, 4]}
    assert all(e.seat == 0 for e in outcome.events)
    assert table.turn == {
        "dice": [1, 2, 6, 4, 1, 5], "set_aside": [True, False, False, False, False, True],
        "turn_points": 150, "throw_points_available": True, "can_bank": False,
    }


def test_a_turn_goes_on_throw_after_throw_and_keeps_its_points():
    table = Table()
    table.roll(1, 2, 3, 4, 6, 6)
    table.roll(5, 2, 3, 4, 6, set_aside=[0])
    assert table.turn["turn_points"] == 100
    table.roll(1, 2, 6, 6, set_aside=[1])
    assert table.turn["turn_points"] == 150
    assert table.turn["dice"] == [1, 5, 1, 2, 6, 6]
    assert table.turn["set_aside"] == [True, True, False, False, False, False]
    table.roll(3, 3, 3, set_aside=[2])
    assert table.turn["dice"] == [1, 5, 1, 3, 3, 3]
    assert table.turn["turn_points"] == 250
    assert table.turn["can_bank"]  # 250 and the three 3s (300) reach 350
    outcome = table.bank([3, 4, 5])
    assert event(outcome, "banked").data == {"points": 550, "total": 550}


def test_the_events_name_positions_in_order():
    table = Table()
    table.roll(5, 2, 1, 3, 4, 6)
    outcome = table.roll(2, 3, 4, 6, set_aside=[2, 0])
    assert outcome.events[0].data["dice"] == [0, 2]


def test_a_throw_needs_no_more_than_the_free_dice():
    table = Table()
    table.roll(1, 1, 1, 1, 1, 2)
    rng = ScriptedRng(5)
    table.move("roll", {"set_aside": [0, 1, 2, 3, 4]}, rng=rng)
    assert rng.calls == 1
    assert table.turn["dice"] == [1, 1, 1, 1, 1, 5]
    assert table.turn["turn_points"] == 4000


# -- refused selections (the state never changes) --------------------------------------

def started(*faces: int) -> Table:
    table = Table()
    table.roll(*faces)
    return table


@pytest.mark.parametrize(
    ("positions", "why"),
    [
        param([1], "a-two", id="a-non-scoring-die"),
        param([1, 2], "pair", id="two-non-scoring-dice"),
        param([0, 1], "one-and-two", id="mixing-scoring-and-not"),
        param([0, 3, 1], "ones-and-two", id="a-pair-of-ones-and-a-two"),
        param([], "empty", id="empty-after-a-throw"),
    ],
)
def test_a_non_scoring_selection_is_refused(positions, why):
    table = started(1, 2, 2, 1, 3, 4)
    error = table.refused("not_scoring", "roll", {"set_aside": positions})
    assert error.field is None
    table.refused("not_scoring", "bank", {"set_aside": positions})


def test_an_absent_selection_after_a_throw_is_refused():
    table = started(1, 2, 2, 1, 3, 4)
    table.refused("not_scoring", "roll", {})
    table.refused("not_scoring", "roll", {"set_aside": None})
    table.refused("not_scoring", "bank", {})


def test_dice_set_aside_earlier_in_the_turn_cannot_be_set_aside_again():
    table = started(1, 1, 1, 2, 3, 4)
    table.roll(5, 2, 3, set_aside=[0, 1, 2])
    for positions in ([0], [0, 3], [0, 1, 2], [0, 1, 2, 3]):
        table.refused("not_scoring", "roll", {"set_aside": positions})
        table.refused("not_scoring", "bank", {"set_aside": positions})
    table.roll(1, 6, set_aside=[3])  # the free 5 is fine
    assert table.turn["turn_points"] == 1050


def test_a_selection_is_valued_as_one_selection():
    # Three 1s set aside one by one would be 300; together they are 1000.
    table = started(1, 1, 1, 2, 3, 4)
    outcome = table.roll(2, 3, 4, set_aside=[0, 1, 2])
    assert event(outcome, "set_aside").data == {"dice": [0, 1, 2], "points": 1000}


@pytest.mark.parametrize(
    "positions",
    [
        param([6], id="position-6"),
        param([-1], id="negative"),
        param([0, 0], id="duplicate"),
        param([0, 0, 0], id="triplicate"),
        param(["0"], id="string-position"),
        param([0.0], id="float-position"),
        param([True], id="bool-position"),
        param(0, id="not-a-list"),
        param("0", id="a-string"),
        param({"0": True}, id="an-object"),
    ],
)
@pytest.mark.parametrize("action", ["roll", "bank"])
def test_malformed_positions_are_invalid_dice_before_anything_else(positions, action):
    args = {"set_aside": positions}
    # Before the first throw (would be roll_first) and after a bust-free throw.
    table = Table()
    assert table.refused("invalid_dice", action, args).field == "set_aside"
    table.roll(2, 2, 3, 3, 4, 1)
    assert table.refused("invalid_dice", action, args).field == "set_aside"


# -- busts -----------------------------------------------------------------------------

def test_a_bust_on_the_first_throw_ends_the_turn_with_nothing():
    table = Table(seats=2)
    outcome = table.roll(*NOTHING)
    assert types(outcome) == ["rolled", "busted"]
    busted = event(outcome, "busted")
    assert (busted.seat, busted.data) == (0, {"dice": list(NOTHING), "lost": 0})
    assert outcome.entries == []
    view = table.view()
    assert view.current_seat == 1
    assert view.turn == FRESH_TURN | {
        "last_bust": {"seat": 0, "dice": list(NOTHING), "thrown": ALL, "lost": 0}
    }
    assert view.totals == [0, 0]


def test_a_bust_after_setting_aside_loses_the_turn_points():
    table = Table(seats=2)
    table.roll(1, 1, 1, 5, 2, 3)
    outcome = table.roll(4, 6, set_aside=[0, 1, 2, 3])
    assert types(outcome) == ["set_aside", "rolled", "busted"]
    assert event(outcome, "rolled").data == {"dice": [1, 1, 1, 5, 4, 6], "thrown": [4, 5]}
    assert event(outcome, "busted").data == {"dice": [4, 6], "lost": 1050}
    assert outcome.entries == []
    assert table.current == 1
    assert table.totals == [0, 0]


def test_the_turn_after_a_bust_shows_the_whole_busted_throw_until_the_next_move():
    table = Table(seats=2)
    table.roll(1, 1, 1, 5, 2, 3)
    table.roll(4, 6, set_aside=[0, 1, 2, 3])
    assert table.turn["dice"] is None
    assert table.turn["last_bust"] == {
        "seat": 0, "dice": [1, 1, 1, 5, 4, 6], "thrown": [4, 5], "lost": 1050
    }
    table.roll(1, 2, 3, 4, 6, 6)
    assert "last_bust" not in table.turn


def test_a_pass_drops_the_last_bust_too():
    table = Table(seats=2)
    table.busted_turn()
    table.pass_turn()
    assert table.turn == FRESH_TURN


def test_a_single_free_die_busts_unless_it_is_a_one_or_a_five():
    table = Table()
    table.roll(1, 1, 1, 1, 1, 3)
    outcome = table.roll(6, set_aside=[0, 1, 2, 3, 4])
    assert event(outcome, "busted").data == {"dice": [6], "lost": 4000}


def test_a_pair_thrown_with_nothing_else_busts():
    table = Table()
    table.roll(5, 5, 5, 5, 2, 3)
    outcome = table.roll(3, 3, set_aside=[0, 1, 2, 3])
    assert event(outcome, "busted").data == {"dice": [3, 3], "lost": 1000}


def test_dice_set_aside_earlier_do_not_save_a_throw():
    # The set-aside 1s and 5 stay on the table, but only the thrown dice count.
    table = Table()
    table.roll(1, 5, 2, 3, 4, 4)
    outcome = table.roll(2, 3, 4, 6, set_aside=[0, 1])
    assert event(outcome, "busted").data == {"dice": [2, 3, 4, 6], "lost": 150}


# -- hot dice --------------------------------------------------------------------------

def test_hot_dice_in_one_selection_throw_all_six_again():
    table = Table()
    table.roll(6, 5, 4, 3, 2, 1)
    outcome = table.roll(2, 2, 2, 3, 4, 6, set_aside=ALL)
    assert types(outcome) == ["set_aside", "rolled"]
    assert event(outcome, "set_aside").data == {"dice": ALL, "points": 2000}
    assert event(outcome, "rolled").data == {"dice": [2, 2, 2, 3, 4, 6], "thrown": ALL}
    assert table.turn == {
        "dice": [2, 2, 2, 3, 4, 6], "set_aside": [False] * 6, "turn_points": 2000,
        "throw_points_available": True, "can_bank": True,
    }
    outcome = table.bank([0, 1, 2])
    assert event(outcome, "banked").data == {"points": 2200, "total": 2200}


def test_hot_dice_over_several_throws():
    table = Table()
    table.roll(1, 1, 1, 2, 3, 4)
    table.roll(5, 5, 5, set_aside=[0, 1, 2])
    outcome = table.roll(1, 2, 3, 4, 6, 6, set_aside=[3, 4, 5])
    assert event(outcome, "rolled").data["thrown"] == ALL
    assert table.turn["set_aside"] == [False] * 6
    assert table.turn["turn_points"] == 1500
    # After hot dice every die is free again and may be set aside.
    table.roll(5, 3, 4, 6, 6, set_aside=[0])
    assert table.turn["turn_points"] == 1600
    assert table.turn["set_aside"] == [True] + [False] * 5


def test_a_bust_after_hot_dice_loses_everything():
    table = Table(seats=2)
    table.roll(1, 1, 1, 1, 1, 1)
    outcome = table.roll(*NOTHING, set_aside=ALL)
    assert types(outcome) == ["set_aside", "rolled", "busted"]
    assert event(outcome, "busted").data == {"dice": list(NOTHING), "lost": 8000}
    assert table.current == 1
    assert table.totals == [0, 0]
    assert table.entries == []


# -- banking ---------------------------------------------------------------------------

def test_banking_adds_the_turn_score_and_passes_the_dice():
    table = Table(seats=2)
    table.roll(5, 5, 5, 2, 3, 4)
    outcome = table.bank([0, 1, 2])
    assert types(outcome) == ["set_aside", "banked"]
    assert event(outcome, "set_aside").data == {"dice": [0, 1, 2], "points": 500}
    assert event(outcome, "banked").data == {"points": 500, "total": 500}
    assert outcome.entries == [scoring.Entry(0, "", 500, 1)]
    view = table.view()
    assert view.totals == [500, 0]
    assert view.players == [{"total": 500}, {"total": 0}]
    assert view.current_seat == 1
    assert view.turn == FRESH_TURN


def test_banks_add_up():
    table = Table()
    table.banked_turn([5, 5, 5, 2, 3, 4], [0, 1, 2])
    outcome = table.banked_turn([1, 1, 1, 2, 3, 4], [0, 1, 2])
    assert event(outcome, "banked").data == {"points": 1000, "total": 1500}
    assert [entry.points for entry in table.entries] == [500, 1000]
    assert [entry.round for entry in table.entries] == [1, 2]


def test_a_bank_below_the_minimum_is_refused():
    table = started(1, 5, 2, 3, 4, 4)
    assert not table.turn["can_bank"]
    table.refused("bank_too_low", "bank", {"set_aside": [0, 1]})
    table.roll(2, 3, 4, 1, set_aside=[0, 1])
    # 150 so far and 100 more make 250: still too low.
    table.refused("bank_too_low", "bank", {"set_aside": [5]})


def test_the_selection_set_aside_with_the_bank_counts_towards_the_minimum():
    table = started(1, 1, 2, 3, 4, 6)
    table.roll(1, 5, 2, 3, set_aside=[0, 1])  # 200 set aside, a 1 and a 5 free
    table.refused("bank_too_low", "bank", {"set_aside": [2]})  # 300
    outcome = table.bank([2, 3])  # 350
    assert event(outcome, "set_aside").data == {"dice": [2, 3], "points": 150}
    assert event(outcome, "banked").data == {"points": 350, "total": 350}


@pytest.mark.parametrize(
    ("faces", "positions", "minimum", "banked"),
    [
        param([5, 5, 5, 2, 3, 4], [0, 1, 2], 500, 500, id="exactly-the-minimum"),
        param([5, 5, 5, 2, 3, 4], [0, 1, 2], 350, 500, id="above-the-default"),
        param([5, 2, 2, 3, 3, 4], [0], 0, 50, id="minimum-0-banks-a-five"),
    ],
)
def test_a_bank_at_or_above_the_minimum_is_accepted(faces, positions, minimum, banked):
    table = Table(bank_minimum=minimum)
    table.roll(*faces)
    assert table.turn["can_bank"]
    outcome = table.bank(positions)
    assert event(outcome, "banked").data == {"points": banked, "total": banked}


def test_a_bank_just_below_a_raised_minimum_is_refused():
    table = Table(bank_minimum=550)
    table.roll(5, 5, 5, 2, 3, 4)
    assert not table.turn["can_bank"]
    table.refused("bank_too_low", "bank", {"set_aside": [0, 1, 2]})


def test_banking_may_set_aside_less_than_the_best_selection():
    table = started(1, 1, 1, 5, 2, 3)
    outcome = table.bank([0, 1, 2])
    assert event(outcome, "banked").data == {"points": 1000, "total": 1000}


# -- the view's flags ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("faces", "available", "can_bank"),
    [
        param([1, 2, 3, 4, 6, 6], True, False, id="a-one-is-100"),
        param([1, 5, 1, 2, 3, 4], True, False, id="250"),
        param([3, 3, 3, 5, 2, 4], True, True, id="300-and-50-is-350"),
        param([1, 1, 5, 5, 2, 3], True, False, id="1-1-5-5-is-300"),
        param([3, 3, 3, 2, 4, 6], True, False, id="three-threes-300"),
        param([4, 4, 4, 2, 3, 6], True, True, id="three-fours-400"),
        param([1, 2, 3, 4, 5, 6], True, True, id="straight"),
    ],
)
def test_the_flags_after_a_first_throw(faces, available, can_bank):
    table = started(*faces)
    assert table.turn["throw_points_available"] is available
    assert table.turn["can_bank"] is can_bank


def test_can_bank_counts_the_turn_points_and_the_best_free_selection():
    table = started(1, 1, 2, 3, 4, 6)
    table.roll(5, 2, 3, 4, set_aside=[0, 1])  # 200 set aside; a 5 free: 250 at best
    assert table.turn["throw_points_available"]
    assert not table.turn["can_bank"]
    table.roll(5, 2, 3, set_aside=[2])  # 250; another 5 free: 300 at best
    assert not table.turn["can_bank"]
    table.roll(1, 2, set_aside=[3])  # 300; a 1 free: 400
    assert table.turn["can_bank"]


# -- passing ---------------------------------------------------------------------------

def test_passing_before_the_first_throw():
    table = Table(seats=2)
    outcome = table.pass_turn()
    assert types(outcome) == ["passed"]
    assert (outcome.events[0].seat, outcome.events[0].data) == (0, {"lost": 0})
    assert outcome.entries == []
    assert table.current == 1
    assert table.view().turn == FRESH_TURN


def test_passing_after_setting_aside_loses_the_turn_points():
    table = Table(seats=2)
    table.roll(1, 1, 1, 2, 3, 4)
    table.roll(5, 5, 2, set_aside=[0, 1, 2])
    outcome = table.pass_turn()
    assert event(outcome, "passed").data == {"lost": 1000}
    assert table.totals == [0, 0]
    assert table.current == 1


def test_passing_right_after_a_throw_is_allowed():
    table = started(1, 1, 1, 1, 1, 1)
    outcome = table.pass_turn()
    assert event(outcome, "passed").data == {"lost": 0}


# -- seats and refusals ----------------------------------------------------------------

def test_seats_take_turns_in_order_and_rounds_count_full_cycles():
    table = Table(seats=3)
    seen = []
    for _ in range(7):
        view = table.view()
        seen.append((view.round, view.current_seat))
        table.pass_turn()
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]


def test_every_way_a_turn_ends_passes_the_dice_to_the_next_seat():
    table = Table(seats=3)
    table.banked_turn([1, 1, 1, 2, 3, 4], [0, 1, 2])
    assert table.current == 1
    table.busted_turn()
    assert table.current == 2
    table.pass_turn()
    assert (table.current, table.view().round) == (0, 2)
    table.banked_turn([5, 5, 5, 5, 2, 3], [0, 1, 2, 3])
    assert table.totals == [2000, 0, 0]
    assert table.entries == [scoring.Entry(0, "", 1000, 1), scoring.Entry(0, "", 1000, 2)]


@pytest.mark.parametrize("action", ["roll", "bank", "pass"])
def test_moving_out_of_turn_is_refused(action):
    table = Table(seats=3)
    table.refused("not_your_turn", action, {}, seat=1)
    table.roll(1, 1, 1, 2, 3, 4)
    table.refused("not_your_turn", action, {} if action == "pass" else {"set_aside": [0]}, seat=2)


@pytest.mark.parametrize("action", ["score", "hold", "scratch"])
def test_a_move_of_the_box_games_is_invalid(action):
    Table().refused("invalid", action, {"hold": [0]} if action == "hold" else {"category": "ones"})


def test_the_given_state_is_never_modified_even_by_a_refused_move():
    table = started(1, 1, 1, 2, 3, 4)
    # Table.move asserts the input state is unchanged after every move.
    table.refused("bank_too_low", "bank", {"set_aside": [0]}, rng=ScriptedRng())
    table.roll(5, 5, 5, set_aside=[0, 1, 2])
    assert table.state["set_aside"] == [True, True, True, False, False, False]


def test_the_state_stays_json_ready():
    table = started(1, 1, 1, 2, 3, 4)
    table.roll(5, 5, 5, set_aside=[0, 1, 2])
    assert json.loads(json.dumps(table.state)) == table.state
    assert TEN.view(json.loads(json.dumps(table.state)), options=table.options) == table.view()
