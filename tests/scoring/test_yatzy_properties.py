"""Properties of the Yatzy family that hold for any dice, any scorecard and any game,
checked with Hypothesis for each ruleset.  Example counts are kept small so the suite
stays fast."""

import copy
import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from yatzy_support import BOXES, FORCED, MAXI, UPPER, each_ruleset

import scoring
from scoring.commands import command_for


def modest(examples):
    # No example database: the tests must not write outside tests/scoring and scoring/.
    return settings(max_examples=examples, deadline=None, database=None)


# The most each box can take, from the rule tables.
YATZY_MAXIMUM = {
    **{box: 5 * face for face, box in enumerate(UPPER, start=1)},
    "one_pair": 12, "two_pairs": 22, "three_of_a_kind": 18, "four_of_a_kind": 24,
    "small_straight": 15, "large_straight": 20, "full_house": 28, "chance": 30, "yatzy": 50,
}
MAXIMUM = {
    "yatzy": YATZY_MAXIMUM,
    "forced-yatzy": YATZY_MAXIMUM,
    "maxi-yatzy": {
        **{box: 6 * face for face, box in enumerate(UPPER, start=1)},
        "one_pair": 12, "two_pairs": 22, "three_pairs": 30, "three_of_a_kind": 18,
        "four_of_a_kind": 24, "five_of_a_kind": 30, "small_straight": 15,
        "large_straight": 20, "full_straight": 21, "full_house": 28, "villa": 33, "tower": 34,
        "chance": 36, "maxi_yatzy": 100,
    },
}
FIXED_POINTS = {
    "small_straight": 15, "large_straight": 20, "full_straight": 21, "yatzy": 50,
    "maxi_yatzy": 100,
}
# Boxes that count only the dice of their combination: how many dice of each face the
# combination takes (faces all different).
COMBINATION_SHAPE = {
    "one_pair": [2], "two_pairs": [2, 2], "three_pairs": [2, 2, 2], "three_of_a_kind": [3],
    "four_of_a_kind": [4], "five_of_a_kind": [5], "full_house": [2, 3], "villa": [3, 3],
    "tower": [2, 4],
}
UPPER_BONUS = {"yatzy": (63, 50), "forced-yatzy": (63, 50), "maxi-yatzy": (84, 100)}


def dice_st(ruleset):
    n = ruleset.dice
    plain = st.lists(st.integers(1, 6), min_size=n, max_size=n)
    # Dice from two faces make pairs, full houses, villas and towers common.
    two_faces = st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
        lambda faces: st.lists(st.sampled_from(faces), min_size=n, max_size=n)
    )
    return st.one_of(plain, two_faces, st.permutations(range(1, 7)).map(lambda d: d[:n]))


def scorecard_st(ruleset):
    return st.fixed_dictionaries(
        {box: st.one_of(st.none(), st.sampled_from(ruleset.box_points(box)))
         for box in BOXES[ruleset.id]}
    )


def calculate(ruleset, dice, scorecard=None):
    body = {"dice": list(dice)}
    if scorecard is not None:
        body["scorecard"] = scorecard
    return ruleset.calculate(body, options={})["scores"]


# -- the calculator --------------------------------------------------------------------

@each_ruleset
@modest(150)
@given(data=st.data())
def test_no_score_is_negative_nor_above_the_box_maximum(ruleset, data):
    dice = data.draw(dice_st(ruleset))
    answer = calculate(ruleset, dice)
    assert list(answer) == list(BOXES[ruleset.id])
    for box, points in answer.items():
        assert 0 <= points <= MAXIMUM[ruleset.id][box], box
        if box in FIXED_POINTS:
            assert points in (0, FIXED_POINTS[box])


@each_ruleset
@modest(100)
@given(data=st.data())
def test_chance_is_the_sum_and_an_upper_box_the_dice_of_its_face(ruleset, data):
    dice = data.draw(dice_st(ruleset))
    answer = calculate(ruleset, dice)
    assert answer["chance"] == sum(dice)
    for face, box in enumerate(UPPER, start=1):
        assert answer[box] == face * dice.count(face)


def best_combination(dice, shape):
    """The highest sum of any dice of ``dice`` that form ``shape``, else 0 (by brute force)."""
    sums = [
        sum(chosen)
        for chosen in combinations(dice, sum(shape))
        if sorted(Counter(chosen).values()) == shape
    ]
    return max(sums, default=0)


@each_ruleset
@modest(150)
@given(data=st.data())
def test_a_combination_takes_the_best_dice_of_its_shape_and_only_those(ruleset, data):
    dice = data.draw(dice_st(ruleset))
    for box, points in calculate(ruleset, dice).items():
        if box in COMBINATION_SHAPE:
            assert points == best_combination(dice, COMBINATION_SHAPE[box]), box


@each_ruleset
@modest(80)
@given(data=st.data())
def test_every_legal_box_is_open_and_a_turn_can_always_be_ended(ruleset, data):
    dice = data.draw(dice_st(ruleset))
    scorecard = data.draw(scorecard_st(ruleset))
    open_boxes = [box for box in BOXES[ruleset.id] if scorecard[box] is None]
    answer = calculate(ruleset, dice, scorecard)
    assert set(answer) <= set(open_boxes)
    assert bool(answer) == bool(open_boxes)
    if ruleset is FORCED:
        assert list(answer) == open_boxes[:1]       # only the next open box
    else:
        assert list(answer) == open_boxes
    everything = calculate(ruleset, dice)
    assert all(points == everything[box] for box, points in answer.items())


@each_ruleset
@modest(100)
@given(data=st.data())
def test_the_order_of_the_dice_does_not_matter(ruleset, data):
    dice = data.draw(dice_st(ruleset))
    shuffled = data.draw(st.permutations(dice))
    assert calculate(ruleset, shuffled) == calculate(ruleset, dice)


# -- whole games -----------------------------------------------------------------------

class FaceSource:
    """Random dice from a limited set of faces, so that combinations are common."""

    def __init__(self, rnd, faces):
        self.rnd = rnd
        self.faces = faces

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.rnd.choice(self.faces)


def rule_total(ruleset, scorecard):
    threshold, bonus = UPPER_BONUS[ruleset.id]
    upper = sum(scorecard[box] or 0 for box in UPPER)
    return sum(value or 0 for value in scorecard.values()) + (bonus if upper >= threshold else 0)


def random_move(rnd, ruleset, view):
    """A move a careless player might try: often illegal."""
    action = rnd.choice(["roll", "hold", "score", "scratch"])
    if action in ("roll", "hold"):
        hold = rnd.sample(range(ruleset.dice), rnd.randint(0, ruleset.dice))
        if rnd.random() < 0.2:
            hold.append(rnd.choice([ruleset.dice, -1]))
        return action, {"hold": hold}
    return action, {"category": rnd.choice(BOXES[ruleset.id] + ("yahtzee",))}


def legal_move(rnd, ruleset, view):
    if view.turn["dice"] is None:
        return "roll", {}
    if view.turn["rolls_left"] and rnd.random() < 0.45:
        hold = sorted(rnd.sample(range(ruleset.dice), rnd.randint(0, ruleset.dice)))
        return rnd.choice(["hold", "roll", "roll"]), {"hold": hold}
    category = rnd.choice(sorted(view.choices))
    return rnd.choice(["score", "score", "scratch"]), {"category": category}


@each_ruleset
@modest(25)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 3),
    faces=st.sampled_from([(1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6), (2, 5), (6,), (3, 4, 5)]),
)
def test_random_whole_games_end_after_every_box_of_every_seat_with_rule_totals(
    ruleset, seed, seats, faces
):
    rnd = random.Random(seed)
    dice_source = FaceSource(random.Random(seed + 1), faces)
    boxes = BOXES[ruleset.id]
    state = ruleset.new_state(seats=seats, options={})
    fills = [0] * seats
    # Rolls each seat has for its turn: three, plus (in Maxi Yatzy) those it saved.
    available = [3] * seats
    finished_events = []

    for _step in range(len(boxes) * seats * 12):  # far more moves than a game can take
        view = ruleset.view(state, options={})
        if view.finished:
            break
        seat = view.current_seat
        card = state["cards"][seat]
        assert view.turn["rolls_left"] == available[seat] - view.turn["rolls_used"]
        if view.turn["dice"] is not None:
            assert view.choices
            assert all(card[box] is None for box in view.choices)
            assert view.choices == calculate(ruleset, view.turn["dice"], card)
            if ruleset is FORCED:
                assert list(view.choices) == [next(b for b in boxes if card[b] is None)]
        if rnd.random() < 0.2:
            action, args = random_move(rnd, ruleset, view)
        else:
            action, args = legal_move(rnd, ruleset, view)

        before = copy.deepcopy(state)
        try:
            outcome = ruleset.move(
                state, seat=seat, command=command_for(action, args), options={}, rng=dice_source
            )
        except scoring.RuleError:
            assert state == before, "a refused move changed the state"
            continue
        assert state == before, "a move changed the state it was given"
        new = outcome.state

        for event in outcome.events:
            if event.type in ("scored", "scratched"):
                data = event.data
                fills[seat] += 1
                assert data["category"] in view.choices
                expected = 0 if event.type == "scratched" else view.choices[data["category"]]
                assert data["points"] == expected
                assert data["yahtzee_bonus"] == 0
                assert new["cards"][seat][data["category"]] == data["points"]
                if ruleset is MAXI:
                    available[seat] = 3 + available[seat] - view.turn["rolls_used"]
            elif event.type == "finished":
                finished_events.append(event)

        new_view = ruleset.view(new, options={})
        for player_seat, player in enumerate(new_view.players):
            assert "yahtzee_bonus" not in player
            assert player["total"] == rule_total(ruleset, new["cards"][player_seat])
            assert new_view.totals[player_seat] == player["total"]
        state = new

    view = ruleset.view(state, options={})
    assert view.finished
    assert fills == [len(boxes)] * seats
    assert all(value is not None for card in state["cards"] for value in card.values())
    assert len(finished_events) == 1
    best = max(view.totals)
    assert view.winners == [seat for seat, total in enumerate(view.totals) if total == best]
    assert finished_events[0].data == {"winners": view.winners, "totals": view.totals}
