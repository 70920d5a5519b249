"""Optimal solitaire strategy for the box games: the expected final score of any position
and the value of every move, from tables solved once by dynamic programming.

Pure Python and NumPy, like the rest of ``scoring``: the rules come from the engine
(``legal()``, ``fill_bonus()``, the box scorers), never from a second copy of them.

    path = build_table("yahtzee", {"joker": "free"}, folder)
    advice = advise("yahtzee", {}, scorecard, 0, [3, 3, 5, 1, 3], 2, folder)
"""

from .api import (
    Advice,
    Strategy,
    advise,
    advise_with,
    build_table,
    load_strategy,
    load_table,
    loaded_bytes,
    prepare_table,
    unload_all,
)
from .model import SUPPORTED, ModelError
from .table import FORMAT_VERSION, StaleTable, Table

__all__ = [
    "FORMAT_VERSION", "SUPPORTED", "Advice", "ModelError", "StaleTable", "Strategy", "Table",
    "advise", "advise_with", "build_table",
    "load_strategy", "load_table", "loaded_bytes", "prepare_table", "unload_all",
]
