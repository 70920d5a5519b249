"""What the solver knows of a ruleset: asked of the engine once, never re-implemented.

The per-roll tables come from the rulesets' own box scorers (``Box.score``), ``legal()`` and
``fill_bonus()``. Calling ``legal()`` for each of the 2^13 cards times 252 rolls would cost
tens of seconds, so the model splits the rolls in two:

* *plain* rolls (every roll that is not five of a kind): no Joker and no Yahtzee bonus
  applies, so the legal boxes are the open ones at their natural points. This is checked,
  never assumed silently: :meth:`BoxModel.verify` compares the model with the engine on
  random real cards, and the bonus tables below are asked of ``fill_bonus()`` for every roll;
* *special* rolls (five of a kind, the engine's own ``all_same``): here the solver calls
  ``legal()`` for every card it visits, so the Joker is whatever the engine says it is.

The Yahtzee bonus needs one bit of state, the *flag*: "would a further Yahtzee earn a bonus
now?". For ``unlimited`` it is "the yahtzee box holds 50"; for ``single`` it is "the box holds
50 and the bonus has not been paid yet" (once paid, the card behaves exactly like one with 0
in the box: the Joker still applies and no bonus ever comes again); for ``none`` it is always
false and the tables carry no flag at all. The model derives every flag transition from
``fill_bonus()``: a card is flagged when some five of a kind would earn a bonus on it.
"""

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...errors import ProblemCode, RuleError, gettext_noop
from ...registry import get_ruleset
from ...state import Options
from ...strategy.combinatorics import DiceSpace, dice_space
from ..boxgame import BoxGame, Card
from ..faces import all_same


@dataclass(frozen=True)
class Support:
    """How the solver treats a ruleset.

    ``order`` is ``free`` (any legal box: the state is the set of filled boxes) or ``forced``
    (``legal()`` names the one next box: the state is how many boxes are filled).
    ``flag_box`` is the box whose value decides the Yahtzee bonus, if the game has one.
    """

    order: str
    flag_box: str | None


SUPPORTED: dict[str, Support] = {
    "yahtzee": Support("free", "yahtzee"),
    "yatzy": Support("free", None),
    "forced-yatzy": Support("forced", None),
}


class ModelError(Exception):
    """The engine answered differently from what the solver's model of it predicts."""


def resolve(ruleset_id: object, options: Options | None) -> tuple[BoxGame, dict]:
    """The ruleset and its full options (defaults filled in), or a :class:`RuleError`."""
    ruleset = get_ruleset(ruleset_id)
    if ruleset.id not in SUPPORTED or not isinstance(ruleset, BoxGame):
        known = ", ".join(SUPPORTED)
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop("no strategy for {ruleset!r}; available for: {known}"),
            field="ruleset", ruleset=ruleset.id, known=known,
        )
    return ruleset, ruleset.validate_options(options)


class BoxModel:
    """Per-roll tables and engine queries for one ruleset with one set of options."""

    def __init__(self, ruleset: BoxGame, options: Options) -> None:
        self.ruleset = ruleset
        self.options = dict(options)
        self.support = SUPPORTED[ruleset.id]
        self.space: DiceSpace = dice_space(ruleset.dice)
        self.rolls_per_turn = ruleset.rolls_per_turn
        self.box_ids = tuple(box.id for box in ruleset.boxes)
        self.box_index = {box_id: b for b, box_id in enumerate(self.box_ids)}
        self.n_boxes = len(self.box_ids)
        self.full = (1 << self.n_boxes) - 1
        self.upper = np.array([box.section == "upper" for box in ruleset.boxes])
        self.upper_bits = sum(1 << b for b in range(self.n_boxes) if self.upper[b])
        self.threshold = ruleset.upper_bonus_threshold
        self.upper_bonus = ruleset.upper_bonus_points
        self.dice = [list(roll) for roll in self.space.rolls]
        self.points = np.array(
            [[box.score(dice) for dice in self.dice] for box in ruleset.boxes], dtype=np.int64
        )
        special = [r for r, dice in enumerate(self.dice) if all_same(dice)]
        self.special = np.array(special, dtype=np.intp)
        self.plain = np.setdiff1d(np.arange(self.space.n_rolls), self.special)
        # An upper box's points take few distinct values (0, f, ..., 5f): the solver works
        # on those and maps them back to rolls with one gather.
        self.upper_values: dict[int, np.ndarray] = {}
        self.upper_value_index: dict[int, np.ndarray] = {}
        for b in np.flatnonzero(self.upper):
            values, index = np.unique(self.points[b], return_inverse=True)
            self.upper_values[int(b)] = values
            self.upper_value_index[int(b)] = index.astype(np.intp)
        self._flag_cache: dict[tuple[int | None, int], int] = {}
        self._reachable: dict[int, np.ndarray] = {}
        self._init_flags()

    # -- the Yahtzee bonus flag ----------------------------------------------------------

    def _init_flags(self) -> None:
        flag_box = self.support.flag_box
        self.flag_box = None if flag_box is None else self.box_index[flag_box]
        open_card = self.blank_card()
        if any(self.fill_bonus(open_card, r, 0) for r in range(self.space.n_rolls)):
            raise ModelError("a bonus is earned on an empty card")
        if self.flag_box is None:
            self.n_flags = 1
            self.flag_points: tuple[int, ...] = (0,)
        else:
            best = int(self.points[self.flag_box].max())
            self.flag_points = (0, best)
            self.n_flags = 2 if self.flag_after(best, 0) else 1
        n_rolls = self.space.n_rolls
        self.earned = np.zeros((self.n_flags, n_rolls), dtype=np.int64)
        self.next_flag = np.zeros((self.n_flags, n_rolls), dtype=np.intp)
        for f in range(self.n_flags):
            card = self.blank_card()
            if self.flag_box is not None:
                card[self.box_ids[self.flag_box]] = self.flag_points[f]
            for r in range(n_rolls):
                self.earned[f, r] = self.fill_bonus(card, r, 0)
                self.next_flag[f, r] = self.flag_after(self.flag_points[f], self.earned[f, r])
            if self.earned[f, self.plain].any() or (self.next_flag[f, self.plain] != f).any():
                raise ModelError("a roll that is not five of a kind changes the bonus")
        # Filling the flag box itself (never with a bonus: the box was open).
        self.flag_box_next = np.zeros(n_rolls, dtype=np.intp)
        if self.flag_box is not None:
            for r in range(n_rolls):
                self.flag_box_next[r] = self.flag_after(int(self.points[self.flag_box, r]), 0)

    def flag_after(self, flag_value: int | None, bonus: int) -> int:
        """The flag of a card whose flag box holds ``flag_value``, after ``bonus`` points of
        Yahtzee bonus: 1 if some five of a kind would earn a bonus on it."""
        if self.flag_box is None:
            return 0
        key = (flag_value, int(bonus))
        if key not in self._flag_cache:
            card = self.blank_card()
            card[self.box_ids[self.flag_box]] = flag_value
            self._flag_cache[key] = self._bonus_due(card, int(bonus))
        return self._flag_cache[key]

    def _bonus_due(self, card: Card, bonus: int) -> int:
        return int(any(self.fill_bonus(card, int(r), bonus) > 0 for r in self.special))

    def flag_of(self, card: Card, bonus: int) -> int:
        """The flag of a real card: would some five of a kind earn a bonus on it now?"""
        if self.flag_box is None or self.n_flags == 1:
            return 0
        return self._bonus_due(card, bonus)

    def next_flag_for(self, f: int, r: int, b: int, points: int) -> int:
        """The flag after filling box ``b`` with ``points`` from flag ``f`` with roll ``r``."""
        if b == self.flag_box:
            return self.flag_after(points, int(self.earned[f, r]))
        return int(self.next_flag[f, r])

    # -- cards and states ----------------------------------------------------------------

    def blank_card(self) -> Card:
        return dict.fromkeys(self.box_ids)

    def card(self, mask: int, f: int) -> Card:
        """A card standing for state (``mask``, ``f``): filled boxes hold 0, except that the
        flag box holds 50 when flagged (``legal()`` looks only at which boxes are open)."""
        card = self.blank_card()
        for b in range(self.n_boxes):
            if mask >> b & 1:
                card[self.box_ids[b]] = 0
        if self.flag_box is not None and mask >> self.flag_box & 1:
            card[self.box_ids[self.flag_box]] = self.flag_points[f]
        return card

    def mask_of(self, card: Mapping[str, int | None]) -> int:
        return sum(1 << b for b, box_id in enumerate(self.box_ids) if card[box_id] is not None)

    def flags(self, mask: int) -> list[int]:
        """The flag values a state with these boxes filled can have."""
        if self.flag_box is None or self.n_flags == 1 or not mask >> self.flag_box & 1:
            return [0]
        return [0, 1]

    def reachable_upper(self, mask: int) -> np.ndarray:
        """Every capped upper total the filled upper boxes of ``mask`` can hold."""
        key = mask & self.upper_bits
        if key not in self._reachable:
            totals = {0}
            for b in range(self.n_boxes):
                if key >> b & 1:
                    totals = {
                        min(self.threshold, t + int(v))
                        for t in totals
                        for v in self.upper_values[b]
                    }
            self._reachable[key] = np.array(sorted(totals), dtype=np.intp)
        return self._reachable[key]

    def states(self, mask: int) -> tuple[np.ndarray, np.ndarray]:
        """The (flag, upper total) pairs of ``mask``, flag-major: rows of one flag are
        contiguous, which the solver relies on."""
        us = self.reachable_upper(mask)
        flags = self.flags(mask)
        fs = np.repeat(np.array(flags, dtype=np.intp), len(us))
        return fs, np.tile(us, len(flags))

    # -- engine queries ------------------------------------------------------------------

    def legal(self, card: Card, r: int) -> dict[str, int]:
        return self.ruleset.legal(card, self.dice[r], self.options)

    def fill_bonus(self, card: Card, r: int, bonus: int) -> int:
        return self.ruleset.fill_bonus(card, self.dice[r], self.options, bonus)

    def model_legal(self, mask: int, f: int, r: int) -> dict[str, int]:
        """The legal boxes as the free-order solver sees them."""
        if r in self.special_set:
            return self.legal(self.card(mask, f), r)
        return {
            self.box_ids[b]: int(self.points[b, r])
            for b in range(self.n_boxes)
            if not mask >> b & 1
        }

    @cached_property
    def special_set(self) -> frozenset[int]:
        return frozenset(int(r) for r in self.special)

    def verify(self, samples: int, seed: int = 0) -> None:
        """Compare the model with the engine on random real cards; raise on any difference.

        Cards carry real points (so a rule that looked at values would show up), bonuses
        consistent with their flag, and a third of the rolls are five of a kind.
        """
        rng = random.Random(seed)
        n_rolls = self.space.n_rolls
        for _ in range(samples):
            mask = rng.getrandbits(self.n_boxes) & self.full
            if mask == self.full:
                continue
            f = rng.choice(self.flags(mask))
            card, bonus = self._random_card(rng, mask, f)
            special = rng.random() < 1 / 3
            r = int(rng.choice(self.special)) if special else rng.randrange(n_rolls)
            legal = self.legal(card, r)
            if legal != self.model_legal(mask, f, r):
                raise ModelError(f"legal() differs for {card} and {self.dice[r]}")
            earned = self.fill_bonus(card, r, bonus)
            if earned != self.earned[f, r] or self.flag_of(card, bonus) != f:
                raise ModelError(f"fill_bonus() differs for {card} and {self.dice[r]}")
            for box_id, points in legal.items():
                after = {**card, box_id: points}
                b = self.box_index[box_id]
                if self.flag_of(after, bonus + earned) != self.next_flag_for(f, r, b, points):
                    raise ModelError(f"the bonus flag differs after {box_id} on {card}")

    def _random_card(self, rng: random.Random, mask: int, f: int) -> tuple[Card, int]:
        card = self.blank_card()
        for b in range(self.n_boxes):
            if mask >> b & 1:
                card[self.box_ids[b]] = int(self.points[b, rng.randrange(self.space.n_rolls)])
        bonus = 0
        if self.flag_box is not None and mask >> self.flag_box & 1:
            flag_id = self.box_ids[self.flag_box]
            card[flag_id] = self.flag_points[f]
            best = self.flag_points[-1]
            if f == 1 and self.flag_after(best, 100):
                bonus = 100 * rng.randrange(4)
            elif f == 0 and self.n_flags == 2 and not self.flag_after(best, 100):
                card[flag_id], bonus = best, 100  # single bonus already paid
        return card, bonus


def model_for(ruleset_id: object, options: Options | None) -> BoxModel:
    ruleset, full_options = resolve(ruleset_id, options)
    return BoxModel(ruleset, full_options)

