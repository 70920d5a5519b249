"""The end of the game (docs/games/ten-thousand.md, "The end"): with ``final_round`` false the
first player to reach the target by banking wins at once; with it true every other player
(the seats after that player, wrapping around) gets exactly one last turn and the highest
total wins, equal highest totals drawing."""

import pytest
from test_ten_thousand_support import NOTHING, Table, event, types

param = pytest.param

THOUSAND = ([1, 1, 1, 2, 3, 4], [0, 1, 2])
FIVE_HUNDRED = ([5, 5, 5, 2, 3, 4], [0, 1, 2])
SIX_HUNDRED = ([6, 6, 6, 2, 3, 4], [0, 1, 2])
TWO_THOUSAND = ([1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5])


def assert_over(table: Table, winners: list[int], totals: list[int]) -> None:
    view = table.view()
    assert view.finished
    assert view.current_seat is None
    assert view.winners == winners
    assert view.totals == totals
    assert view.turn["dice"] is None
    assert not view.turn["throw_points_available"]
    assert not view.turn["can_bank"]
    finished = table.events[-1]
    assert (finished.type, finished.seat) == ("finished", None)
    assert finished.data == {"winners": winners, "totals": totals}
    assert [e.type for e in table.events].count("finished") == 1
    for seat, total in enumerate(totals):
        assert sum(entry.points for entry in table.entries if entry.seat == seat) == total
    for action in ("roll", "bank", "pass"):
        for seat in range(len(totals)):
            args = {} if action == "pass" else {"set_aside": [0]}
            table.refused("game_not_active", action, args, seat=seat)


# -- final_round false: the first to reach the target wins at once ---------------------

def test_reaching_the_target_wins_at_once():
    table = Table(seats=3, target=1500)
    table.banked_turn(*FIVE_HUNDRED)
    table.banked_turn(*THOUSAND)
    table.banked_turn(*FIVE_HUNDRED)
    outcome = table.banked_turn(*THOUSAND)  # seat 0 reaches exactly 1500
    assert types(outcome) == ["set_aside", "banked", "finished"]
    assert event(outcome, "banked").data == {"points": 1000, "total": 1500}
    assert_over(table, [0], [1500, 1000, 500])


def test_passing_the_target_wins_too():
    table = Table(seats=2, target=1000)
    table.banked_turn(*FIVE_HUNDRED)
    outcome = table.banked_turn(*TWO_THOUSAND)
    assert types(outcome)[-1] == "finished"
    assert_over(table, [1], [500, 2000])


def test_a_later_seat_loses_its_turn_of_the_round_when_the_game_ends_at_once():
    table = Table(seats=3, target=1000)
    table.banked_turn(*THOUSAND)
    assert_over(table, [0], [1000, 0, 0])


def test_below_the_target_the_game_goes_on():
    table = Table(seats=1, target=1050)
    table.banked_turn(*THOUSAND)
    assert not table.view().finished
    table.banked_turn(*FIVE_HUNDRED)
    assert_over(table, [0], [1500])


def test_a_single_player_wins_on_reaching_the_target():
    table = Table(seats=1, target=1000)
    table.busted_turn()
    table.pass_turn()
    table.banked_turn(*THOUSAND)
    assert_over(table, [0], [1000])
    assert table.view().round == 3


# -- final_round true: every other player gets one last turn ---------------------------

def test_every_other_seat_gets_one_last_turn_in_turn_order():
    table = Table(seats=3, target=1000, final_round=True)
    table.banked_turn(*FIVE_HUNDRED)
    outcome = table.banked_turn(*THOUSAND)  # seat 1 reaches the target
    assert types(outcome) == ["set_aside", "banked"]
    assert not table.view().finished
    assert table.current == 2
    table.banked_turn(*SIX_HUNDRED)
    assert table.current == 0
    outcome = table.pass_turn()  # seat 0's last turn: seat 1 does not throw again
    assert types(outcome) == ["passed", "finished"]
    assert_over(table, [1], [500, 1000, 600])


def test_the_last_seat_reaching_the_target_wraps_around():
    table = Table(seats=3, target=1000, final_round=True)
    table.pass_turn()
    table.pass_turn()
    table.banked_turn(*THOUSAND)  # seat 2
    assert (table.current, table.view().round) == (0, 2)
    table.banked_turn(*FIVE_HUNDRED)
    assert table.current == 1
    outcome = table.banked_turn(*SIX_HUNDRED)
    assert types(outcome)[-1] == "finished"
    assert_over(table, [2], [500, 600, 1000])


def test_a_later_player_may_overtake_in_the_final_round():
    table = Table(seats=3, target=1000, final_round=True)
    table.banked_turn(*THOUSAND)  # seat 0 reaches the target
    outcome = table.banked_turn(*TWO_THOUSAND)  # seat 1 passes it too: no new final round
    assert "finished" not in types(outcome)
    assert table.current == 2
    outcome = table.busted_turn()
    assert types(outcome) == ["rolled", "busted", "finished"]
    assert_over(table, [1], [1000, 2000, 0])


def test_equal_highest_totals_draw():
    table = Table(seats=2, target=1000, final_round=True)
    table.banked_turn(*THOUSAND)
    table.banked_turn(*THOUSAND)
    assert_over(table, [0, 1], [1000, 1000])


def test_a_draw_leaves_out_the_lower_totals():
    table = Table(seats=3, target=1000, final_round=True)
    table.banked_turn(*FIVE_HUNDRED)
    table.banked_turn(*TWO_THOUSAND)  # seat 1 reaches the target
    table.roll(*TWO_THOUSAND[0])
    table.roll(1, 1, 1, 2, 3, 4, set_aside=TWO_THOUSAND[1])  # hot dice, then 1000 more
    table.pass_turn()  # seat 2 gives it up: 0
    table.roll(1, 1, 1, 5, 5, 5)
    table.bank([0, 1, 2, 3, 4, 5])  # seat 0: 500 + 1500
    assert_over(table, [0, 1], [2000, 2000, 0])


def test_a_bust_or_a_pass_ends_a_final_turn_like_a_bank():
    table = Table(seats=3, target=1000, final_round=True)
    table.banked_turn(*THOUSAND)
    table.roll(1, 1, 1, 2, 3, 4)
    outcome = table.roll(*NOTHING[:3], set_aside=[0, 1, 2])
    assert types(outcome) == ["set_aside", "rolled", "busted"]
    assert event(outcome, "busted").data == {"dice": list(NOTHING[:3]), "lost": 1000}
    outcome = table.pass_turn()
    assert types(outcome) == ["passed", "finished"]
    assert_over(table, [0], [1000, 0, 0])


def test_a_single_player_has_no_one_to_wait_for():
    table = Table(seats=1, target=1000, final_round=True)
    outcome = table.banked_turn(*THOUSAND)
    assert types(outcome) == ["set_aside", "banked", "finished"]
    assert_over(table, [0], [1000])


def test_the_final_round_starts_only_at_the_target():
    table = Table(seats=2, target=1500, final_round=True)
    table.banked_turn(*THOUSAND)
    table.pass_turn()
    table.pass_turn()
    assert not table.view().finished
    table.pass_turn()
    table.banked_turn(*FIVE_HUNDRED)  # seat 0 reaches 1500
    assert table.current == 1
    table.banked_turn(*SIX_HUNDRED)
    assert_over(table, [0], [1500, 600])


@pytest.mark.parametrize("reacher", [0, 1, 2, 3])
def test_each_other_seat_plays_exactly_once_after_the_target_is_reached(reacher):
    table = Table(seats=4, target=1000, final_round=True)
    for _ in range(reacher):
        table.pass_turn()
    table.banked_turn(*THOUSAND)
    last_turns = []
    while not table.view().finished:
        last_turns.append(table.current)
        table.pass_turn()
    assert last_turns == [(reacher + step) % 4 for step in range(1, 4)]
    assert table.view().winners == [reacher]
