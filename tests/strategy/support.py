"""Small solved corners of a game, for fast tests.

A full Yahtzee table takes seconds to solve; the positions the tests look at have most
boxes filled, and only the cards that contain those filled boxes matter to them. The
free-order solver can solve exactly that corner (``base_mask``), in milliseconds.
"""

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from scoring.boxgames.strategy import Strategy, Table
from scoring.boxgames.strategy.model import BoxModel, resolve
from scoring.boxgames.strategy.table import solver_for

YAHTZEE_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
YAHTZEE_LOWER = (
    "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
    "yahtzee", "chance",
)


def card_with(open_boxes: tuple[str, ...], boxes: tuple[str, ...], **filled: int) -> dict:
    """A card with ``open_boxes`` open, ``filled`` as given and every other box at 0."""
    card: dict[str, int | None] = dict.fromkeys(boxes, 0)
    card.update(filled)
    for box in open_boxes:
        card[box] = None
    return card


def yahtzee_card(*open_boxes: str, **filled: int) -> dict:
    return card_with(open_boxes, YAHTZEE_UPPER + YAHTZEE_LOWER, **filled)


@cache
def _corner(ruleset_id: str, options: tuple, filled: frozenset[str]) -> Strategy:
    ruleset, full = resolve(ruleset_id, dict(options))
    model = BoxModel(ruleset, full)
    solver = solver_for(model)
    if model.support.order == "forced":
        values = solver.solve()
    else:
        mask = sum(1 << model.box_index[box] for box in filled)
        values = solver.solve(base_mask=mask)
    return Strategy(model, solver, Table(meta={}, values=values.astype(np.float32), path=Path()))


def corner(ruleset_id: str, options: dict[str, Any], card: dict[str, int | None]) -> Strategy:
    """A strategy whose table covers every card containing ``card``'s filled boxes."""
    filled = frozenset(box for box, value in card.items() if value is not None)
    return _corner(ruleset_id, tuple(sorted(options.items())), filled)
