"""The dynamic programme for games that fix the order of the boxes (Forced Yatzy).

The state is only how many boxes are filled (which ones follows from the order) and the
capped upper total. The order itself is not written down here: it is read from ``legal()``,
which must name one and the same box for every roll of a turn.
"""

import random

import numpy as np

from .model import BoxModel, ModelError
from .turn import turn_start


class ForcedOrderSolver:
    def __init__(self, model: BoxModel) -> None:
        self.model = model
        order: list[int] = []
        points: list[list[int]] = []
        card = model.blank_card()
        for _ in range(model.n_boxes):
            named: set[str] = set()
            row = []
            for r in range(model.space.n_rolls):
                legal = model.legal(card, r)
                if len(legal) != 1:
                    raise ModelError(f"{model.ruleset.id} allows {len(legal)} boxes at once")
                ((box_id, pts),) = legal.items()
                named.add(box_id)
                row.append(pts)
            if len(named) != 1:
                raise ModelError(f"the next box depends on the dice: {sorted(named)}")
            box_id = named.pop()
            order.append(model.box_index[box_id])
            points.append(row)
            card[box_id] = 0
        self.order = tuple(order)
        self.points = np.array(points, dtype=np.int64)  # [step, roll]

    def verify(self, samples: int, seed: int = 0) -> None:
        """Compare with the engine on random real cards (with points in the filled boxes):
        the one legal box and its points, and no bonus."""
        m = self.model
        rng = random.Random(seed)
        for _ in range(samples):
            step = rng.randrange(m.n_boxes)
            card = m.blank_card()
            for b in self.order[:step]:
                card[m.box_ids[b]] = int(m.points[b, rng.randrange(m.space.n_rolls)])
            r = rng.randrange(m.space.n_rolls)
            expected = {m.box_ids[self.order[step]]: int(self.points[step, r])}
            if m.legal(card, r) != expected or m.fill_bonus(card, r, 0):
                raise ModelError(f"the engine differs for {card} and {m.dice[r]}")

    def state_index(self, card_mask: int) -> int | None:
        """The step of a card, or None when its filled boxes are not a prefix of the order."""
        step = card_mask.bit_count()
        return step if card_mask == sum(1 << b for b in self.order[:step]) else None

    def roll_values(
        self, values: np.ndarray, step: int, fs: np.ndarray, us: np.ndarray
    ) -> np.ndarray:
        """Value of ending the turn with each roll in the one box of ``step``."""
        m = self.model
        thr = m.threshold
        pts = self.points[step][:, None]
        after = values[step + 1, 0]
        if m.upper[self.order[step]]:
            new_u = np.minimum(us[None, :] + pts, thr)
            gain = pts + m.upper_bonus * ((us < thr)[None, :] & (new_u >= thr))
            return gain + after[new_u]
        return pts + after[us][None, :]

    def solve(self) -> np.ndarray:
        """Turn-start values ``[step, 0, upper total]``; every upper total is solved (the
        table is tiny), reachable or not."""
        m = self.model
        values = np.zeros((m.n_boxes + 1, 1, m.threshold + 1))
        us = np.arange(m.threshold + 1)
        fs = np.zeros_like(us)
        for step in range(m.n_boxes - 1, -1, -1):
            last = self.roll_values(values, step, fs, us)
            values[step, 0] = turn_start(m.space, last, m.rolls_per_turn)
        return values
