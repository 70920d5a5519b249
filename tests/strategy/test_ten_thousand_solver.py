"""The Ten Thousand solver against a plain, independent solution of small games.

The brute force below knows only the rule text's turn: it enumerates every ordered throw
of ``n`` dice, every subset of its positions that scores (valued by the engine's
``selection_value``), and every choice after it (throw on, bank, pass), and runs value
iteration over every position of the whole game at once until nothing moves. None of the
solver's shortcuts are used: no classes of throws, no dominance between selections, no
ordering of the positions, no Newton steps.
"""

from collections import Counter
from functools import cache
from itertools import combinations, product

import numpy as np
import pytest

from scoring.tenthousand.points import DICE, can_score, selection_value
from scoring.tenthousand.strategy.solver import classes, solve_one, solve_two

STEP = 50


@cache
def outcomes(n: int) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Every throw of ``n`` dice: (probability, its choices as (points, dice thrown next));
    an empty tuple of choices is a bust. The 6^n ordered throws are counted one by one; the
    choices of each are found by trying every subset of its positions."""
    seen = Counter(tuple(sorted(throw)) for throw in product(range(1, 7), repeat=n))
    merged: Counter[tuple[tuple[int, int], ...]] = Counter()
    for throw, ways in seen.items():
        choices = set()
        for size in range(1, n + 1):
            for positions in combinations(range(n), size):
                points = selection_value([throw[p] for p in positions])
                if points is not None:
                    choices.add((points // STEP, n - size if size < n else DICE))
        merged[tuple(sorted(choices))] += ways
    return tuple((ways / 6**n, choices) for choices, ways in merged.items())


def brute_two(target: int, minimum: int) -> np.ndarray:
    """``W[a, b]`` by value iteration over (own, other, turn points, dice to throw)."""
    units, low = target // STEP, minimum // STEP
    start = np.full((units, units), 0.5)

    def throw_value(a: int, b: int, t: int, n: int, view: np.ndarray) -> float:
        lost = 1 - view[b, a]
        total = 0.0
        for p, choices in outcomes(n):
            if not choices:
                total += p * lost
                continue
            best = lost  # a pass
            for points, dice in choices:
                after = t + points
                if after >= low:  # a bank
                    best = max(best, 1.0 if a + after >= units else 1 - view[b, a + after])
                best = max(best, inside(a, b, after, dice, view))
            total += p * best
        return total

    inside_memo: dict[tuple[int, int, int, int], float] = {}

    def inside(a: int, b: int, t: int, n: int, view: np.ndarray) -> float:
        if t >= max(units - a, low):  # a bank here wins: nothing does better
            return 1.0
        key = (a, b, t, n)
        if key not in inside_memo:
            inside_memo[key] = throw_value(a, b, t, n, view)
        return inside_memo[key]

    for _ in range(500):
        inside_memo.clear()
        after = np.array([
            [max(throw_value(a, b, 0, DICE, start), 1 - start[b, a]) for b in range(units)]
            for a in range(units)
        ])
        moved = np.abs(after - start).max()
        start = after
        if moved < 1e-13:
            return start
    raise AssertionError("value iteration did not settle")


def brute_one(target: int, minimum: int) -> np.ndarray:
    """``E[a]``: expected turns alone, by value iteration (minimising turns)."""
    units, low = target // STEP, minimum // STEP
    start = np.zeros(units)

    memo: dict[tuple[int, int, int], float] = {}

    def throw_value(a: int, t: int, n: int) -> float:
        key = (a, t, n)
        if key in memo:
            return memo[key]
        lost = 1 + start[a]
        total = 0.0
        for p, choices in outcomes(n):
            best = lost
            for points, dice in choices:
                after = t + points
                if after >= max(units - a, low):
                    best = 1.0
                    continue
                if after >= low:
                    best = min(best, 1 + start[a + after])
                best = min(best, throw_value(a, after, dice))
            total += p * best
        memo[key] = total
        return total

    for _ in range(2000):
        memo.clear()
        after = np.array([min(throw_value(a, 0, DICE), 1 + start[a]) for a in range(units)])
        moved = np.abs(after - start).max()
        start = after
        if moved < 1e-12:
            return start
    raise AssertionError("value iteration did not settle")


def test_the_classes_hold_every_throw_and_its_bust_chance() -> None:
    c = classes()
    for n in range(1, DICE + 1):
        busts = sum(not can_score(list(throw)) for throw in product(range(1, 7), repeat=n))
        assert c.bust[n] == pytest.approx(busts / 6**n, abs=1e-15)
        held = c.probability[c.start[n]:c.start[n + 1]].sum()
        assert held + c.bust[n] == pytest.approx(1.0, abs=1e-12)
    assert c.bust[1] == pytest.approx(4 / 6)  # only a 1 or a 5 scores alone


@pytest.mark.parametrize(("target", "minimum"), [(150, 0), (150, 100), (200, 50), (150, 350)])
def test_two_seats_match_a_plain_value_iteration(target: int, minimum: int) -> None:
    solved = solve_two(minimum, target // STEP)
    assert np.abs(solved - brute_two(target, minimum)).max() < 1e-9


@pytest.mark.parametrize(("target", "minimum"), [(300, 0), (400, 150), (250, 350)])
def test_one_seat_matches_a_plain_value_iteration(target: int, minimum: int) -> None:
    solved = solve_one(minimum, target // STEP)
    assert np.abs(solved - brute_one(target, minimum)).max() < 1e-9


def test_a_smaller_target_is_the_same_game_nearer_its_end() -> None:
    """Only the distance to the target matters: one table serves every smaller target."""
    near, far = solve_two(350, 6), solve_two(350, 10)
    assert np.abs(far[4:, 4:] - near).max() < 1e-12
    assert np.abs(solve_one(350, 10)[4:] - solve_one(350, 6)).max() < 1e-12


def test_the_first_to_throw_is_favoured_and_a_lead_helps() -> None:
    w = solve_two(350, 40)
    assert 0.5 < w[0, 0] < 0.6
    assert (np.diff(w, axis=0) >= -1e-12).all()  # more of one's own points: never worse
    assert (np.diff(w, axis=1) <= 1e-12).all()  # more of the other's: never better


def test_from_a_bank_minimum_of_the_target_on_every_bank_wins_and_totals_do_not_matter() -> None:
    from scoring.tenthousand.strategy.tables import every_bank_wins

    tables = every_bank_wins(10_000)
    assert tables.path is None  # solved in memory: no file per bank minimum
    assert np.ptp(tables.two) == 0 and np.ptp(tables.one) == 0
    assert np.abs(solve_two(10_000, 3) - tables.two[0, 0]).max() < 1e-12
    assert 0.5 < tables.two[0, 0] < 0.51  # the first to throw has the first chance
