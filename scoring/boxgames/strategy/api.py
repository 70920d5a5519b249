"""The public face of the solver: build, load and ask.

Tables are solved once per ruleset and options, written to a folder the caller chooses
(the Django layer passes a setting) and kept in memory per process after the first use.
A missing or stale table is rebuilt on first use (unless the caller forbids it), one build
at a time per table: across threads by a lock, across processes by an exclusive lock on a
file next to the table (``<table>.lock``); whoever waited for another's build then reads
that table instead of solving it again.

The locks are fine-grained so that nobody waits for work that is not theirs: the lock on
the loaded tables is held only to look one up or keep one, reading a file holds that
table's read lock (a fraction of a second), and a build holds only that table's build lock.
A caller that forbids building (``build_missing=False``) therefore never waits for a build.
"""

import math
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

import numpy as np

from ...dice import check_dice
from ...errors import ProblemCode, RuleError
from ...state import Options, OptionValue
from ...strategy.combinatorics import sub_multisets
from ..boxgame import BoxGame, Card
from .model import BoxModel, resolve

try:
    import fcntl
except ImportError:  # not on POSIX: builds are still one at a time within a process
    fcntl = None  # type: ignore[assignment]  # tested before each use
from ...errors import gettext_noop
from .table import Solver, StaleTable, Table, build, expected_meta, read, solver_for, table_path
from .turn import keep_values, roll_on

Folder = str | os.PathLike[str]


class BoxChoice(TypedDict):
    """One legal move with its value: a box to fill (``category``, ``points``) or dice to
    hold for the next roll (``hold``)."""

    action: str
    category: NotRequired[str]
    points: NotRequired[int]
    hold: NotRequired[list[int]]
    expected_final: float


class _Answer(TypedDict):
    ruleset: str
    rule_options: dict[str, OptionValue]
    banked: int


@dataclass(frozen=True)
class Strategy:
    """A ruleset's model, its solver and its loaded table: what answering advice needs."""

    model: BoxModel
    solver: Solver
    table: Table


@dataclass(frozen=True)
class Advice:
    """The answer for one position.

    ``expected_final`` is the points already on the card (bonuses included) plus the
    expected points still to come under optimal play. ``options`` lists every legal move,
    best first: ``{"action": "score", "category", "points", "expected_final"}`` for each
    box ``legal()`` allows, and, while rolls are left, ``{"action": "roll", "hold",
    "expected_final"}`` for each distinct keep (``hold``: positions in the given dice).
    At the start of a turn (no dice) there are no options.
    """

    ruleset: str
    rule_options: dict[str, OptionValue]
    banked: int
    expected_final: float
    best: BoxChoice | None
    options: list[BoxChoice] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset,
            "rule_options": dict(self.rule_options),
            "banked": self.banked,
            "expected_final": self.expected_final,
            "best": self.best,
            "options": list(self.options),
        }


Key = tuple[str, str, tuple[tuple[str, OptionValue], ...]]

_lock = threading.Lock()  # guards the three dicts below; held only to look up or keep
_loaded: dict[Key, Strategy] = {}
_reading: dict[Key, threading.Lock] = {}  # one reader of a table's file at a time
_building: dict[Key, threading.Lock] = {}  # one builder of a table at a time


def _key(folder: Folder, ruleset_id: str, options: Options) -> Key:
    return (str(Path(folder).resolve()), ruleset_id, tuple(sorted(options.items())))


def _lock_of(locks: dict[Key, threading.Lock], key: Key) -> threading.Lock:
    with _lock:
        return locks.setdefault(key, threading.Lock())


def _keep(key: Key, strategy: Strategy) -> Strategy:
    with _lock:
        _loaded[key] = strategy
    return strategy


def _read(key: Key, ruleset: BoxGame, options: dict[str, OptionValue], folder: Folder) -> Strategy:
    """The loaded strategy, or read from its file (``FileNotFoundError``, :class:`StaleTable`)."""
    with _lock:
        if key in _loaded:
            return _loaded[key]
    with _lock_of(_reading, key):
        with _lock:
            if key in _loaded:
                return _loaded[key]
        model = BoxModel(ruleset, options)
        solver = solver_for(model)
        table = read(table_path(folder, model), expected_meta(model, solver))
        return _keep(key, Strategy(model, solver, table))


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (created if missing) shared by every process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # released when the file is closed
        yield


def _build(
    key: Key, ruleset: BoxGame, options: dict[str, OptionValue], folder: Folder, *, force: bool
) -> tuple[Strategy, bool]:
    """Solve, write and keep the table, one build at a time per table across threads and
    processes. Unless ``force``, a fresh table found once the locks are held (another
    caller built it meanwhile) is read instead. Answers the strategy and whether it built."""
    model = BoxModel(ruleset, options)
    path = table_path(folder, model)
    with _lock_of(_building, key), _file_lock(path.with_name(path.name + ".lock")):
        if not force:
            try:
                return _read(key, ruleset, options, folder), False
            except (FileNotFoundError, StaleTable):
                pass
        solver = solver_for(model)
        table = build(model, solver, folder)
        return _keep(key, Strategy(model, solver, table)), True


def build_table(
    ruleset_id: str, options: Options | None, folder: Folder
) -> Path:
    """Solve the table for this ruleset and options (even if a fresh one exists), write it
    into ``folder`` and keep it loaded. Returns the file's path."""
    ruleset, full = resolve(ruleset_id, options)
    strategy, _ = _build(_key(folder, ruleset.id, full), ruleset, full, folder, force=True)
    return strategy.table.path


def prepare_table(
    ruleset_id: str, options: Options | None, folder: Folder
) -> tuple[Table, bool]:
    """The loaded table, built first only if it is missing or stale, and whether it was
    built. What a service runs before it serves, and in the background when a table turns
    out to be missing: run again, or in several processes at once, it builds nothing twice."""
    ruleset, full = resolve(ruleset_id, options)
    key = _key(folder, ruleset.id, full)
    try:
        return _read(key, ruleset, full, folder).table, False
    except (FileNotFoundError, StaleTable):
        pass
    strategy, built = _build(key, ruleset, full, folder, force=False)
    return strategy.table, built


def load_strategy(
    ruleset_id: str,
    options: Options | None,
    folder: Folder,
    *,
    build_missing: bool = True,
) -> Strategy:
    """The loaded strategy, reading its table from ``folder`` or, if it is missing or
    stale, building it (unless ``build_missing`` is false: then ``FileNotFoundError`` or
    :class:`StaleTable`, at once, even while another caller builds that table)."""
    ruleset, full = resolve(ruleset_id, options)
    key = _key(folder, ruleset.id, full)
    try:
        return _read(key, ruleset, full, folder)
    except (FileNotFoundError, StaleTable):
        if not build_missing:
            raise
    return _build(key, ruleset, full, folder, force=False)[0]


def load_table(
    ruleset_id: str,
    options: Options | None,
    folder: Folder,
    *,
    build_missing: bool = True,
) -> Table:
    """The loaded table (see :func:`load_strategy`)."""
    return load_strategy(ruleset_id, options, folder, build_missing=build_missing).table


def unload_all() -> None:
    """Forget every loaded table (tests, benchmarks)."""
    with _lock:
        _loaded.clear()


def loaded_bytes() -> int:
    """Bytes held by the value arrays of every loaded table."""
    with _lock:
        return sum(strategy.table.values.nbytes for strategy in _loaded.values())


def advise(
    ruleset_id: str,
    options: Options | None,
    scorecard: Mapping[str, int | None] | None,
    yahtzee_bonus: int | None,
    dice: Sequence[int] | None,
    rolls_left: int | None,
    folder: Folder,
) -> Advice:
    """Optimal solitaire advice for one position (see :class:`Advice`).

    ``rolls_left`` is how many rolls are still allowed after ``dice`` (0 to 2); it is
    ignored when ``dice`` is None (the start of a turn). Bad input raises :class:`RuleError`
    with the engine's codes (``invalid``, ``invalid_dice``, ``unknown_category``...).
    """
    strategy = load_strategy(ruleset_id, options, folder)
    return advise_with(strategy, scorecard, yahtzee_bonus, dice, rolls_left)


def advise_with(
    strategy: Strategy,
    scorecard: Mapping[str, int | None] | None,
    yahtzee_bonus: int | None,
    dice: Sequence[int] | None,
    rolls_left: int | None,
) -> Advice:
    """:func:`advise` on an already loaded strategy."""
    m = strategy.model
    ruleset = m.ruleset
    card = ruleset.check_card(scorecard)
    bonus = ruleset.check_bonus(
        0 if yahtzee_bonus is None else yahtzee_bonus, card, m.options
    )
    banked = ruleset.seat_view(card, bonus)["total"]
    index, f, u, to_come = _position(strategy, card, bonus)
    answer: _Answer = {"ruleset": ruleset.id, "rule_options": dict(m.options), "banked": banked}
    if dice is None or all(value is not None for value in card.values()):
        return Advice(**answer, expected_final=banked + to_come, best=None)
    dice = check_dice(dice, ruleset.dice)
    left = _check_count(rolls_left, "rolls_left", None)
    if left >= m.rolls_per_turn:
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop("rolls_left runs from 0 to {most}"), field="rolls_left",
            most=m.rolls_per_turn - 1,
        )

    choices = _score_options(strategy, card, bonus, dice)
    if left:
        rolls = strategy.solver.roll_values(
            strategy.table.values, index, np.array([f]), np.array([u])
        )
        for _ in range(left - 1):
            rolls = roll_on(m.space, rolls)
        keeps = keep_values(m.space, rolls)[:, 0]
        for keep in sub_multisets(tuple(sorted(dice))):
            choices.append({
                "action": "roll",
                "hold": _positions(dice, keep),
                "expected_final": banked + float(keeps[m.space.keep_index[keep]]),
            })
    # Best first; near-equal values (float noise) keep their order: scoring before rolling.
    choices.sort(key=lambda choice: -round(choice["expected_final"], 6))
    return Advice(
        **answer, expected_final=choices[0]["expected_final"], best=choices[0], options=choices
    )


def _score_options(
    strategy: Strategy, card: Card, bonus: int, dice: list[int]
) -> list[BoxChoice]:
    """Every box the engine allows, valued with the engine's own totals after the fill."""
    m = strategy.model
    legal = m.ruleset.legal(card, dice, m.options)
    return [
        {
            "action": "score",
            "category": box_id,
            "points": points,
            "expected_final": box_value(strategy, card, bonus, dice, box_id, points),
        }
        for box_id, points in legal.items()
    ]


def box_value(
    strategy: Strategy, card: Card, bonus: int, dice: Sequence[int], box_id: str, points: int
) -> float:
    """Expected final score after filling ``box_id`` with ``points`` on these dice: the
    engine's total after the fill (any bonus the fill earns included) plus the table's value
    of the card it leaves. ``points`` is the box's legal points, or 0 for a scratch."""
    m = strategy.model
    earned = m.ruleset.fill_bonus(card, dice, m.options, bonus)
    after = {**card, box_id: points}
    total = m.ruleset.seat_view(after, bonus + earned)["total"]
    return total + _position(strategy, after, bonus + earned)[3]


def _position(strategy: Strategy, card: Card, bonus: int) -> tuple[int, int, int, float]:
    """(table row, flag, capped upper total, expected points to come) of a card."""
    m = strategy.model
    index = strategy.solver.state_index(m.mask_of(card))
    if index is None:
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop("{game} fills its boxes in order: this card skips one"),
            field="scorecard", game=m.ruleset.name,
        )
    upper = sum(card[m.box_ids[b]] or 0 for b in range(m.n_boxes) if m.upper[b])
    u = min(m.threshold, upper)
    f = m.flag_of(card, bonus)
    to_come = float(strategy.table.values[index, f, u])
    if math.isnan(to_come):
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop("no game reaches this scorecard: an upper box holds points no dice make"),
            field="scorecard",
        )
    return index, f, u, to_come


def _check_count(value: object, name: str, default: int | None) -> int:
    if value is None and default is not None:
        return default
    if type(value) is not int or value < 0:
        raise RuleError(
            ProblemCode.INVALID, gettext_noop("{field} must be a whole number from 0"), field=name
        )
    return value


def _positions(dice: Sequence[int], keep: Sequence[int]) -> list[int]:
    """Positions in ``dice`` that hold the multiset ``keep``: the first dice of each face."""
    wanted = list(keep)
    held = []
    for i, face in enumerate(dice):
        if face in wanted:
            wanted.remove(face)
            held.append(i)
    return held
