"""The Yahtzee bonus (docs/games/yahtzee.md, "Boxes" and the `yahtzee_bonus` option):
100 for each further Yahtzee rolled while the yahtzee box holds 50 (unlimited), for the
first such Yahtzee only (single), or never (none); nothing if the box holds 0, nothing for
filling the yahtzee box itself, and earned in addition to whatever box the dice fill."""

import pytest
from yahtzee_support import PLAIN, Table

param = pytest.param

BONUS_MODES = ["unlimited", "single", "none"]
JOKER_MODES = ["forced", "free", "none"]
FIRST_FURTHER_YAHTZEE = {"unlimited": 100, "single": 100, "none": 0}
SECOND_FURTHER_YAHTZEE = {"unlimited": 100, "single": 0, "none": 0}


def bonus_of(outcome):
    fills = [e for e in outcome.events if e.type in ("scored", "scratched")]
    assert len(fills) == 1
    return fills[0].data["yahtzee_bonus"]


@pytest.mark.parametrize("bonus", BONUS_MODES)
@pytest.mark.parametrize("joker", JOKER_MODES)
def test_filling_the_yahtzee_box_itself_earns_no_bonus(bonus, joker):
    table = Table(yahtzee_bonus=bonus, joker=joker)
    outcome = table.turn([5, 5, 5, 5, 5], "yahtzee")
    assert table.card()["yahtzee"] == 50
    assert bonus_of(outcome) == 0
    assert table.view().players[0]["yahtzee_bonus"] == 0


@pytest.mark.parametrize("bonus", BONUS_MODES)
@pytest.mark.parametrize("joker", JOKER_MODES)
def test_further_yahtzees_earn_the_bonus_the_option_names(bonus, joker):
    table = Table(yahtzee_bonus=bonus, joker=joker)
    table.turn([5, 5, 5, 5, 5], "yahtzee")
    first = table.turn([3, 3, 3, 3, 3], "threes")        # legal in every Joker mode
    second = table.turn([6, 6, 6, 6, 6], "sixes")
    third = table.turn([2, 2, 2, 2, 2], "twos")
    assert bonus_of(first) == FIRST_FURTHER_YAHTZEE[bonus]
    assert bonus_of(second) == SECOND_FURTHER_YAHTZEE[bonus]
    assert bonus_of(third) == SECOND_FURTHER_YAHTZEE[bonus]
    earned = FIRST_FURTHER_YAHTZEE[bonus] + 2 * SECOND_FURTHER_YAHTZEE[bonus]
    player = table.view().players[0]
    assert player["yahtzee_bonus"] == earned
    assert player["total"] == 50 + 15 + 30 + 10 + earned


@pytest.mark.parametrize("bonus", BONUS_MODES)
@pytest.mark.parametrize("joker", JOKER_MODES)
def test_no_bonus_while_the_yahtzee_box_holds_zero(bonus, joker):
    table = Table(yahtzee_bonus=bonus, joker=joker)
    table.turn(PLAIN, "yahtzee", scratch=True)
    outcome = table.turn([4, 4, 4, 4, 4], "fours")
    assert bonus_of(outcome) == 0
    assert table.view().players[0]["yahtzee_bonus"] == 0


@pytest.mark.parametrize("bonus", BONUS_MODES)
def test_scratching_a_yahtzee_into_the_yahtzee_box_forfeits_every_bonus(bonus):
    table = Table(yahtzee_bonus=bonus)
    first = table.turn([1, 1, 1, 1, 1], "yahtzee", scratch=True)
    assert table.card()["yahtzee"] == 0
    assert bonus_of(first) == 0
    assert bonus_of(table.turn([2, 2, 2, 2, 2], "twos")) == 0


def test_unlimited_bonus_counts_a_yahtzee_scratched_into_an_upper_box_via_joker():
    table = Table(yahtzee_bonus="unlimited", joker="forced")
    table.turn([6, 6, 6, 6, 6], "yahtzee")
    outcome = table.turn([1, 1, 1, 1, 1], "ones", scratch=True)
    assert table.card()["ones"] == 0
    assert outcome.events[0].type == "scratched"
    assert outcome.events[0].data == {
        "category": "ones", "points": 0, "dice": [1, 1, 1, 1, 1], "yahtzee_bonus": 100,
    }
    assert table.view().players[0]["yahtzee_bonus"] == 100


def test_unlimited_bonus_counts_a_yahtzee_scored_into_a_lower_box_via_joker():
    table = Table(yahtzee_bonus="unlimited", joker="forced")
    table.turn([6, 6, 6, 6, 6], "yahtzee")
    table.turn([2, 2, 2, 1, 3], "twos")
    outcome = table.turn([2, 2, 2, 2, 2], "small_straight")
    assert outcome.events[0].type == "scored"
    assert outcome.events[0].data == {
        "category": "small_straight", "points": 30, "dice": [2, 2, 2, 2, 2], "yahtzee_bonus": 100,
    }
    player = table.view().players[0]
    assert player["yahtzee_bonus"] == 100
    assert player["total"] == 50 + 6 + 30 + 100


def test_unlimited_bonus_counts_a_yahtzee_scratched_into_a_lower_box_via_joker():
    table = Table(yahtzee_bonus="unlimited", joker="forced")
    table.turn([6, 6, 6, 6, 6], "yahtzee")
    table.turn([6, 6, 6, 1, 2], "sixes")
    outcome = table.turn([6, 6, 6, 6, 6], "chance", scratch=True)
    assert outcome.events[0].data["points"] == 0
    assert outcome.events[0].data["yahtzee_bonus"] == 100


def test_without_a_joker_the_bonus_is_still_earned():
    table = Table(yahtzee_bonus="unlimited", joker="none")
    table.turn([6, 6, 6, 6, 6], "yahtzee")
    outcome = table.turn([6, 6, 6, 6, 6], "full_house")   # five of a kind: no full house
    assert outcome.events[0].data["points"] == 0
    assert outcome.events[0].data["yahtzee_bonus"] == 100


def test_single_bonus_is_only_for_the_first_further_yahtzee():
    table = Table(yahtzee_bonus="single")
    table.turn([6, 6, 6, 6, 6], "yahtzee")
    assert bonus_of(table.turn([1, 1, 1, 1, 1], "ones")) == 100
    assert bonus_of(table.turn([1, 1, 1, 1, 1], "full_house")) == 0
    assert bonus_of(table.turn([1, 1, 1, 1, 1], "large_straight")) == 0
    assert table.view().players[0]["yahtzee_bonus"] == 100
    assert table.view().totals == [50 + 5 + 25 + 40 + 100]


@pytest.mark.parametrize("bonus", BONUS_MODES)
def test_other_dice_earn_no_bonus_after_a_yahtzee(bonus):
    table = Table(yahtzee_bonus=bonus)
    table.turn([6, 6, 6, 6, 6], "yahtzee")
    assert bonus_of(table.turn([6, 6, 6, 6, 5], "four_of_a_kind")) == 0


def test_fill_events_carry_category_points_dice_and_bonus():
    table = Table()
    table.roll(3, 3, 4, 4, 4)
    outcome = table.fill("full_house")
    (event,) = outcome.events
    assert event.type == "scored"
    assert event.seat == 0
    assert event.data == {
        "category": "full_house", "points": 25, "dice": [3, 3, 4, 4, 4], "yahtzee_bonus": 0,
    }
    table.roll(1, 2, 3, 4, 6)
    (event,) = table.fill("large_straight", scratch=True).events
    assert event.type == "scratched"
    assert event.data == {
        "category": "large_straight", "points": 0, "dice": [1, 2, 3, 4, 6], "yahtzee_bonus": 0,
    }


def test_each_seat_earns_its_own_bonus():
    table = Table(seats=2, yahtzee_bonus="single")
    table.turn([5, 5, 5, 5, 5], "yahtzee")       # seat 0: 50
    table.turn(PLAIN, "chance")                   # seat 1: 17
    table.turn([5, 5, 5, 5, 5], "fives")          # seat 0: 25 + 100
    outcome = table.turn([2, 2, 2, 2, 2], "yahtzee")   # seat 1 fills its own yahtzee box
    assert bonus_of(outcome) == 0
    view = table.view()
    assert [p["yahtzee_bonus"] for p in view.players] == [100, 0]
    assert view.totals == [175, 67]
