"""Small facts about a set of dice, shared by the box scorers."""

from collections.abc import Callable, Sequence

from ..dice import counts
from ..errors import gettext_noop

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER_NAMES = (
    gettext_noop("Ones"), gettext_noop("Twos"), gettext_noop("Threes"),
    gettext_noop("Fours"), gettext_noop("Fives"), gettext_noop("Sixes"),
)
UPPER_DESCRIPTIONS = (
    gettext_noop("Sum of the dice showing 1."), gettext_noop("Sum of the dice showing 2."),
    gettext_noop("Sum of the dice showing 3."), gettext_noop("Sum of the dice showing 4."),
    gettext_noop("Sum of the dice showing 5."), gettext_noop("Sum of the dice showing 6."),
)


def face_sum(face: int) -> Callable[[Sequence[int]], int]:
    def score(dice: Sequence[int]) -> int:
        return face * sum(1 for d in dice if d == face)

    return score


def all_same(dice: Sequence[int]) -> bool:
    return len(set(dice)) == 1


def has_run(dice: Sequence[int], run: range) -> bool:
    return set(run) <= set(dice)


def most_of_a_kind(dice: Sequence[int]) -> int:
    return max(counts(dice))
