"""Ten Thousand's solved tables on disk: one ``.npz`` per ``bank_minimum``.

Each holds the two turn-start tables of :mod:`.solver` for the target
:data:`~.solver.SOLVED_TARGET` (every smaller target is a shift of it):
``two[a, b]``, the chance to win of the seat to move, and ``one[a]``, the expected turns
alone, totals in units of 50, as float64 (values are given exact to 1e-9). About 320 kB
each; the values inside a turn are recomputed from them on demand (a millisecond).

A table is stale when its format, bank minimum or *rules digest* differ from what the
running code expects: the digest hashes the throw classes the solver is built from (every
selection's value comes from the engine), so a change to the scoring rules rebuilds it.
Builds and reads are one at a time per table, as for the box games' tables
(:mod:`scoring.boxgames.strategy.api`): a thread lock, and a file lock next to the table
across processes. At most one file per bank minimum below 10,000 (64 MB for all 200):
from 10,000 on, every bank wins a game the tables serve, and the table is solved in
memory (:func:`every_bank_wins`).
"""

import hashlib
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

import numpy as np

from ...boxgames.strategy.api import Folder, _file_lock
from ...boxgames.strategy.table import StaleTable, read_arrays, write_arrays
from ...state import Json
from ..points import POINTS_STEP
from .solver import SOLVED_TARGET, UNITS, classes, solve_one, solve_two

FORMAT = "dice-strategy-ten-thousand"
FORMAT_VERSION = 1
RULESET = "ten-thousand"


@dataclass(frozen=True, eq=False)  # compared (and hashed, for caches) by identity
class SolvedTables:
    """The loaded tables of one bank minimum (see the module docstring)."""

    meta: dict[str, Json]
    two: np.ndarray
    one: np.ndarray
    path: Path | None  # None: solved in memory only (see every_bank_wins)

    @property
    def bank_minimum(self) -> int:
        return cast(int, self.meta["bank_minimum"])  # read back equal to expected_meta's

    @property
    def nbytes(self) -> int:
        return self.two.nbytes + self.one.nbytes


def rules_digest() -> str:
    """A hash of the throw classes (probabilities, selections and their points)."""
    c = classes()
    h = hashlib.sha256()
    for array in (c.start, c.first, c.points, c.dice):
        h.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    for array in (c.probability, c.bust):
        h.update(np.round(np.asarray(array, dtype=np.float64), 15).tobytes())
    return h.hexdigest()


def table_path(folder: Folder, bank_minimum: int) -> Path:
    return Path(folder) / f"{RULESET}--bank_minimum-{bank_minimum}.npz"


def expected_meta(bank_minimum: int) -> dict[str, Json]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "ruleset": RULESET,
        "bank_minimum": bank_minimum,
        "solved_target": SOLVED_TARGET,
        "rules_digest": rules_digest(),
    }


def check_bank_minimum(bank_minimum: int) -> None:
    if bank_minimum < 0 or bank_minimum % POINTS_STEP:
        raise ValueError(f"bank_minimum is a whole multiple of {POINTS_STEP} from 0")


def build(bank_minimum: int, folder: Folder) -> SolvedTables:
    """Solve both tables and write them (atomically: readers never see half a file)."""
    check_bank_minimum(bank_minimum)
    started = time.perf_counter()
    one = solve_one(bank_minimum)
    two = solve_two(bank_minimum)
    meta = {
        **expected_meta(bank_minimum),
        "axes": {"two": ["own_total", "other_total"], "one": ["total"]},
        "units": POINTS_STEP,
        "first_player_wins": float(two[0, 0]),
        "expected_turns": float(one[0]),
        "build_seconds": round(time.perf_counter() - started, 3),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    path = table_path(folder, bank_minimum)
    write_arrays(path, meta, two=two, one=one)
    return SolvedTables(meta, two, one, path)


def read(path: Path, expected: dict[str, Json]) -> SolvedTables:
    """Load tables, or raise ``FileNotFoundError`` or :class:`StaleTable`."""
    meta, (two, one) = read_arrays(path, expected, ("two", "one"))
    units = SOLVED_TARGET // POINTS_STEP
    if two.shape != (units, units) or one.shape != (units,):
        raise StaleTable(f"{path}: tables of shape {two.shape} and {one.shape}")
    return SolvedTables(meta, two, one, path)


Key = tuple[str, int]
_lock = threading.Lock()
_loaded: dict[Key, SolvedTables] = {}
_building: dict[Key, threading.Lock] = {}


def _key(folder: Folder, bank_minimum: int) -> Key:
    return (str(Path(folder).resolve()), bank_minimum)


def load_tables(bank_minimum: int, folder: Folder, *, build_missing: bool = True) -> SolvedTables:
    """The loaded tables of this bank minimum: kept in memory after the first read; built
    if missing or stale unless ``build_missing`` is false (then ``FileNotFoundError`` or
    :class:`StaleTable`, at once)."""
    check_bank_minimum(bank_minimum)
    if bank_minimum >= SOLVED_TARGET:
        return every_bank_wins(bank_minimum)
    key = _key(folder, bank_minimum)
    with _lock:
        if key in _loaded:
            return _loaded[key]
    try:
        return _keep(key, read(table_path(folder, bank_minimum), expected_meta(bank_minimum)))
    except (FileNotFoundError, StaleTable):
        if not build_missing:
            raise
    return prepare_tables(bank_minimum, folder)[0]


@lru_cache(maxsize=16)
def every_bank_wins(bank_minimum: int) -> SolvedTables:
    """The tables of a bank minimum of :data:`SOLVED_TARGET` or more, kept in memory only.

    Every target solved is then at most the bank minimum, so every bank wins: the totals do
    not matter, and the game of one total unit (a single position) is the whole table,
    solved exactly in tens of milliseconds. No file is written (so that the bank minimums a
    caller may name cannot fill the disk)."""
    started = time.perf_counter()
    one = np.full(UNITS, solve_one(bank_minimum, 1)[0])
    two = np.full((UNITS, UNITS), solve_two(bank_minimum, 1)[0, 0])
    one.flags.writeable = two.flags.writeable = False
    meta = {
        **expected_meta(bank_minimum),
        "first_player_wins": float(two[0, 0]),
        "expected_turns": float(one[0]),
        "build_seconds": round(time.perf_counter() - started, 3),
    }
    return SolvedTables(meta, two, one, None)


def prepare_tables(
    bank_minimum: int, folder: Folder, *, force: bool = False
) -> tuple[SolvedTables, bool]:
    """The tables, built first if missing or stale (or ``force``), and whether they were
    built; one build at a time per table across threads and processes."""
    check_bank_minimum(bank_minimum)
    if bank_minimum >= SOLVED_TARGET:
        return every_bank_wins(bank_minimum), False
    key = _key(folder, bank_minimum)
    path = table_path(folder, bank_minimum)
    with _lock:
        building = _building.setdefault(key, threading.Lock())
    with building, _file_lock(path.with_name(path.name + ".lock")):
        if not force:
            try:
                return _keep(key, read(path, expected_meta(bank_minimum))), False
            except (FileNotFoundError, StaleTable):
                pass
        return _keep(key, build(bank_minimum, folder)), True


def _keep(key: Key, tables: SolvedTables) -> SolvedTables:
    with _lock:
        _loaded[key] = tables
    return tables


def unload_all() -> None:
    """Forget every loaded table (tests, benchmarks)."""
    with _lock:
        _loaded.clear()
