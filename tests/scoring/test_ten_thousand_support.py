"""Helpers for the Ten Thousand tests (this module holds no tests): a scripted dice source,
an independent brute-force scorer written straight from the rule table, and a table that
plays real moves through ``Ruleset.move`` (no state is ever patched by hand)."""

import copy
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from yahtzee_support import ScriptedRng, refused

import scoring
from scoring.commands import command_for

TEN = scoring.get_ruleset("ten-thousand")

# Six dice with nothing to score: no 1, no 5, no face three times.
NOTHING = (2, 2, 3, 3, 4, 6)
# The positions of all six dice.
ALL = [0, 1, 2, 3, 4, 5]


# -- the rule table, spelled out -------------------------------------------------------

def combination_points(dice: Sequence[int]) -> int | None:
    """The points of ``dice`` if they form exactly one combination of the table, else None."""
    faces = sorted(dice)
    if faces == [1, 2, 3, 4, 5, 6]:
        return 2000
    if len(faces) == 1:
        return {1: 100, 5: 50}.get(faces[0])
    if len(set(faces)) == 1 and 3 <= len(faces) <= 6:
        face = faces[0]
        if face == 1:
            return {3: 1000, 4: 2000, 5: 4000, 6: 8000}[len(faces)]
        return face * {3: 100, 4: 200, 5: 400, 6: 800}[len(faces)]
    return None


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` (positions, all distinct) into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1:]]


def brute_value(dice: Sequence[int]) -> int | None:
    """The best split of ``dice`` into combinations, trying every partition of the dice;
    None when no partition uses every die."""
    best = None
    for partition in set_partitions(list(range(len(dice)))):
        points = [combination_points([dice[i] for i in block]) for block in partition]
        if all(p is not None for p in points):
            best = max(best or 0, sum(points))  # type: ignore[arg-type]
    return best if dice else None


def sub_selections(dice: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The positions of every non-empty sub-selection of ``dice``."""
    for size in range(1, len(dice) + 1):
        yield from combinations(range(len(dice)), size)


def brute_can_score(dice: Sequence[int]) -> bool:
    """Whether some non-empty part of ``dice`` forms a combination."""
    return any(
        combination_points([dice[i] for i in picked]) is not None
        for picked in sub_selections(dice)
    )


def die_fits_somewhere(dice: Sequence[int], position: int) -> bool:
    """Whether the die at ``position`` belongs to some combination made of ``dice``."""
    return any(
        position in picked and combination_points([dice[i] for i in picked]) is not None
        for picked in sub_selections(dice)
    )


# -- playing -----------------------------------------------------------------------------

def options(**given: Any) -> dict[str, Any]:
    return TEN.validate_options(given)


class Table:
    """A game of Ten Thousand in progress, advanced only by real moves."""

    def __init__(self, seats: int = 1, **opts: Any) -> None:
        self.options = options(**opts)
        self.state = TEN.new_state(seats=seats, options=self.options)
        self.events: list[scoring.Event] = []
        self.entries: list[scoring.Entry] = []

    @property
    def current(self) -> int:
        return self.state["current"]

    def view(self) -> scoring.View:
        return TEN.view(self.state, options=self.options)

    @property
    def turn(self) -> dict[str, Any]:
        return self.view().turn

    @property
    def totals(self) -> list[int]:
        return self.view().totals

    def move(self, action: str, args: Mapping[str, Any] | None = None, *,
             seat: int | None = None, rng: Any = None) -> scoring.Outcome:
        before = copy.deepcopy(self.state)
        outcome = TEN.move(
            self.state,
            seat=self.current if seat is None else seat,
            command=command_for(action, args),
            options=self.options,
            rng=ScriptedRng() if rng is None else rng,
        )
        assert self.state == before, "a move modified the state it was given"
        self.state = outcome.state
        self.events.extend(outcome.events)
        self.entries.extend(outcome.entries)
        return outcome

    def roll(self, *faces: int, set_aside: Any = None) -> scoring.Outcome:
        """Roll, the thrown dice showing ``faces`` in order of position."""
        rng = ScriptedRng(*faces)
        args = {} if set_aside is None else {"set_aside": set_aside}
        outcome = self.move("roll", args, rng=rng)
        assert not rng.queue, f"{len(rng.queue)} scripted faces were never thrown"
        return outcome

    def bank(self, set_aside: Any) -> scoring.Outcome:
        return self.move("bank", {"set_aside": set_aside})

    def pass_turn(self) -> scoring.Outcome:
        return self.move("pass")

    def banked_turn(self, faces: Sequence[int], set_aside: Sequence[int]) -> scoring.Outcome:
        """A whole turn: one throw showing ``faces``, then bank the dice at ``set_aside``."""
        self.roll(*faces)
        return self.bank(list(set_aside))

    def busted_turn(self) -> scoring.Outcome:
        """A whole turn that busts on its first throw."""
        outcome = self.roll(*NOTHING)
        assert types(outcome)[:2] == ["rolled", "busted"]
        return outcome

    def refused(self, code: str, action: str, args: Mapping[str, Any] | None = None, *,
                seat: int | None = None, rng: Any = None) -> scoring.RuleError:
        """Assert that the move is refused with ``code`` and leaves the state untouched."""
        return refused(code, self, action, args, seat=seat, rng=rng)


def types(outcome: scoring.Outcome) -> list[str]:
    return [event.type for event in outcome.events]


def event(outcome: scoring.Outcome, kind: str) -> scoring.Event:
    (found,) = [e for e in outcome.events if e.type == kind]
    return found
