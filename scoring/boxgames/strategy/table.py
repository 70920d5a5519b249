"""Solved tables on disk: one ``.npz`` per ruleset and options, with a header that says
exactly what it was solved for, so that a stale table is noticed and rebuilt.

A table is stale when its format version, ruleset, options or *engine digest* differ from
what the running code expects. The digest hashes the engine's answers that the solver is
built from (natural points of every box for every roll, the bonus tables, ``legal()`` on
probe cards), so editing a box rule in ``scoring/`` invalidates old tables without anyone
remembering to bump a version.

Values are stored as float32: the largest values are a few hundred points, where float32
resolves about 3e-5, well inside the 0.001 the published values are given to. The solver
itself runs in float64.
"""

import hashlib
import json
import os
import tempfile
import time
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...state import Json
from .forced import ForcedOrderSolver
from .freeorder import FreeOrderSolver
from .model import BoxModel

FORMAT = "dice-strategy-table"
FORMAT_VERSION = 1
STORED_DTYPE = np.float32
VERIFY_SAMPLES = 2000

Solver = FreeOrderSolver | ForcedOrderSolver


class StaleTable(Exception):
    """A table file exists but was solved for something else (or by other rules)."""


@dataclass(frozen=True)
class Table:
    """A loaded table: ``values[state, flag, capped upper total]`` = expected points still
    to come at the start of a turn under optimal play (NaN: impossible state)."""

    meta: dict[str, Json]
    values: np.ndarray
    path: Path

    @property
    def start_value(self) -> float:
        """Expected final score from an empty card."""
        return float(self.values[0, 0, 0])


def solver_for(model: BoxModel) -> Solver:
    if model.support.order == "forced":
        return ForcedOrderSolver(model)
    return FreeOrderSolver(model)


def table_path(folder: str | os.PathLike[str], model: BoxModel) -> Path:
    """``<folder>/<ruleset>[--<option>-<value>...].npz``: one file per options."""
    parts = [model.ruleset.id] + [f"{k}-{v}" for k, v in sorted(model.options.items())]
    name = "--".join(parts)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return Path(folder) / f"{safe}.npz"


def engine_digest(model: BoxModel, solver: Solver) -> str:
    """A hash of everything the solver reads from the engine (see the module docstring)."""
    h = hashlib.sha256()

    def add(obj: object) -> None:
        h.update(json.dumps(obj, sort_keys=True, default=str).encode())

    add([model.ruleset.id, model.options, model.box_ids, model.upper.tolist()])
    add([model.threshold, model.upper_bonus, model.rolls_per_turn, model.space.n_dice])
    for array in (model.points, model.earned, model.next_flag, model.flag_box_next):
        h.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    if isinstance(solver, ForcedOrderSolver):
        add(solver.order)
        h.update(solver.points.tobytes())
    else:
        probes = [0] + [1 << b for b in range(model.n_boxes)]
        probes += [model.full ^ (1 << b) for b in range(model.n_boxes)]
        for mask in probes:
            for f in model.flags(mask):
                card = model.card(mask, f)
                add([mask, f, [sorted(model.legal(card, int(r)).items()) for r in model.special]])
    return h.hexdigest()


def expected_meta(model: BoxModel, solver: Solver) -> dict[str, Json]:
    """The header fields a fresh table must carry."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "ruleset": model.ruleset.id,
        "options": dict(sorted(model.options.items())),
        "engine_digest": engine_digest(model, solver),
    }


def build(model: BoxModel, solver: Solver, folder: str | os.PathLike[str]) -> Table:
    """Solve and write the table (atomically: readers never see half a file)."""
    solver.verify(VERIFY_SAMPLES)
    started = time.perf_counter()
    values = solver.solve()
    seconds = time.perf_counter() - started
    meta = {
        **expected_meta(model, solver),
        "order": model.support.order,
        "boxes": list(model.box_ids),
        "forced_order": (
            [model.box_ids[b] for b in solver.order]
            if isinstance(solver, ForcedOrderSolver) else None
        ),
        "axes": ["state", "flag", "upper_total"],
        "dtype": np.dtype(STORED_DTYPE).name,
        "shape": list(values.shape),
        "start_value": float(values[0, 0, 0]),
        "build_seconds": round(seconds, 3),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    stored = values.astype(STORED_DTYPE)
    path = table_path(folder, model)
    write_arrays(path, meta, values=stored)
    return Table(meta=meta, values=stored, path=path)


def write_arrays(path: Path, meta: Mapping[str, Json], **arrays: np.ndarray) -> None:
    """Write arrays and their header as one ``.npz``, atomically: readers never see half a
    file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, allow_pickle=True, **arrays, meta=np.array(json.dumps(meta)))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_arrays(
    path: Path, expected: Mapping[str, Json], names: tuple[str, ...]
) -> tuple[dict[str, Json], list[np.ndarray]]:
    """A ``.npz``'s header and the arrays named, or ``FileNotFoundError`` (no file) or
    :class:`StaleTable` (a header that differs from ``expected``, or no readable table)."""
    try:
        with np.load(path, allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            for key, value in expected.items():
                if meta.get(key) != value:
                    raise StaleTable(f"{path}: {key} is {meta.get(key)!r}, expected {value!r}")
            arrays = [npz[name] for name in names]
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise StaleTable(f"{path} is not a readable table: {exc}") from exc
    for array in arrays:
        array.flags.writeable = False
    return meta, arrays


def read(path: Path, expected: Mapping[str, Json]) -> Table:
    """Load a table, or raise ``FileNotFoundError`` (no file) or :class:`StaleTable`
    (solved for something else, or not a readable table at all)."""
    meta, (values,) = read_arrays(path, expected, ("values",))
    if list(values.shape) != meta.get("shape"):
        raise StaleTable(f"{path}: values have shape {values.shape}, header says {meta['shape']}")
    return Table(meta=meta, values=values, path=path)
