"""The dynamic programme for games where any open box may be filled (Yahtzee, Yatzy).

A turn-start state is (filled boxes as a bit mask, flag, capped upper total). Filling a box
only ever adds a bit, so sweeping the masks from the full card down to the empty one finds
every successor already solved. Per mask, all its (flag, upper total) states are solved at
once: one column each in the ``(n_rolls, S)`` arrays of :mod:`.turn`. Only the upper totals
the filled upper boxes can actually make are solved; the others stay NaN, which also makes
any read of an impossible successor visible.

Values are of the points still to come: box points, the upper bonus when the capped upper
total reaches the threshold with this fill, and the Yahtzee bonus a fill earns.
"""

from dataclasses import dataclass

import numpy as np

from .model import BoxModel, ModelError
from .turn import turn_start


@dataclass(frozen=True)
class _Boxes:
    """Open boxes of one kind, stacked so that one numpy call handles them all."""

    bits: np.ndarray  # (n,) the bit each box adds to the mask
    points: np.ndarray  # lower boxes: (n, n_rolls) points; upper boxes: (V,) their values
    value_bits: np.ndarray  # upper boxes: (V,) the bit of the box each value belongs to
    value_rows: np.ndarray  # upper boxes: (n, n_rolls) the value row of each roll


class FreeOrderSolver:
    """Values of the last roll of a turn, and the sweep over all cards, for one model."""

    def __init__(self, model: BoxModel) -> None:
        self.model = model
        self._layouts: dict[tuple[bool, int], _Boxes] = {}
        self.natural = {
            int(r): {box_id: int(model.points[b, r]) for b, box_id in enumerate(model.box_ids)}
            for r in model.special
        }

    def verify(self, samples: int, seed: int = 0) -> None:
        self.model.verify(samples, seed)

    def state_index(self, card_mask: int) -> int | None:
        """The table row of a card: its mask itself (every mask is a state)."""
        return card_mask

    def _layout(self, upper: bool, open_bits: int) -> _Boxes:
        key = (upper, open_bits)
        if key not in self._layouts:
            m = self.model
            boxes = [b for b in range(m.n_boxes) if open_bits >> b & 1]
            bits = np.array([1 << b for b in boxes], dtype=np.intp)
            if upper and boxes:
                values = [m.upper_values[b] for b in boxes]
                offsets = np.cumsum([0] + [len(v) for v in values])[:-1]
                layout = _Boxes(
                    bits=bits,
                    points=np.concatenate(values),
                    value_bits=np.repeat(bits, [len(v) for v in values]),
                    value_rows=np.array(
                        [m.upper_value_index[b] + o for b, o in zip(boxes, offsets, strict=True)]
                    ),
                )
            else:
                empty = np.zeros(0, dtype=np.intp)
                layout = _Boxes(bits, m.points[boxes], empty, empty)
            self._layouts[key] = layout
        return self._layouts[key]

    def roll_values(
        self, values: np.ndarray, mask: int, fs: np.ndarray, us: np.ndarray
    ) -> np.ndarray:
        """Value of ending the turn with each roll (best legal box), for states
        ``(mask, fs, us)``: shape ``(n_rolls, len(fs))``.

        Plain rolls take every open box at its natural points; the five-of-a-kind rows
        where the engine says otherwise are then overwritten with its ``legal()`` and
        ``fill_bonus()`` on this very card.
        """
        m = self.model
        thr = m.threshold
        open_bits = m.full & ~mask
        flag_bit = 0 if m.flag_box is None else 1 << m.flag_box
        out = np.full((m.space.n_rolls, len(fs)), -np.inf)

        upper = self._layout(True, open_bits & m.upper_bits)
        if len(upper.bits):
            new_u = np.minimum(us[None, :] + upper.points[:, None], thr)
            gain = upper.points[:, None] + m.upper_bonus * ((us < thr)[None, :] & (new_u >= thr))
            after = values[(mask | upper.value_bits)[:, None], fs[None, :], new_u]
            np.max((gain + after)[upper.value_rows], axis=0, out=out)

        lower = self._layout(False, open_bits & ~m.upper_bits & ~flag_bit)
        if len(lower.bits):
            after = values[(mask | lower.bits)[:, None], fs[None, :], us[None, :]]
            best = (lower.points[:, :, None] + after[:, None, :]).max(axis=0)
            np.maximum(out, best, out=out)

        if open_bits & flag_bit:
            after = values[mask | flag_bit][m.flag_box_next[:, None], us[None, :]]
            np.maximum(out, m.points[m.flag_box][:, None] + after, out=out)

        self._special_rows(values, mask, fs, us, out)
        return out

    def _special_rows(
        self, values: np.ndarray, mask: int, fs: np.ndarray, us: np.ndarray, out: np.ndarray
    ) -> None:
        """Overwrite the five-of-a-kind rows where the Joker or a bonus changes the turn."""
        m = self.model
        thr = m.threshold
        open_ids = {m.box_ids[b] for b in range(m.n_boxes) if not mask >> b & 1}
        for flag in np.unique(fs):
            f = int(flag)
            card = m.card(mask, f)
            rows: list[int] = []
            masks: list[int] = []
            flags: list[int] = []
            points: list[int] = []
            gains: list[int] = []
            upper: list[bool] = []
            starts: list[int] = []
            for roll in m.special:
                r = int(roll)
                legal = m.legal(card, r)
                earned = int(m.earned[f, r])
                natural = self.natural[r]
                if (
                    not earned
                    and m.next_flag[f, r] == f
                    and legal.keys() == open_ids
                    and all(natural[box_id] == pts for box_id, pts in legal.items())
                ):
                    continue  # the plain computation already got this row right
                if not legal:
                    raise ModelError(f"no legal box for {m.dice[r]} on {card}")
                rows.append(r)
                starts.append(len(masks))
                for box_id, pts in legal.items():
                    b = m.box_index[box_id]
                    masks.append(mask | 1 << b)
                    flags.append(m.next_flag_for(f, r, b, pts))
                    points.append(pts)
                    gains.append(pts + earned)
                    upper.append(m.upper[b])
            if not rows:
                continue
            cols = np.flatnonzero(fs == f)
            u = us[cols][None, :]
            up = np.array(upper)[:, None]
            new_u = np.where(up, np.minimum(u + np.array(points)[:, None], thr), u)
            bonus = m.upper_bonus * (up & (u < thr) & (new_u >= thr))
            future = values[np.array(masks)[:, None], np.array(flags)[:, None], new_u]
            best = np.maximum.reduceat(np.array(gains)[:, None] + bonus + future, starts, axis=0)
            out[np.array(rows)[:, None], cols[None, :]] = best

    def solve(self, base_mask: int = 0) -> np.ndarray:
        """Turn-start values ``[mask, flag, upper total]`` for every card containing
        ``base_mask`` (all cards by default; a fuller ``base_mask`` solves a small corner of
        the game, which the tests use). Unsolved or impossible states are NaN.

        Cards with the same number of filled boxes never lead to one another, so a layer's
        cards are solved in batches of about ``BATCH_STATES`` columns: per-call overhead
        shrinks while the arrays still fit the CPU caches (measured best at 150-300).
        """
        m = self.model
        values = np.full((m.full + 1, m.n_flags, m.threshold + 1), np.nan)
        fs, us = m.states(m.full)
        values[m.full, fs, us] = 0.0
        for layer in _layers(m.full & ~base_mask, base_mask):
            batch: list[tuple[int, np.ndarray, np.ndarray]] = []
            width = 0
            for i, mask in enumerate(layer):
                fs, us = m.states(mask)
                batch.append((mask, fs, us))
                width += len(fs)
                if width >= BATCH_STATES or i == len(layer) - 1:
                    self._solve_batch(values, batch)
                    batch, width = [], 0
        return values

    def _solve_batch(
        self, values: np.ndarray, batch: list[tuple[int, np.ndarray, np.ndarray]]
    ) -> None:
        last = np.concatenate(
            [self.roll_values(values, mask, fs, us) for mask, fs, us in batch], axis=1
        )
        start = turn_start(self.model.space, last, self.model.rolls_per_turn)
        if np.isnan(start).any():
            raise ModelError("an impossible successor state was reached")
        column = 0
        for mask, fs, us in batch:
            values[mask, fs, us] = start[column : column + len(fs)]
            column += len(fs)


BATCH_STATES = 200


def _layers(free: int, base_mask: int) -> list[list[int]]:
    """The cards containing ``base_mask`` (and only boxes of ``free`` besides), except the
    full one, grouped by how many boxes are filled, fullest first."""
    layers: dict[int, list[int]] = {}
    sub = free
    while sub:
        sub = (sub - 1) & free
        mask = base_mask | sub
        layers.setdefault(mask.bit_count(), []).append(mask)
    return [layers[count] for count in sorted(layers, reverse=True)]
