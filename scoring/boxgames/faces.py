"""Small facts about a set of dice, shared by the box scorers."""

from collections.abc import Callable, Sequence

from ..dice import counts

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER_NAMES = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")


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
