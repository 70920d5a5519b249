"""Shared helpers for the Yahtzee rules-engine tests: a scripted dice source and a table
that plays real moves through ``Ruleset.move`` (no state is ever patched by hand)."""

import copy
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import scoring
from scoring.commands import command_for

YAHTZEE = scoring.get_ruleset("yahtzee")

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
    "yahtzee", "chance",
)
BOXES = UPPER + LOWER
# The lower boxes other than the yahtzee box itself.
OTHER_LOWER = tuple(box for box in LOWER if box != "yahtzee")

# Dice that fit no pattern at all: no straight, no pair, not a Yahtzee.  Scratching
# with them never triggers a Joker rule.
PLAIN = [1, 2, 3, 5, 6]


def upper_box(face: int) -> str:
    return UPPER[face - 1]


class ScriptedRng:
    """A dice source that throws exactly the faces it was given, in order."""

    def __init__(self, *faces: int) -> None:
        self.queue = deque(faces)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6), f"a die is thrown with randint(1, 6), not ({a}, {b})"
        assert self.queue, "the engine threw more dice than the test scripted"
        self.calls += 1
        return self.queue.popleft()


def options(**given: str) -> dict[str, Any]:
    return YAHTZEE.validate_options(given)


def card(**filled: int | None) -> dict[str, int | None]:
    """A complete scorecard for the calculator: every box open unless given."""
    unknown = set(filled) - set(BOXES)
    assert not unknown, unknown
    return {box: filled.get(box) for box in BOXES}


def scores(dice: Sequence[int], scorecard: Mapping[str, int | None] | None = None,
           **opts: str) -> dict[str, int]:
    body: dict[str, Any] = {"dice": list(dice)}
    if scorecard is not None:
        body["scorecard"] = dict(scorecard)
    return YAHTZEE.calculate(body, options=options(**opts))["scores"]


class Table:
    """A game of a box-filling ruleset (Yahtzee unless told) in progress, advanced only by
    real moves."""

    def __init__(self, seats: int = 1, *, ruleset: scoring.Ruleset = YAHTZEE, **opts: str) -> None:
        self.ruleset = ruleset
        self.options = ruleset.validate_options(opts)
        self.state = ruleset.new_state(seats=seats, options=self.options)
        self.events: list[scoring.Event] = []
        self.entries: list[scoring.Entry] = []

    @property
    def current(self) -> int:
        return self.state["current"]

    def view(self) -> scoring.View:
        return self.ruleset.view(self.state, options=self.options)

    def move(self, action: str, args: Mapping[str, Any] | None = None, *,
             seat: int | None = None, rng: Any = None) -> scoring.Outcome:
        outcome = self.ruleset.move(
            self.state,
            seat=self.current if seat is None else seat,
            command=command_for(action, args),
            options=self.options,
            rng=ScriptedRng() if rng is None else rng,
        )
        self.state = outcome.state
        self.events.extend(outcome.events)
        self.entries.extend(outcome.entries)
        return outcome

    def roll(self, *faces: int, hold: Any = None) -> scoring.Outcome:
        """Roll, the thrown dice showing ``faces`` in order of position."""
        rng = ScriptedRng(*faces)
        outcome = self.move("roll", {} if hold is None else {"hold": hold}, rng=rng)
        assert not rng.queue, f"{len(rng.queue)} scripted faces were never thrown"
        return outcome

    def hold(self, indices: Any) -> scoring.Outcome:
        return self.move("hold", {"hold": indices})

    def fill(self, category: Any, *, scratch: bool = False) -> scoring.Outcome:
        return self.move("scratch" if scratch else "score", {"category": category})

    def turn(self, dice: Sequence[int], category: str, *, scratch: bool = False) -> scoring.Outcome:
        """A whole turn: one roll showing ``dice``, then fill ``category``."""
        self.roll(*dice)
        return self.fill(category, scratch=scratch)

    def card(self, seat: int = 0) -> dict[str, int | None]:
        return self.state["cards"][seat]


def refused(code: str, table: Any, action: str, args: Mapping[str, Any] | None = None, *,
            seat: int | None = None, rng: Any = None) -> scoring.RuleError:
    """Assert that the move is refused with ``code`` and leaves the state untouched.

    ``table`` is any game in progress with a ``state`` and a ``move`` like ``Table``'s (the
    Ten Thousand tests have one of their own)."""
    before = copy.deepcopy(table.state)
    with pytest.raises(scoring.RuleError) as error:
        table.move(action, args, seat=seat, rng=rng)
    assert error.value.code == code, error.value
    assert table.state == before
    return error.value
