"""Dice and their random sources.

The engine never creates randomness itself: every throw draws from an injected source, so
tests and seeded games are deterministic and unseeded games use the operating system's
secure generator.
"""

import random
import secrets
from collections.abc import Sequence
from typing import Protocol

from .errors import RuleError

FACES = (1, 2, 3, 4, 5, 6)


class Rng(Protocol):
    def randint(self, a: int, b: int) -> int: ...


def secure_rng() -> Rng:
    """The operating system's random source, for unseeded games."""
    return secrets.SystemRandom()


def seeded_rng(seed: int, step: int) -> Rng:
    """A generator for one move of a seeded game.

    ``step`` is the game's version when the move starts, which the same moves always
    reach in the same order, so the same seed and the same moves give the same dice.
    """
    return random.Random(f"{seed}:{step}")


def throw(rng: Rng, count: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(count)]


def check_dice(dice: object, count: int) -> list[int]:
    """Validate a list of faces given by a caller (score calculator, tests)."""
    if (
        not isinstance(dice, list | tuple)
        or len(dice) != count
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        raise RuleError(
            "invalid_dice", f"dice must be a list of {count} faces from 1 to 6", field="dice"
        )
    return list(dice)


def check_indices(indices: object, count: int, *, field: str = "hold") -> list[int]:
    """Validate dice positions: distinct whole numbers from 0 to ``count - 1``."""
    if not isinstance(indices, list | tuple) or not all(type(i) is int for i in indices):
        raise RuleError("invalid_dice", f"{field} must be a list of dice positions", field=field)
    if any(not 0 <= i < count for i in indices):
        raise RuleError(
            "invalid_dice", f"dice positions run from 0 to {count - 1}", field=field
        )
    if len(set(indices)) != len(indices):
        raise RuleError("invalid_dice", f"{field} names a die more than once", field=field)
    return sorted(indices)


def counts(dice: Sequence[int]) -> list[int]:
    """How many dice show each face: ``counts(d)[f]`` for face ``f`` (index 0 unused)."""
    tally = [0] * 7
    for d in dice:
        tally[d] += 1
    return tally
