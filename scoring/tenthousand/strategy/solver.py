"""Ten Thousand solved: the fewest expected turns alone, the best chance of winning against
one other seat, for one ``bank_minimum`` and every target up to :data:`SOLVED_TARGET`.

The positions. Totals and turn points move in steps of 50 (every combination is worth a
multiple of 50), so everything below counts in *units* of 50. Only the distance to the
target matters, so a game with a smaller target is the game of :data:`SOLVED_TARGET` with
both totals raised by the difference: one table per bank minimum serves every target up to
it.

The turn. Before a throw of ``n`` dice with ``t`` turn points set aside, the value is
``T(t, n)``: the throw busts with probability ``bust[n]`` (worth ``L``, the value of a turn
that ends with nothing), else the player takes the best of the throw's selections, each
worth ``A(t + v, d)``: the best of throwing the ``d`` dice left (``T``), banking (allowed
from the bank minimum on) and passing (``L``). A selection that uses ``k`` of the ``n``
dice leaves ``n - k`` to throw, or all six again ("hot dice"). Turn points only grow with
each selection, so the turn is a DAG solved from high turn points down. Two selections
that leave the same number of dice compare by their points alone (more turn points is
never worse: a player with more can play exactly as one with fewer and reaches every
total no later), so a throw is reduced to its best selection per number of dice used, and
throws with the same reduced selections are one *class*, with their probabilities added.
A bank that reaches the target wins at once (the value ``C``), so once the turn points
reach ``tcap = max(target - total, bank minimum)`` the turn is won.

One seat: ``E(a)`` is the expected number of turns, this one included, from total ``a`` at
the start of a turn. Values are maximised as negative turns: ``L = -(1 + E(a))`` (a bust
costs the turn and returns to the same total), a bank of ``t`` is ``-(1 + E(a + t))``,
and ``C = -1``. ``E(a)`` depends on itself (through ``L``) and on higher totals only: a
one-dimensional fixed point per total, from the top down.

Two seats: ``W(a, b)`` is the chance to win of the seat to move at its turn's start, own
total ``a``, the other's ``b``. ``L = 1 - W(b, a)``, a bank of ``t`` is
``1 - W(b, a + t)``, ``C = 1``. A bank raises the sum ``a + b``, so the sums are solved
from the highest down, and at each sum only ``(a, b)`` and ``(b, a)`` depend on each other
(through ``L``): a fixed point of two unknowns.

The kernels are compiled by numba and release the interpreter's lock while they run, so
that a table built in a background thread of the service never stalls its requests.

The fixed points are solved by Newton's method on the piecewise-linear turn value: for
the policy that is optimal at the current guess, the turn's value is ``alpha + beta * L``
(``beta``: the chance that the turn ends with nothing), which the kernel computes along
with the value; the linear system of that policy is solved exactly, and the policy checked
again, until the values change by less than :data:`TOLERANCE` (policy iteration: a few
rounds). The tests check the values against a plain value iteration on small targets.
"""

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
from numba import njit

from ...strategy.combinatorics import sub_multisets
from ..points import DICE, POINTS_STEP, selection_value

Faces = tuple[int, ...]

SOLVED_TARGET = 10_000  # the largest target solved exactly; smaller ones are shifts of it
UNITS = SOLVED_TARGET // POINTS_STEP  # totals 0 .. UNITS - 1 in steps of 50
MOST_UNITS = 8000 // POINTS_STEP  # the most one selection scores: six 1s
TOLERANCE = 1e-12  # the fixed points stop when no value moves by more than this
ROUNDS = 60  # Newton rounds before the kernel falls back to plain iteration


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


def next_dice(thrown: int, kept: int) -> int:
    """The dice thrown next after keeping ``kept`` of ``thrown``: all six once all are used."""
    return thrown - kept or DICE


@dataclass(frozen=True)
class Classes:
    """The throws of 1 to 6 dice as classes, flattened for the kernel.

    Classes of ``n`` dice are ``start[n]`` to ``start[n + 1] - 1``; class ``c`` has
    probability ``probability[c]`` and options ``first[c]`` to ``first[c + 1] - 1``, each
    ``points[o]`` units leaving ``dice[o]`` dice to throw. ``bust[n]``: the chance that a
    throw of ``n`` dice scores nothing.
    """

    start: np.ndarray
    probability: np.ndarray
    first: np.ndarray
    points: np.ndarray
    dice: np.ndarray
    bust: np.ndarray


@cache
def classes() -> Classes:
    start, probability, first, points, dice = [0], [], [0], [], []
    bust = np.zeros(DICE + 1)
    for n in range(DICE + 1):
        grouped: dict[tuple[tuple[int, int], ...], float] = {}
        for faces, p in throws(n) if n else ():
            best: dict[int, int] = {}
            for kept, value in scoring_subsets(faces):
                left = next_dice(n, len(kept))
                best[left] = max(best.get(left, 0), value // POINTS_STEP)
            if not best:
                bust[n] += p
                continue
            key = tuple(sorted(best.items()))
            grouped[key] = grouped.get(key, 0.0) + p
        for key, p in sorted(grouped.items()):
            probability.append(p)
            for left, units in key:
                points.append(units)
                dice.append(left)
            first.append(len(points))
        start.append(len(probability))
    return Classes(
        np.array(start, dtype=np.int64), np.array(probability), np.array(first, dtype=np.int64),
        np.array(points, dtype=np.int64), np.array(dice, dtype=np.int64), bust,
    )


# -- the kernels -----------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _turn(loss, bank, cap, tcap, start, probability, first, points, dice, bust, T, BT, A, BA):
    """Fill ``T[t, n]`` (and ``A[t, d]``) for ``t`` in ``0 .. tcap + MOST_UNITS``, with
    ``BT``/``BA`` the chance that the turn then ends with nothing under the chosen policy.

    ``bank[t]`` is the value of banking ``t`` units (``-inf`` where not allowed), for
    ``t < tcap``; from ``tcap`` on every bank wins (``cap``). Ties: bank, then throw.
    """
    top = tcap + 160
    for t in range(top, tcap - 1, -1):
        for d in range(1, 7):
            A[t, d] = cap
            BA[t, d] = 0.0
            T[t, d] = bust[d] * loss + (1.0 - bust[d]) * cap
            BT[t, d] = bust[d]
    # A's rows flattened: option o of a throw at t reads A at t * 7 + offset[o].
    flat = A.reshape(-1)
    flat_ends = BA.reshape(-1)
    offset = points * 7 + dice
    for t in range(tcap - 1, -1, -1):
        base = t * 7
        for n in range(1, 7):
            value = bust[n] * loss
            ends = bust[n]
            for c in range(start[n], start[n + 1]):
                best = -np.inf
                at = 0
                for o in range(first[c], first[c + 1]):
                    here = flat[base + offset[o]]
                    if here > best:
                        best = here
                        at = base + offset[o]
                value += probability[c] * best
                ends += probability[c] * flat_ends[at]
            T[t, n] = value
            BT[t, n] = ends
        for d in range(1, 7):
            if bank[t] >= T[t, d] and bank[t] >= loss:
                A[t, d] = bank[t]
                BA[t, d] = 0.0
            elif T[t, d] >= loss:
                A[t, d] = T[t, d]
                BA[t, d] = BT[t, d]
            else:
                A[t, d] = loss
                BA[t, d] = 1.0


@njit(cache=True, nogil=True)
def _start(loss, bank, cap, tcap, start, probability, first, points, dice, bust, T, BT, A, BA):
    """The value at the turn's start (six dice to throw, or a pass) and its ``beta``."""
    _turn(loss, bank, cap, tcap, start, probability, first, points, dice, bust, T, BT, A, BA)
    if T[0, 6] >= loss:
        return T[0, 6], BT[0, 6]
    return loss, 1.0


@njit(cache=True, nogil=True)
def _solve_one(units, minimum, start, probability, first, points, dice, bust, tolerance, rounds):
    """``E[a]``: the expected turns from total ``a`` (units), for every ``a < units``."""
    size = max(units, minimum) + 161
    T = np.zeros((size, 7))
    BT = np.zeros((size, 7))
    A = np.zeros((size, 7))
    BA = np.zeros((size, 7))
    bank = np.full(size, -np.inf)
    E = np.zeros(units)
    guess = 1.0
    for a in range(units - 1, -1, -1):
        tcap = max(units - a, minimum)
        for t in range(tcap):
            bank[t] = -np.inf
            if t >= minimum:
                bank[t] = -(1.0 + E[a + t])
        e = guess
        for r in range(rounds * 20):
            value, beta = _start(
                -(1.0 + e), bank, -1.0, tcap, start, probability, first, points, dice, bust,
                T, BT, A, BA,
            )
            moved = abs(-value - e)
            if moved <= tolerance:
                e = -value
                break
            # This policy's turns are alpha + beta * e: step to its fixed point.
            e = (-value - beta * e) / (1.0 - beta) if r < rounds and beta < 1.0 else -value
        E[a] = e
        guess = e
    return E


@njit(cache=True, nogil=True)
def _solve_pair(a, b, units, minimum, W, s1, s2, work, tolerance, rounds):
    """``W[a, b]`` and ``W[b, a]`` from the higher sums already in ``W``."""
    start, probability, first, points, dice, bust = s1
    T, BT, A, BA, bank1, bank2 = work
    cap1 = max(units - a, minimum)
    cap2 = max(units - b, minimum)
    for t in range(cap1):
        bank1[t] = 1.0 - W[b, a + t] if t >= minimum else -np.inf
    for t in range(cap2):
        bank2[t] = 1.0 - W[a, b + t] if t >= minimum else -np.inf
    w1 = s2[0]
    w2 = s2[1]
    if a == b:
        w2 = w1  # one seat's chance against itself: the other's is the same unknown
    for r in range(rounds * 20):
        f1, d1 = _start(1.0 - w2, bank1, 1.0, cap1, start, probability, first, points, dice,
                        bust, T, BT, A, BA)
        if a == b:
            if abs(f1 - w1) <= tolerance:
                w1 = f1
                break
            if r < rounds:
                alpha = f1 - d1 * (1.0 - w1)
                w1 = (alpha + d1) / (1.0 + d1)
            else:
                w1 = f1
            w2 = w1
            continue
        f2, d2 = _start(1.0 - w1, bank2, 1.0, cap2, start, probability, first, points, dice,
                        bust, T, BT, A, BA)
        if abs(f1 - w1) <= tolerance and abs(f2 - w2) <= tolerance:
            w1 = f1
            w2 = f2
            break
        if r < rounds and d1 * d2 < 1.0:
            alpha1 = f1 - d1 * (1.0 - w2)
            alpha2 = f2 - d2 * (1.0 - w1)
            w1 = (alpha1 + d1 - d1 * (alpha2 + d2)) / (1.0 - d1 * d2)
            w2 = alpha2 + d2 * (1.0 - w1)
        else:
            w1 = f1
            w2 = _start(1.0 - w1, bank2, 1.0, cap2, start, probability, first, points, dice,
                        bust, T, BT, A, BA)[0]
    W[a, b] = w1
    W[b, a] = w2 if a != b else w1


@njit(cache=True, nogil=True)
def _solve_two(units, minimum, start, probability, first, points, dice, bust, tolerance, rounds):
    """``W[a, b]`` for every pair of totals below ``units``, the highest sums first."""
    size = max(units, minimum) + 161
    work = (
        np.zeros((size, 7)), np.zeros((size, 7)), np.zeros((size, 7)), np.zeros((size, 7)),
        np.full(size, -np.inf), np.full(size, -np.inf),
    )
    W = np.full((units, units), np.nan)
    tables = (start, probability, first, points, dice, bust)
    if minimum >= units:
        # Every bank wins: the totals do not matter, one pair is the whole table.
        _solve_pair(0, 0, units, minimum, W, tables, (0.5, 0.5), work, tolerance, rounds)
        W[:, :] = W[0, 0]
        return W
    for s in range(2 * units - 2, -1, -1):
        for a in range(max(0, s - units + 1), s // 2 + 1):
            b = s - a
            # Start from the neighbours one and two sums up, extrapolated to a plane (exact
            # where W is linear): the closer the guess, the likelier its policy is the
            # optimal one, and a pair then takes two rounds (solve, check) instead of three
            # (a quarter less work than starting from the nearest neighbour alone).
            if a + 1 < units and b + 1 < units:
                g1 = W[a, b + 1] + W[a + 1, b] - W[a + 1, b + 1]
                g2 = W[b, a + 1] + W[b + 1, a] - W[b + 1, a + 1]
            else:
                g1 = W[a, b + 1] if b + 1 < units else 0.5
                g2 = W[b, a + 1] if a + 1 < units else 0.5
            _solve_pair(a, b, units, minimum, W, tables, (g1, g2), work, tolerance, rounds)
    return W


def _tables() -> tuple[np.ndarray, ...]:
    c = classes()
    return c.start, c.probability, c.first, c.points, c.dice, c.bust


def solve_one(bank_minimum: int, units: int = UNITS) -> np.ndarray:
    """Expected turns alone from every total (in units of 50) below ``units``."""
    return _solve_one(units, bank_minimum // POINTS_STEP, *_tables(), TOLERANCE, ROUNDS)


def solve_two(bank_minimum: int, units: int = UNITS) -> np.ndarray:
    """The chance to win of the seat to move, ``W[own, other]``, totals in units of 50."""
    return _solve_two(units, bank_minimum // POINTS_STEP, *_tables(), TOLERANCE, ROUNDS)


# -- one turn, on demand ---------------------------------------------------------------------


@dataclass(frozen=True)
class TurnSolution:
    """The values inside one turn from one position at its start, in the kernel's terms
    (larger is better): what a hint, an advice or an analysis reads off."""

    loss: float  # a bust or a pass
    cap: float  # a bank that wins
    tcap: int  # from these turn points (units) on, every bank wins
    minimum: int  # the bank minimum in units
    bank: np.ndarray  # bank[t] for t < tcap (-inf: not allowed)
    throw: np.ndarray  # throw[t, n] for t <= tcap + MOST_UNITS

    def throw_value(self, units: int, n: int) -> float:
        """Throwing ``n`` dice holding ``units`` turn points."""
        if units < len(self.throw):
            return float(self.throw[units, n])
        bust = classes().bust[n]
        return float(bust * self.loss + (1.0 - bust) * self.cap)

    def bank_value(self, units: int) -> float | None:
        """Banking ``units`` turn points; None when the bank minimum is not reached."""
        if units < self.minimum:
            return None
        return self.cap if units >= self.tcap else float(self.bank[units])


def solve_turn(loss: float, bank: np.ndarray, cap: float, tcap: int, minimum: int) -> TurnSolution:
    """The turn of one position: ``bank`` holds the value of banking ``t`` units for
    ``t < tcap`` (``-inf`` below the minimum)."""
    size = tcap + MOST_UNITS + 1
    T, BT, A, BA = (np.zeros((size, 7)) for _ in range(4))
    _turn(loss, bank, cap, tcap, *_tables(), T, BT, A, BA)
    return TurnSolution(loss, cap, tcap, minimum, bank, T)
