"""The dice of one turn as finite sets: the distinct rolls, the distinct keeps, and the
probabilities that link them.

Five dice are interchangeable for scoring, so a roll is a multiset (252 of them) and so is a
keep (the dice held before a reroll: 462 sub-multisets of 0 to 5 dice). Everything the
solver does per turn is a matrix product or a gather over these two index sets, so they are
computed once, here, and shared read-only.

Order matters and is relied on: keeps are sorted by size, and the keeps of all five dice come
last in exactly the order of the rolls, so ``keep index = roll index + N_PARTIAL``.
"""

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

FACES = 6

Multiset = tuple[int, ...]


@dataclass(frozen=True)
class DiceSpace:
    """Rolls, keeps and transition probabilities for ``n_dice`` six-sided dice."""

    n_dice: int
    rolls: tuple[Multiset, ...]
    keeps: tuple[Multiset, ...]
    roll_index: dict[Multiset, int]
    keep_index: dict[Multiset, int]
    # P(roll | keep) for the keeps of fewer than n_dice dice: shape (n_partial, n_rolls).
    transition: np.ndarray
    # P(roll) when nothing is held (the first roll of a turn): shape (n_rolls,).
    first_roll: np.ndarray
    # For each keep size 1..n_dice: the slice of keeps of that size and, for each of them,
    # the keeps with one die fewer (padded by repetition): the lattice the best-keep search
    # walks upwards.
    levels: tuple[tuple[slice, np.ndarray], ...]
    # For each keep size 0..n_dice-1: the slice of keeps of that size and, for each of them,
    # the six keeps with one more die (one per face of that die): the same lattice walked
    # downwards, one thrown die at a time.
    children: tuple[tuple[slice, np.ndarray], ...]

    @property
    def n_rolls(self) -> int:
        return len(self.rolls)

    @property
    def n_keeps(self) -> int:
        return len(self.keeps)

    @property
    def n_partial(self) -> int:
        """Keeps of fewer than all dice: the ones that actually throw something."""
        return self.n_keeps - self.n_rolls


def multisets(size: int) -> list[Multiset]:
    """Every sorted multiset of ``size`` faces, in lexicographic order."""
    return list(combinations_with_replacement(range(1, FACES + 1), size))


def probability(roll: Multiset, keep: Multiset) -> float:
    """P(the dice show ``roll`` after holding ``keep`` and throwing the rest)."""
    rest = Counter(roll)
    rest.subtract(keep)
    if any(count < 0 for count in rest.values()):
        return 0.0
    thrown = len(roll) - len(keep)
    ways = factorial(thrown)
    for count in rest.values():
        ways //= factorial(count)
    return ways / FACES**thrown


def sub_multisets(dice: Multiset) -> list[Multiset]:
    """Every distinct sub-multiset of ``dice`` (including the empty one and ``dice``)."""
    tally = Counter(dice)
    found: list[Multiset] = [()]
    for face in sorted(tally):
        found = [
            keep + (face,) * n for keep in found for n in range(tally[face] + 1)
        ]
    return sorted(found, key=lambda keep: (len(keep), keep))


@cache
def dice_space(n_dice: int = 5) -> DiceSpace:
    rolls = tuple(multisets(n_dice))
    keeps = tuple(keep for size in range(n_dice + 1) for keep in multisets(size))
    roll_index = {roll: i for i, roll in enumerate(rolls)}
    keep_index = {keep: i for i, keep in enumerate(keeps)}
    n_partial = len(keeps) - len(rolls)
    assert keeps[n_partial:] == rolls

    transition = np.zeros((n_partial, len(rolls)))
    for k, keep in enumerate(keeps[:n_partial]):
        for r, roll in enumerate(rolls):
            transition[k, r] = probability(roll, keep)

    levels = []
    children = []
    start = 0
    for size in range(n_dice):
        stop = start + len(multisets(size))
        grown = [
            [keep_index[tuple(sorted((*keep, face)))] for face in range(1, FACES + 1)]
            for keep in keeps[start:stop]
        ]
        children.append((slice(start, stop), np.array(grown, dtype=np.intp)))
        start = stop

    start = 1  # the empty keep is index 0 and has no parents
    for size in range(1, n_dice + 1):
        stop = start + len(multisets(size))
        parents = []
        for keep in keeps[start:stop]:
            drops = sorted({keep_index[keep[:i] + keep[i + 1:]] for i in range(size)})
            parents.append(drops)
        width = max(len(p) for p in parents)
        padded = np.array([p + [p[0]] * (width - len(p)) for p in parents], dtype=np.intp)
        levels.append((slice(start, stop), padded))
        start = stop

    return DiceSpace(
        n_dice=n_dice,
        rolls=rolls,
        keeps=keeps,
        roll_index=roll_index,
        keep_index=keep_index,
        transition=transition,
        first_roll=transition[0].copy(),
        levels=tuple(levels),
        children=tuple(children),
    )
