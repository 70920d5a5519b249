"""The ``optimal`` computer for Maxi Yatzy: a heuristic, not a solved strategy.

Maxi Yatzy has no table (20 boxes, six dice and rolls saved from turn to turn make the
exact state space far too large), so this player plans one turn exactly under a value
model of the rest of the game:

* **Filling a box** with ``p`` points is worth ``p - par(box) + bonus(box, p)``. ``par`` is
  what the box scores on average when a whole turn is spent on it alone (three rolls, best
  holds). Every box is filled exactly once, so the pars add up to the same constant in
  every game: subtracting them changes no final total, it only makes boxes comparable
  now (a 24 in ``chance`` is poor, a 24 in ``fours`` is excellent).
* **The upper bonus** (100 at 84): ``bonus`` is 100 times the change in the probability of
  reaching the threshold, with the upper boxes still open modelled as independent
  binomial counts: when its box is filled, each of the six dice shows the face with
  probability ``FACE_HIT``. A die thrown three times for one face shows it with
  probability 1 - (5/6)^3 = 0.42, but boxes get filled when the dice favour them and saved
  rolls add throws; over 300 seeded solitaire games per value, 0.55 scored best among
  0.42, 0.50, 0.55, 0.60, 0.65, 0.70 and 0.75 (mean 452 against 421 for 0.42).
* **Saved rolls**: ending the turn with ``k`` rolls unused is worth ``save(k)``, the
  value those rolls would add to the later turns, spread evenly over them: the j-th saved
  roll lands in a later turn that already has ``3 + (j - 1) // m`` rolls (``m`` later
  turns), and adds what one more roll adds to a turn with that many rolls on the current
  card (the difference of the planned turn's values with one roll more and one fewer).
  A roll is worth more the worse the dice, so this spends saved rolls when the best box
  is still weak and keeps them when the dice are already good; the last turn uses them
  all (``save`` is 0 when no turn is left). Weighting ``save`` by 0.7, 0.9 or 1.4 instead
  of 1 scored lower in the same trial.

Within the turn the plan is exact for that model: the value of dice with ``k`` rolls
left is the better of stopping (best box plus ``save(k)``) and the best hold's expected
value with ``k - 1`` rolls left, computed over every distinct roll and hold of the six
dice (:mod:`scoring.boxgames.strategy.turn`).

The model knows nothing of any particular box: it reads the engine's box scorers, so it
plays any box game; it is used for the ones without a solved table.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from ...commands import Command, Roll, Score
from ...state import BoxState, Options
from ...strategy.combinatorics import DiceSpace, dice_space, sub_multisets
from ..boxgame import BoxGame, Card
from .turn import best_keeps, keep_values, roll_on

# The chance that a die shows an open upper box's face when that box is filled (see the
# module docstring): calibrated by play, not derived.
FACE_HIT = 0.55
# Plans never look past this many rolls in one turn (more add nothing measurable).
MOST_ROLLS = 24


@dataclass(frozen=True)
class _Game:
    """What the heuristic reads of a ruleset, once."""

    space: DiceSpace
    box_ids: tuple[str, ...]
    points: np.ndarray  # (boxes, rolls): natural points of each box for each roll
    par: np.ndarray  # (boxes,): a box's mean points when one turn is spent on it alone
    face: tuple[int, ...]  # the face of each upper box, 0 for a lower box


@cache
def _game(ruleset: BoxGame) -> _Game:
    space = dice_space(ruleset.dice)
    points = np.array(
        [[box.score(roll) for roll in space.rolls] for box in ruleset.boxes], dtype=np.float64
    )
    rolls = points.T.copy()
    for _ in range(ruleset.rolls_per_turn - 1):
        rolls = roll_on(space, rolls)
    par = space.first_roll @ rolls
    face = tuple(
        _upper_face(box.id, box.score) if box.section == "upper" else 0 for box in ruleset.boxes
    )
    return _Game(space, tuple(box.id for box in ruleset.boxes), points, par, face)


def _upper_face(box_id: str, score: Callable[[Sequence[int]], int]) -> int:
    """The face an upper box counts, read from its scorer (one die of face f scores f)."""
    for face in range(1, 7):
        if score([face]) == face:
            return face
    raise ValueError(f"{box_id} counts no face")


@cache
def _count_chances(dice: int) -> tuple[float, ...]:
    """P(count = c), c = 0..dice, for a face in its own turn (binomial, see module doc)."""
    return tuple(
        comb(dice, c) * FACE_HIT**c * (1 - FACE_HIT) ** (dice - c) for c in range(dice + 1)
    )


@cache
def bonus_chance(need: int, faces: tuple[int, ...], dice: int) -> float:
    """P(the open upper boxes of ``faces`` add up to at least ``need``) under the model."""
    if need <= 0:
        return 1.0
    if not faces or need > dice * sum(faces):
        return 0.0
    face, rest = faces[0], faces[1:]
    return sum(
        p * bonus_chance(need - face * c, rest, dice)
        for c, p in enumerate(_count_chances(dice))
    )


class TurnPlan:
    """The value model of one card (see the module docstring), for one turn's decisions."""

    def __init__(self, ruleset: BoxGame, card: Card) -> None:
        game = _game(ruleset)
        self.game = game
        self.space = game.space
        self.rolls_per_turn = ruleset.rolls_per_turn
        self.open = [b for b, box_id in enumerate(game.box_ids) if card[box_id] is None]
        upper = sum(
            card[box_id] or 0 for b, box_id in enumerate(game.box_ids) if game.face[b]
        )
        need = ruleset.upper_bonus_threshold - upper
        open_faces = tuple(game.face[b] for b in self.open if game.face[b])
        before = bonus_chance(need, open_faces, ruleset.dice)
        # fill[b] for each open box: (rolls,) the value of filling it with each roll.
        self.fill: dict[int, np.ndarray] = {}
        for b in self.open:
            value = game.points[b] - game.par[b]
            face = game.face[b]
            if face:
                others = tuple(f for f in open_faces if f != face)
                change = np.array([
                    bonus_chance(need - face * c, others, ruleset.dice) - before
                    for c in range(ruleset.dice + 1)
                ])
                counts = (game.points[b] // face).astype(np.intp)
                value = value + ruleset.upper_bonus_points * change[counts]
            self.fill[b] = value
        self.stop = np.max(np.stack([self.fill[b] for b in self.open]), axis=0)
        self.later_turns = len(self.open) - 1
        self._turn_means = [float(self.space.first_roll @ self.stop)]  # 1 roll, 2 rolls...
        self._last = self.stop[:, None]
        self._save = [0.0]
        self._with_rolls = [self.stop]  # value of each roll with k rolls left
        self._keeps: list[np.ndarray | None] = [None]

    def _turn_mean(self, rolls: int) -> float:
        """The mean stop value of a turn with ``rolls`` rolls and no saving (rolls >= 1)."""
        rolls = min(rolls, MOST_ROLLS)
        while len(self._turn_means) < rolls:
            self._last = roll_on(self.space, self._last)
            self._turn_means.append(float(self.space.first_roll @ self._last[:, 0]))
        return self._turn_means[rolls - 1]

    def save(self, k: int) -> float:
        """The value of ending the turn with ``k`` rolls saved for the later turns."""
        if self.later_turns <= 0:
            return 0.0
        while len(self._save) <= k:
            j = len(self._save)
            rolls = self.rolls_per_turn + (j - 1) // self.later_turns
            gain = self._turn_mean(rolls + 1) - self._turn_mean(rolls)
            self._save.append(self._save[-1] + max(gain, 0.0))
        return self._save[k]

    def keeps(self, k: int) -> np.ndarray:
        """(keeps,) the expected value of each hold when ``k`` rolls are left (k >= 1)."""
        while len(self._with_rolls) <= k:
            left = len(self._with_rolls)
            keeps = keep_values(self.space, self._with_rolls[-1][:, None])
            self._keeps.append(keeps[:, 0].copy())
            rolled = best_keeps(self.space, keeps)[:, 0]
            self._with_rolls.append(np.maximum(self.stop + self.save(left), rolled))
        kept = self._keeps[k]
        assert kept is not None  # filled for every k >= 1 by the loop above
        return kept


def best_fill(plan: TurnPlan, ruleset: BoxGame, card: Card, dice: list[int],
              options: Options) -> str:
    """The legal box of most value under the model (the first in card order on ties)."""
    r = plan.space.roll_index[tuple(sorted(dice))]
    legal = ruleset.legal(card, dice, options)
    index = {box_id: b for b, box_id in enumerate(plan.game.box_ids)}
    return max(legal, key=lambda box_id: plan.fill[index[box_id]][r])


def maxi_move(ruleset: BoxGame, state: BoxState, options: Options) -> Command:
    """The heuristic's move for the current seat (see the module docstring)."""
    dice = state["dice"]
    if dice is None:
        return Roll()
    card = state["cards"][state["current"]]
    plan = TurnPlan(ruleset, card)
    left = ruleset.rolls_left(state)
    if left > 0:
        k = min(left, MOST_ROLLS)
        r = plan.space.roll_index[tuple(sorted(dice))]
        stop = plan.stop[r] + plan.save(k)
        keeps = plan.keeps(k)
        best_hold, best_value = None, stop
        for keep, value in _holds(plan.space, dice, keeps):
            if value > best_value + 1e-9:
                best_hold, best_value = keep, value
        if best_hold is not None:
            return Roll(hold=_positions(dice, best_hold))
    return Score(category=best_fill(plan, ruleset, card, dice, options))


def _holds(
    space: DiceSpace, dice: list[int], keeps: np.ndarray
) -> Iterator[tuple[tuple[int, ...], float]]:
    """Each distinct hold that throws at least one die, with its value."""
    for keep in sub_multisets(tuple(sorted(dice))):
        if len(keep) < len(dice):
            yield keep, float(keeps[space.keep_index[keep]])


def _positions(dice: list[int], keep: tuple[int, ...]) -> tuple[int, ...]:
    wanted = list(keep)
    held = []
    for i, face in enumerate(dice):
        if face in wanted:
            wanted.remove(face)
            held.append(i)
    return tuple(held)
