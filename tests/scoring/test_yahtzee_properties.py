"""Properties of the Yahtzee engine that hold for any dice, any scorecard and any game,
checked with Hypothesis.  Example counts are kept small so the suite stays fast."""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from yahtzee_support import BOXES, UPPER, YAHTZEE, upper_box

import scoring
from scoring.commands import Hold, Roll, Score, Scratch, command_for


def modest(examples):
    # No example database: the tests must not write outside tests/scoring and scoring/.
    return settings(max_examples=examples, deadline=None, database=None)


dice_st = st.lists(st.integers(1, 6), min_size=5, max_size=5)
yahtzees_st = st.integers(1, 6).map(lambda face: [face] * 5)
# Only cards some game reaches: each box at points its dice give it (a made-up one is refused).
scorecard_st = st.fixed_dictionaries(
    {box: st.one_of(st.none(), st.sampled_from(YAHTZEE.box_points(box))) for box in BOXES}
)
options_st = st.fixed_dictionaries(
    {
        "yahtzee_bonus": st.sampled_from(["unlimited", "single", "none"]),
        "joker": st.sampled_from(["forced", "free", "none"]),
    }
)
# Most Joker cases need a Yahtzee: draw one often.
any_dice_st = st.one_of(dice_st, yahtzees_st)

# The most each box can ever take, from the rule table (Joker points included).
BOX_MAXIMUM = {
    **{box: 5 * face for face, box in enumerate(UPPER, start=1)},
    "three_of_a_kind": 30, "four_of_a_kind": 30, "full_house": 25,
    "small_straight": 30, "large_straight": 40, "yahtzee": 50, "chance": 30,
}
FIXED_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40, "yahtzee": 50}


def calculate(dice, scorecard, opts):
    return YAHTZEE.calculate({"dice": dice, "scorecard": scorecard}, options=opts)["scores"]


# -- the calculator --------------------------------------------------------------------

@modest(300)
@given(any_dice_st, scorecard_st, options_st)
def test_no_score_is_negative_nor_above_the_box_maximum(dice, scorecard, opts):
    for box, points in calculate(dice, scorecard, opts).items():
        assert 0 <= points <= BOX_MAXIMUM[box]
        if box in FIXED_POINTS:
            assert points in (0, FIXED_POINTS[box])


@modest(200)
@given(any_dice_st, scorecard_st, options_st)
def test_chance_is_the_sum_of_the_dice(dice, scorecard, opts):
    assert calculate(dice, None, opts)["chance"] == sum(dice)
    answer = calculate(dice, scorecard, opts)
    if "chance" in answer:
        assert answer["chance"] == sum(dice)


@modest(300)
@given(any_dice_st, scorecard_st, options_st)
def test_every_legal_choice_is_an_open_box_and_an_open_box_is_always_legal(
    dice, scorecard, opts
):
    open_boxes = {box for box, value in scorecard.items() if value is None}
    answer = calculate(dice, scorecard, opts)
    assert set(answer) <= open_boxes
    assert bool(answer) == bool(open_boxes)      # a turn can always be ended


@modest(200)
@given(any_dice_st, scorecard_st, options_st, st.randoms(use_true_random=False))
def test_the_order_of_the_dice_does_not_matter(dice, scorecard, opts, rnd):
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    assert calculate(shuffled, scorecard, opts) == calculate(dice, scorecard, opts)


@modest(200)
@given(dice_st, options_st)
def test_without_a_yahtzee_every_open_box_scores_as_its_dice(dice, opts):
    # Joker rules only ever change anything for a Yahtzee.
    if len(set(dice)) == 1:
        return
    plain = calculate(dice, None, opts)
    with_yahtzee_filled = calculate(dice, {"yahtzee": 50}, opts)
    assert with_yahtzee_filled == {box: p for box, p in plain.items() if box != "yahtzee"}


@modest(200)
@given(yahtzees_st, scorecard_st, st.sampled_from([50, 0]))
def test_forced_joker_takes_the_open_upper_box_of_the_face(dice, scorecard, yahtzee_box):
    scorecard = {**scorecard, "yahtzee": yahtzee_box}
    box = upper_box(dice[0])
    answer = calculate(dice, scorecard, {"yahtzee_bonus": "unlimited", "joker": "forced"})
    if scorecard[box] is None:
        assert answer == {box: 5 * dice[0]}
    else:
        assert box not in answer
        lower_open = [b for b in BOXES if b not in UPPER and scorecard[b] is None]
        if lower_open:
            assert set(answer) == set(lower_open)
        else:
            assert answer == {b: 0 for b in UPPER if scorecard[b] is None}


# -- whole games -----------------------------------------------------------------------

class FaceSource:
    """Random dice from a limited set of faces (few faces make Yahtzees, and so every Joker
    and bonus case, common)."""

    def __init__(self, rnd, faces):
        self.rnd = rnd
        self.faces = faces

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.rnd.choice(self.faces)


def expected_bonus(opts, card_before, dice, bonus_so_far):
    """The Yahtzee bonus a fill earns, from the rule text."""
    if len(set(dice)) != 1 or card_before["yahtzee"] != 50:
        return 0
    if opts["yahtzee_bonus"] == "none":
        return 0
    if opts["yahtzee_bonus"] == "single" and bonus_so_far:
        return 0
    return 100


def rule_total(scorecard, bonus):
    upper = sum(scorecard[box] for box in UPPER if scorecard[box] is not None)
    everything = sum(value for value in scorecard.values() if value is not None)
    return everything + (35 if upper >= 63 else 0) + bonus


def random_move(rnd):
    """A move a careless player might try: sometimes illegal."""
    action = rnd.choice(["roll", "hold", "score", "scratch"])
    if action in ("roll", "hold"):
        hold = rnd.sample(range(5), rnd.randint(0, 5))
        if rnd.random() < 0.2:
            hold.append(rnd.choice([5, -1, hold[0] if hold else 7]))
        return action, {"hold": hold}
    return action, {"category": rnd.choice((*BOXES, "sevens"))}


def legal_move(rnd, view):
    if view.turn["dice"] is None:
        return "roll", {}
    if view.turn["rolls_left"] and rnd.random() < 0.5:
        hold = sorted(rnd.sample(range(5), rnd.randint(0, 5)))
        if rnd.random() < 0.3:
            return "hold", {"hold": hold}
        return "roll", {"hold": hold}
    category = rnd.choice(sorted(view.choices))
    return rnd.choice(["score", "score", "scratch"]), {"category": category}


@modest(40)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 4),
    opts=options_st,
    faces=st.sampled_from([(1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6), (2, 5), (6,), (3, 4)]),
)
def test_random_whole_games_obey_the_rules_and_end_after_13_fills_per_seat(
    seed, seats, opts, faces
):
    rnd = random.Random(seed)
    dice_source = FaceSource(random.Random(seed + 1), faces)
    state = YAHTZEE.new_state(seats=seats, options=opts)
    fills = [0] * seats
    bonuses = [0] * seats
    finished_events = []

    for _step in range(13 * seats * 8):  # far more moves than a game can take
        view = YAHTZEE.view(state, options=opts)
        if view.finished:
            break
        seat = view.current_seat
        card = state["cards"][seat]
        if view.turn["dice"] is not None:
            # choices: open boxes only, never none, the same as the calculator's answer
            assert view.choices
            assert all(card[box] is None for box in view.choices)
            assert view.choices == calculate(view.turn["dice"], card, opts)
        if rnd.random() < 0.2:
            action, args = random_move(rnd)
        else:
            action, args = legal_move(rnd, view)

        before = copy.deepcopy(state)
        try:
            outcome = YAHTZEE.move(
                state, seat=seat, command=command_for(action, args), options=opts, rng=dice_source
            )
        except scoring.RuleError:
            assert state == before, "a refused move changed the state"
            continue
        assert state == before, "a move changed the state it was given"
        new = outcome.state

        # a filled box never changes
        for old_card, new_card in zip(before["cards"], new["cards"], strict=True):
            for box, value in old_card.items():
                if value is not None:
                    assert new_card[box] == value

        for event in outcome.events:
            if event.type == "rolled":
                old_dice = before["dice"]
                assert all(1 <= d <= 6 for d in event.data["dice"])
                if old_dice is None:
                    assert event.data["thrown"] == [0, 1, 2, 3, 4]
                else:
                    for i in range(5):
                        if i not in event.data["thrown"]:
                            assert event.data["dice"][i] == old_dice[i]
                assert new["rolls_used"] <= 3
            elif event.type in ("scored", "scratched"):
                data = event.data
                fills[seat] += 1
                assert data["dice"] == before["dice"]
                assert before["cards"][seat][data["category"]] is None
                assert data["category"] in view.choices
                if event.type == "scratched":
                    assert data["points"] == 0
                else:
                    assert data["points"] == view.choices[data["category"]]
                assert new["cards"][seat][data["category"]] == data["points"]
                assert data["yahtzee_bonus"] == expected_bonus(
                    opts, before["cards"][seat], data["dice"], bonuses[seat]
                )
                bonuses[seat] += data["yahtzee_bonus"]
            elif event.type == "finished":
                finished_events.append(event)

        # the total equals the card plus the upper bonus plus the Yahtzee bonuses
        new_view = YAHTZEE.view(new, options=opts)
        for player_seat, player in enumerate(new_view.players):
            expected = rule_total(new["cards"][player_seat], bonuses[player_seat])
            assert player["total"] == expected
            assert new_view.totals[player_seat] == expected
        state = new

    view = YAHTZEE.view(state, options=opts)
    assert view.finished
    assert fills == [13] * seats
    assert all(value is not None for card in state["cards"] for value in card.values())
    assert len(finished_events) == 1
    best = max(view.totals)
    winners = [seat for seat, total in enumerate(view.totals) if total == best]
    assert finished_events[0].data == {"winners": winners, "totals": view.totals}
    assert view.winners == winners
    assert view.current_seat is None
    for command in (Roll(), Hold(hold=()), Score(category="chance"), Scratch(category="chance")):
        try:
            YAHTZEE.move(state, seat=0, command=command, options=opts, rng=dice_source)
        except scoring.RuleError as error:
            assert error.code == "game_not_active"
        else:
            raise AssertionError(f"{action} after the end was accepted")
