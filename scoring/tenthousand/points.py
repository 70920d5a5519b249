"""What a selection of Ten Thousand's dice scores: the table of combinations.

Pure helpers on faces, kept apart from the turn's state machine (:mod:`.rules`) because
the moves, the view, the calculator, the solver and the computer players all use them.
"""

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from ..dice import FACES, counts

DICE = 6
STRAIGHT_POINTS = 2000
# The faces that also score alone, and what one such die is worth.
SINGLE_POINTS = {1: 100, 5: 50}
POINTS_STEP = 50  # every combination is worth a multiple of 50

# -- scoring ---------------------------------------------------------------------------


def kind_points(face: int, count: int) -> int:
    """Points of ``count`` (3 to 6) dice showing ``face``.

    Three 1s are 1000 and three of a face ``d`` are ``d`` x 100; each further die of the
    face doubles that (six 1s 8000, five 1s 4000, four 1s 2000; six of ``d`` ``d`` x 800,
    five ``d`` x 400, four ``d`` x 200).
    """
    if not 3 <= count <= DICE:
        raise ValueError(f"a combination of one face takes 3 to {DICE} dice, not {count}")
    three = 1000 if face == 1 else face * 100
    return three << (count - 3)


@cache
def _face_value(face: int, count: int) -> int | None:
    """The best split of ``count`` dice of one face into of-a-kind groups and single dice.

    ``None`` when they cannot all be used (a 2, 3, 4 or 6 shown once or twice).
    """
    if count == 0:
        return 0
    splits = []
    for size in range(3, min(count, DICE) + 1):
        rest = _face_value(face, count - size)
        if rest is not None:
            splits.append(kind_points(face, size) + rest)
    if face in SINGLE_POINTS:
        rest = _face_value(face, count - 1)
        if rest is not None:
            splits.append(SINGLE_POINTS[face] + rest)
    return max(splits, default=None)


def _split_value(tally: Sequence[int]) -> int | None:
    """The best split of the dice counted in ``tally`` without a 1-2-3-4-5-6 straight."""
    total = 0
    for face in FACES:
        value = _face_value(face, tally[face])
        if value is None:
            return None
        total += value
    return total


def selection_value(faces: Sequence[int]) -> int | None:
    """What a selection of dice scores, or ``None`` when it does not score.

    A selection scores only if every die belongs to a combination of the table; its value
    is the best way to split it into combinations (1-1-1-5-5-5 is 1500, 1-1-1-1 is 2000).
    The empty selection does not score.
    """
    if not faces:
        return None
    tally = counts(faces)
    candidates = [_split_value(tally)]
    if all(tally[face] for face in FACES):
        rest = [0] + [tally[face] - 1 for face in FACES]
        rest_value = _split_value(rest)
        if rest_value is not None:
            candidates.append(STRAIGHT_POINTS + rest_value)
    return max((value for value in candidates if value is not None), default=None)


def scoring_positions(faces: Sequence[int]) -> list[int]:
    """The positions (into ``faces``, the free dice of one throw, at most six) of every
    die that can be part of a scoring selection: each 1 and 5, each die of a face shown
    three or more times, and all six dice of a 1-2-3-4-5-6 straight."""
    tally = counts(faces)
    straight = len(faces) == DICE and all(tally[face] == 1 for face in FACES)
    return [
        position
        for position, face in enumerate(faces)
        if straight or face in SINGLE_POINTS or tally[face] >= 3
    ]


def can_score(faces: Sequence[int]) -> bool:
    """Whether some die of a throw can be part of a scoring selection (else the throw busts)."""
    return bool(scoring_positions(faces))


class Selection(NamedTuple):
    """A selection of dice: their positions (ascending) and what they score together."""

    positions: list[int]
    points: int


def best_selection(faces: Sequence[int]) -> Selection:
    """The highest-scoring selection of a throw's free dice (at most six) and its value.

    Every combination is worth more with more dice, so the best selection takes every die
    that can score.  ``Selection([], 0)`` when nothing scores (a bust).
    """
    positions = scoring_positions(faces)
    if not positions:
        return Selection([], 0)
    points = selection_value([faces[p] for p in positions])
    assert points is not None  # every die of these positions belongs to a combination
    return Selection(positions, points)


def best_free_selection(dice: Sequence[int], set_aside: Sequence[bool]) -> Selection:
    """:func:`best_selection` of a turn's free dice, its positions counted among all six
    dice (``dice`` and ``set_aside`` as in the turn view) so they can be sent as
    ``set_aside`` with a ``roll`` or ``bank`` move."""
    free = [position for position, aside in enumerate(set_aside) if not aside]
    best = best_selection([dice[position] for position in free])
    return Selection([free[i] for i in best.positions], best.points)


# -- the ruleset -----------------------------------------------------------------------
