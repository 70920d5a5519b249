"""Dice and their random sources.

The engine never creates randomness itself: every throw asks an injected source, so tests
and seeded games are deterministic and unseeded games use the operating system's secure
generator.

A throw names where it happens: the seat, that seat's turn (0-based), the throw within the
turn (0-based) and the positions of the dice thrown. A :class:`DiceSource` answers with
their faces; the verifiable dice (:mod:`scoring.verifiable`) derive each face from those
coordinates. A plain :class:`Rng` (``randint``), the source of the games created before,
is still taken anywhere a source is: it draws in order and ignores the coordinates
(:class:`SequentialDice`), so those games keep exactly their dice.
"""

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from .errors import ProblemCode, RuleError, gettext_noop

FACES = (1, 2, 3, 4, 5, 6)


class Rng(Protocol):
    def randint(self, a: int, b: int) -> int: ...


def secure_rng() -> random.Random:
    """The operating system's random source, for unseeded games."""
    return secrets.SystemRandom()


def seeded_rng(seed: int, step: int) -> random.Random:
    """A generator for one move of a seeded game.

    ``step`` is the game's version when the move starts, which the same moves always
    reach in the same order, so the same seed and the same moves give the same dice.
    """
    return random.Random(f"{seed}:{step}")


class DiceSource(Protocol):
    def throw(self, seat: int, turn: int, roll: int, positions: Sequence[int]) -> list[int]:
        """The faces of the dice at ``positions`` (in that order), thrown by throw ``roll``
        of turn ``turn`` of ``seat``; dice not named are not thrown."""
        ...


@dataclass(frozen=True)
class SequentialDice:
    """An :class:`Rng`'s draws in order, one per die thrown, whatever the coordinates: the
    dice of the games created before the dice were derived from a committed secret."""

    rng: Rng

    def throw(self, seat: int, turn: int, roll: int, positions: Sequence[int]) -> list[int]:
        return [self.rng.randint(1, 6) for _ in positions]


# What the engine takes for its dice: a positional source, or an Rng drawn in order.
Dice = Rng | DiceSource


def dice_source(dice: Dice) -> DiceSource:
    # An Rng has no ``throw``. (Asked on every move: a runtime Protocol check takes about
    # 5 microseconds, this attribute test well under one.)
    return cast(DiceSource, dice) if hasattr(dice, "throw") else SequentialDice(dice)


def check_dice(dice: object, count: int) -> list[int]:
    """Validate a list of faces given by a caller (score calculator, tests)."""
    if (
        not isinstance(dice, list | tuple)
        or len(dice) != count
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        raise RuleError(
            ProblemCode.INVALID_DICE,
            gettext_noop("dice must be a list of {count} faces from 1 to 6"), field="dice",
            count=count,
        )
    return list(dice)


def check_indices(indices: object, count: int, *, field: str = "hold") -> list[int]:
    """Validate dice positions: distinct whole numbers from 0 to ``count - 1``."""
    if not isinstance(indices, list | tuple) or not all(type(i) is int for i in indices):
        raise RuleError(
            ProblemCode.INVALID_DICE, gettext_noop("{field} must be a list of dice positions"),
            field=field
        )
    if any(not 0 <= i < count for i in indices):
        raise RuleError(
            ProblemCode.INVALID_DICE, gettext_noop("dice positions run from 0 to {last}"),
            field=field, last=count - 1
        )
    if len(set(indices)) != len(indices):
        raise RuleError(
            ProblemCode.INVALID_DICE, gettext_noop("{field} names a die more than once"),
            field=field,
        )
    return sorted(indices)


def counts(dice: Sequence[int]) -> list[int]:
    """How many dice show each face: ``counts(d)[f]`` for face ``f`` (index 0 unused)."""
    tally = [0] * 7
    for d in dice:
        tally[d] += 1
    return tally
