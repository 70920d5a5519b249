"""One turn of rolling, vectorised over many game states at once.

Values flow backwards through a turn. Given, for every roll, the value of stopping with it
(shape ``(n_rolls, S)``: one column per game state), a keep is worth the probability-weighted
mean of the rolls it can lead to, and a roll is worth its best keep. Rolls are rows so that
every gather below copies whole contiguous rows of ``S`` values.

The keep values are what the 462x252 transition matrix of :mod:`.combinatorics` gives, but
computed one thrown die at a time (a keep of n dice is worth the mean, over the six faces of
one more die, of the keeps of n + 1 dice): 210 x 6 additions per state instead of a 210 x 252
matrix product. Measured, that is twice as fast as single-threaded BLAS at the sizes used
here, and it keeps multi-threaded BLAS (whose idle threads spin and slowed the other numpy
calls) out of the solver's loop altogether.
"""

import numpy as np

from ...strategy.combinatorics import FACES, DiceSpace


def keep_values(space: DiceSpace, rolls: np.ndarray) -> np.ndarray:
    """Expected value of each keep, given the value of each roll one throw later.

    A keep of all the dice throws nothing: it is worth exactly its own roll.
    """
    keeps = np.empty((space.n_keeps, rolls.shape[1]), dtype=np.float64)
    keeps[space.n_partial :] = rolls
    for level, children in reversed(space.children):
        total = keeps[level]
        np.add(keeps[children[:, 0]], keeps[children[:, 1]], out=total)
        for column in children.T[2:]:
            total += keeps[column]
        total *= 1 / FACES
    return keeps


def best_keeps(space: DiceSpace, keeps: np.ndarray) -> np.ndarray:
    """Value of each roll when the player holds its best sub-multiset (in place on ``keeps``).

    Rather than compare up to 32 sub-multisets per roll, climb the lattice by size: the best
    keep inside a multiset is either itself or the best keep inside one of the multisets one
    die smaller, which the previous level has already settled.
    """
    for level, parents in space.levels:
        best = keeps[level]
        for column in parents.T:
            np.maximum(best, keeps[column], out=best)
    return keeps[space.n_partial :]


def roll_on(space: DiceSpace, rolls: np.ndarray) -> np.ndarray:
    """Value of each roll with one more throw allowed, from its value with one fewer."""
    return best_keeps(space, keep_values(space, rolls))


def turn_start(space: DiceSpace, last: np.ndarray, rolls_per_turn: int) -> np.ndarray:
    """Value of each state before the first roll, from the values after the last roll."""
    rolls = last
    for _ in range(rolls_per_turn - 1):
        rolls = roll_on(space, rolls)
    return (space.first_roll[:, None] * rolls).sum(axis=0)
