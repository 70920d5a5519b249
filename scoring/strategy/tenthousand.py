"""Computer players for Ten Thousand (``rules/ten-thousand.md``): four levels, each a pure
function from the game state to the next move of the current seat.

``random``
    Sets aside a random scoring selection of the last throw (every scoring sub-multiset
    equally likely), then banks with probability 1/2 when banking is allowed, else throws.
    It never passes: a pass only loses what the turn holds.
``greedy``
    Takes every scoring die of each throw and banks as soon as the rules allow (also when
    all six dice are used: unlike ``classic`` it does not chase hot dice).
``classic``
    The rule text's defensive player, exactly: see :func:`classic_combinations` and
    :func:`classic_move`.
``optimal``
    Maximises the expected points banked this turn, by a dynamic programme over
    (dice left to throw, turn points): see :class:`TurnValues`. One documented exception,
    outside the single-turn model: when banking now reaches the target and the game has no
    final round, banking wins the game at once, so it banks.

A move is a command of :mod:`scoring.commands`: ``Roll()`` for the turn's first throw,
``Roll(set_aside=...)`` to set dice aside and throw the rest, ``Bank(set_aside=...)``, and
``Pass()``. Positions count among all six dice, as in the state.
"""

import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement
from math import factorial
from typing import Any, Protocol

import numpy as np

from ..commands import Bank, Command, Pass, Roll
from ..tenthousand import DICE, POINTS_STEP, scoring_positions, selection_value
from .combinatorics import sub_multisets

Faces = tuple[int, ...]

# The DP solves turn points up to the bank minimum plus this margin and assumes a bank
# beyond it. Justification: banking beats a further throw of n dice once the points at
# risk, p_bust(n) * t, exceed what the throw is expected to add. Six dice, the safest throw,
# bust with probability 0.0309 and add about 380 points on average (more with hot dice
# chained in), so the break-even is a little above 10 000; the solved values put it at
# 11 900 points with the default bank minimum, and fewer dice bank far earlier (the tests
# check that every n banks from there on). 50 000 above the bank minimum is four times
# that, and a turn that reaches it is far too rare to move any value a player reads.
CAP_MARGIN = 50_000


class PlayerRng(Protocol):
    def random(self) -> float: ...
    def choice(self, seq: Sequence[Any]) -> Any: ...
    def randint(self, a: int, b: int) -> int: ...


# -- the turn as the players see it --------------------------------------------------------


def free_positions(state: Mapping[str, Any]) -> list[int]:
    """The positions of the last throw's dice (those not set aside earlier in the turn)."""
    return [i for i, aside in enumerate(state["set_aside"]) if not aside]


def positions_of(dice: Sequence[int], free: Sequence[int], kept: Sequence[int]) -> list[int]:
    """Positions (among ``free``) of dice showing the multiset ``kept``, ascending."""
    wanted = Counter(kept)
    chosen = []
    for position in free:
        face = dice[position]
        if wanted[face] > 0:
            wanted[face] -= 1
            chosen.append(position)
    if +wanted:
        raise ValueError(f"the free dice do not hold {sorted(kept)}")
    return chosen


@cache
def scoring_subsets(faces: Faces) -> tuple[tuple[Faces, int], ...]:
    """Every distinct scoring sub-multiset of a throw (sorted faces) and its value.

    Cached: there are only 923 distinct throws of one to six dice.
    """
    found = []
    for kept in sub_multisets(faces):
        if kept:
            value = selection_value(kept)
            if value is not None:
                found.append((kept, value))
    return tuple(found)


# -- the dynamic programme -----------------------------------------------------------------


@cache
def throws(n: int) -> tuple[tuple[Faces, float], ...]:
    """Every distinct throw of ``n`` dice (sorted faces) with its probability."""
    result = []
    for faces in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n)
        for count in Counter(faces).values():
            ways //= factorial(count)
        result.append((faces, ways / 6**n))
    return tuple(result)


@dataclass(frozen=True)
class _Transitions:
    """For throws of ``n`` dice, flattened for numpy: every scoring throw's options."""

    probability: np.ndarray  # (scoring throws,)
    starts: np.ndarray  # (scoring throws,) first option of each throw
    step: np.ndarray  # (options,) points of the option in grid steps of 50
    next_dice: np.ndarray  # (options,) dice thrown next if the turn goes on (6: hot dice)


@cache
def _transitions(n: int) -> _Transitions:
    probability, starts, step, next_dice = [], [], [], []
    for faces, p in throws(n):
        options = {
            (value // POINTS_STEP, n - len(kept) or DICE) for kept, value in scoring_subsets(faces)
        }
        if not options:
            continue  # a bust: the turn ends with nothing
        probability.append(p)
        starts.append(len(step))
        for s, d in sorted(options):
            step.append(s)
            next_dice.append(d)
    return _Transitions(
        np.array(probability), np.array(starts, dtype=np.intp),
        np.array(step, dtype=np.intp), np.array(next_dice, dtype=np.intp),
    )


class TurnValues:
    """The solved values of a Ten Thousand turn for one ``bank_minimum``.

    ``throw_value(n, t)`` is the expected number of points the turn finally banks, playing
    optimally from the moment ``n`` dice (1 to 6) are about to be thrown with ``t`` points
    already set aside this turn (a bust banks 0). ``after_value(n, t)`` is the value right
    after setting aside, when the turn holds ``t`` and ``n`` dice are free (0: hot dice):
    the better of banking ``t`` (when ``t`` reaches the bank minimum) and throwing on.

    The recursion: ``throw_value(n, t)`` is the sum over the throws of ``n`` dice of their
    probability times the best, over the throw's scoring selections (value ``v``, ``k``
    dice), of ``after_value(n - k, t + v)``. Every selection adds at least 50 points, so
    solving the grid of turn points (steps of 50) from the top down finds each value's
    successors already solved. Above ``cap`` the turn is assumed to bank (see
    ``CAP_MARGIN``).
    """

    def __init__(self, bank_minimum: int) -> None:
        if bank_minimum < 0 or bank_minimum % POINTS_STEP:
            raise ValueError("bank_minimum is a whole multiple of 50 from 0")
        self.bank_minimum = bank_minimum
        self.cap = bank_minimum + CAP_MARGIN
        top = self.cap // POINTS_STEP
        most = max(int(_transitions(n).step.max()) for n in range(1, DICE + 1))
        width = top + most + 1
        points = np.arange(width, dtype=np.float64) * POINTS_STEP
        bank = np.where(points >= bank_minimum, points, -np.inf)
        # throw[n, i]: throw_value(n, 50 i); after[n, i]: after_value(n, 50 i), n = 0 is
        # hot dice (throw six again). Above the cap: bank.
        throw = np.zeros((DICE + 1, width))
        after = np.zeros((DICE + 1, width))
        throw[:, top + 1 :] = points[top + 1 :]
        after[:, top + 1 :] = points[top + 1 :]
        moves = [_transitions(n) for n in range(1, DICE + 1)]
        for i in range(top, -1, -1):
            for n, move in enumerate(moves, start=1):
                reached = after[move.next_dice, i + move.step]
                best = np.maximum.reduceat(reached, move.starts)
                throw[n, i] = float(best @ move.probability)
            throw[0, i] = throw[DICE, i]
            after[:, i] = np.maximum(throw[:, i], bank[i])
        self._throw = throw
        self._after = after
        self._top = top

    def throw_value(self, n: int, points: int) -> float:
        """Expected banked points when ``n`` dice (0 counts as six) are about to be thrown."""
        i = points // POINTS_STEP
        return float(points) if i > self._top else float(self._throw[n, i])

    def after_value(self, n: int, points: int) -> float:
        """Expected banked points after setting aside, ``n`` dice free (0: hot dice)."""
        i = points // POINTS_STEP
        return float(points) if i > self._top else float(self._after[n, i])

    def banks(self, n: int, points: int) -> bool:
        """Whether the optimal player banks ``points`` with ``n`` dice free (ties bank)."""
        return points >= self.bank_minimum and points >= self.throw_value(n, points)

    @property
    def start(self) -> float:
        """The expected points of a whole turn under optimal play."""
        return self.throw_value(DICE, 0)


_solve_lock = threading.Lock()


@lru_cache(maxsize=8)  # one table per bank_minimum in use; a few MB each
def _turn_values(bank_minimum: int) -> TurnValues:
    return TurnValues(bank_minimum)


def turn_values(bank_minimum: int) -> TurnValues:
    """The solved turn for this bank minimum, solved once per process (tens of ms)."""
    with _solve_lock:
        return _turn_values(bank_minimum)


# -- the levels ----------------------------------------------------------------------------


def _turn(state: Mapping[str, Any]) -> tuple[list[int], list[int], int]:
    """(dice, free positions, turn points) of a turn after at least one throw."""
    return state["dice"], free_positions(state), state["turn_points"]


def _end(
    bank: bool, positions: Sequence[int], points: int, options: Mapping[str, Any]
) -> Command:
    """Set ``positions`` aside and bank (when ``bank``) or throw on, checked against the one
    rule a player's wish could break: a bank below the minimum becomes a throw."""
    if bank and points >= options["bank_minimum"]:
        return Bank(set_aside=tuple(positions))
    return Roll(set_aside=tuple(positions))


def random_move(
    state: Mapping[str, Any], options: Mapping[str, Any], rng: PlayerRng
) -> Command:
    """A random legal move: a random scoring selection, then bank or throw at random."""
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = [dice[p] for p in free]
    chosen = [
        [free[i] for i in subset]
        for size in range(1, len(free) + 1)
        for subset in combinations(range(len(free)), size)
        if selection_value([faces[i] for i in subset]) is not None
    ]
    if not chosen:
        return Pass()  # no legal state gets here: the engine ends a bust itself
    positions = rng.choice(chosen)
    points = turn_points + (selection_value([dice[p] for p in positions]) or 0)
    return _end(rng.random() < 0.5, positions, points, options)


def greedy_move(state: Mapping[str, Any], options: Mapping[str, Any]) -> Command:
    """Every scoring die; bank as soon as the turn score allows it."""
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = [dice[p] for p in free]
    positions = [free[i] for i in scoring_positions(faces)]
    if not positions:
        return Pass()
    points = turn_points + (selection_value([dice[p] for p in positions]) or 0)
    return _end(True, positions, points, options)


def classic_combinations(faces: Sequence[int]) -> list[list[int]]:
    """The combinations the classic player sets aside from a throw, in its order, as
    positions into ``faces`` (the free dice of the throw).

    1-2-3-4-5-6 if thrown; otherwise the largest of-a-kind first (six, five, four, three
    of one face; among equal counts 1s first, then 6, 5, 4, 3, 2), repeated while any
    remains; then each single 1, then each single 5. With six dice a face shows at most
    six times, so after one group of three or more no second group of that face can
    remain; a second group can only be of another face.
    """
    if len(faces) == DICE and sorted(faces) == [1, 2, 3, 4, 5, 6]:
        return [list(range(DICE))]
    left = {face: [p for p, f in enumerate(faces) if f == face] for face in range(1, 7)}
    preference = (1, 6, 5, 4, 3, 2)
    combinations_: list[list[int]] = []
    while True:
        largest = max(len(left[face]) for face in preference)
        if largest < 3:
            break
        face = next(face for face in preference if len(left[face]) == largest)
        combinations_.append(left[face])
        left[face] = []
    for face in (1, 5):
        combinations_.extend([p] for p in left[face])
    return combinations_


def classic_move(state: Mapping[str, Any], options: Mapping[str, Any]) -> Command:
    """The rule text's classic player.

    After a throw it sets aside everything :func:`classic_combinations` finds (the engine
    takes one selection per move, so the combinations go in one ``set_aside``). Then: all
    six dice used: throw all six again; else bank when the turn score is at least the
    game's ``bank_minimum``, else throw the free dice again. The rule text's "350" is read
    as the bank minimum: the same paragraph's rules state 350 as the bank minimum (option
    ``bank_minimum``), and this defensive player banks at the first chance the rules give
    (with the default options the two readings are the same player).
    """
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = [dice[p] for p in free]
    chosen = sorted(free[i] for combo in classic_combinations(faces) for i in combo)
    if not chosen:
        return Pass()
    points = turn_points + (selection_value([dice[p] for p in chosen]) or 0)
    if len(chosen) == len(free):
        return Roll(set_aside=tuple(chosen))
    return _end(True, chosen, points, options)


def optimal_move(state: Mapping[str, Any], options: Mapping[str, Any]) -> Command:
    """The move of the turn's dynamic programme (see :class:`TurnValues`).

    Over every distinct scoring selection of the throw it compares banking (when allowed)
    and throwing the dice left, and takes the best expected banked points; ties go to
    banking, then to the selection worth more now. Exception: a bank that reaches the
    target without a final round wins the game at once, so it is taken.
    """
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = tuple(sorted(dice[p] for p in free))
    values = turn_values(options["bank_minimum"])
    seat = state["current"]
    to_win = None if options["final_round"] else options["target"] - state["totals"][seat]
    best: tuple[float, int, int, Faces, type[Bank | Roll]] | None = None
    for kept, value in scoring_subsets(faces):
        points = turn_points + value
        left = len(faces) - len(kept)
        allowed = points >= values.bank_minimum
        if allowed and to_win is not None and points >= to_win:
            candidate = (float("inf"), 1, value, kept, Bank)  # a win: no value is higher
            if best is None or candidate[:3] > best[:3]:
                best = candidate
            continue
        throw = values.throw_value(left or DICE, points)
        if allowed and points >= throw:
            candidate = (float(points), 1, value, kept, Bank)
        else:
            candidate = (throw, 0, value, kept, Roll)
        if best is None or candidate[:3] > best[:3]:
            best = candidate
    if best is None:
        return Pass()
    _, _, _, kept, command = best
    return command(set_aside=tuple(positions_of(dice, free, kept)))


TEN_THOUSAND_LEVELS = ("random", "greedy", "classic", "optimal")


def ten_thousand_move(
    state: Mapping[str, Any], *, level: str, options: Mapping[str, Any], rng: PlayerRng
) -> Command:
    """The next move of the current seat at ``level`` (one of :data:`TEN_THOUSAND_LEVELS`)."""
    if level == "random":
        return random_move(state, options, rng)
    if level == "greedy":
        return greedy_move(state, options)
    if level == "classic":
        return classic_move(state, options)
    if level == "optimal":
        return optimal_move(state, options)
    raise ValueError(f"ten-thousand has no computer level {level!r}")
