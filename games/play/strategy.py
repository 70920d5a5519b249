"""Strategy tables for requests: loaded, never built, and never waited for under a lock.

Solving a table takes 5 to 20 seconds, so the service builds the tables it offers before it
serves (``manage.py build_strategy``, run by ``make run`` and docker-compose.yml). If one is
missing anyway (a new folder, a table made stale by an engine change), the request that
needs it is answered at once with 503 ``strategy_unavailable`` and ``Retry-After``, and the
table is built in a background thread: at most one per process and table (the threads
below), and at most one at a time across processes (the builder holds an exclusive lock on
``<table>.lock`` in ``STRATEGY_DIR``; a process that waited for another's build reads that
table instead of solving it again). Requests after the build succeed.

Computer seats play inside the game's row lock, so the service calls
:func:`strategy_require` before it takes that lock: the table is then in memory, and the
computer's moves under the lock only look it up.
"""

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef

from games.models import Game, Player
from games.play.errors import ServiceCode, ServiceError
from scoring import RuleError, Ruleset, family_of, get_ruleset
from scoring.boxgames.strategy import StaleTable, Strategy, load_strategy
from scoring.tenthousand.strategy.tables import SolvedTables, load_tables

logger = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds a client is asked to wait while a missing table is built (a build takes 5 to 20).
RETRY_AFTER = 15
# The computer level that plays from the tables.
TABLE_LEVEL = "optimal"

_lock = threading.Lock()
# One background build at a time per process: a burst of requests for tables of several
# options queues them rather than solving them all at once on the request threads' cores.
_build_slot = threading.Semaphore(1)
# Builds started and not done, at most: the bank minimums a caller may name are many.
MOST_WAITING_BUILDS = 4
_builds: dict[tuple[str, str, tuple[tuple[str, Any], ...]], threading.Thread] = {}
TEN_THOUSAND = "ten-thousand"


def strategy_load(*, ruleset_id: str, options: Mapping[str, Any] | None) -> Strategy:
    """The loaded strategy for this ruleset and options, read from ``STRATEGY_DIR`` if this
    process has not loaded it yet (a fraction of a second); never built here.

    Raises :class:`RuleError` for a ruleset without tables or bad options, and
    :class:`ServiceError` ``strategy_unavailable`` (after starting the build in the
    background) when the table is missing or stale.
    """
    folder = settings.STRATEGY_DIR
    return _loaded_or_unavailable(
        lambda: load_strategy(ruleset_id, options, folder, build_missing=False),
        ruleset_id, options, f"the optimal-strategy table for {ruleset_id}",
    )


def _loaded_or_unavailable(
    load: Callable[[], T], ruleset_id: str, options: Mapping[str, Any] | None, what: str
) -> T:
    """What ``load`` reads; if the table is missing or stale, its build is started in the
    background and the answer is 503 ``strategy_unavailable``."""
    try:
        return load()
    except (FileNotFoundError, StaleTable):
        pass
    build_in_background(ruleset_id=ruleset_id, options=options)
    raise ServiceError(
        ServiceCode.STRATEGY_UNAVAILABLE,
        f"{what} is being built; try again in {RETRY_AFTER} seconds",
    )


def ten_thousand_tables(*, options: Mapping[str, Any]) -> SolvedTables:
    """Ten Thousand's solved tables for these (validated) options' bank minimum, read
    from ``STRATEGY_DIR`` if this process has not loaded them yet; never built here (503
    ``strategy_unavailable`` after starting the build in the background, as above)."""
    folder, minimum = settings.STRATEGY_DIR, options["bank_minimum"]
    return _loaded_or_unavailable(
        lambda: load_tables(minimum, folder, build_missing=False),
        TEN_THOUSAND, options, f"the solved table of Ten Thousand with a bank minimum of {minimum}",
    )


def table_load(*, ruleset: Ruleset, options: Mapping[str, Any] | None) -> Any:
    """The solved table of a ruleset whose family has one (see
    :meth:`scoring.family.Family.load_table`), read as :func:`strategy_load` reads it:
    never built here (503 ``strategy_unavailable`` after starting the build)."""
    folder = settings.STRATEGY_DIR
    return _loaded_or_unavailable(
        lambda: family_of(ruleset).load_table(ruleset, options, folder, build_missing=False),
        ruleset.id, options, f"the solved table of {ruleset.id}",
    )


def strategy_require(*, ruleset_id: str, options: Mapping[str, Any] | None) -> None:
    """Make sure the table an ``optimal`` computer seat of this ruleset plays from is loaded,
    before the caller takes a game lock (see :func:`strategy_load` for the 503).

    A no-op for rulesets whose computers need no table, and for input the caller refuses
    anyway (an unknown ruleset, bad options): the caller's own checks answer those.
    """
    try:
        ruleset = get_ruleset(ruleset_id)
        if family_of(ruleset).solved(ruleset):
            table_load(ruleset=ruleset, options=options)
    except ServiceError:
        raise
    except RuleError:
        return


def game_strategy_require(*, game_id: Any) -> None:
    """:func:`strategy_require` for a stored game, if one of its seats plays ``optimal``.

    What decides it (the ruleset, the options, which seats are computers) never changes
    after a game is created, so each process asks the database once per game and keeps the
    answer; a later change to that game costs no query for it.
    """
    try:
        needs = _needs_of_game(game_id)
    except (ValueError, ValidationError):  # not a game id: the service's lookup refuses it
        return
    if needs is not None:
        strategy_require(ruleset_id=needs[0], options=needs[1])


def build_in_background(*, ruleset_id: str, options: Mapping[str, Any] | None) -> None:
    """Start building this table in a thread, unless this process builds it already."""
    folder = settings.STRATEGY_DIR
    ruleset = get_ruleset(ruleset_id)
    table_id, full = family_of(ruleset).table_options(ruleset, options)
    key = (str(folder), table_id, tuple(sorted(full.items())))
    with _lock:
        running = _builds.get(key)
        if running is not None and running.is_alive():
            return
        waiting = sum(thread.is_alive() for thread in _builds.values())
        if waiting >= MOST_WAITING_BUILDS:
            return  # a later request asks again once the queue is shorter
        thread = threading.Thread(
            target=_build,
            args=(table_id, full, folder),
            name=f"strategy-build-{table_id}",
            daemon=True,
        )
        _builds[key] = thread
        thread.start()


def wait_for_builds(timeout: float | None = None) -> None:
    """Wait for the background builds started so far (tests, scripts)."""
    with _lock:
        threads = list(_builds.values())
    for thread in threads:
        thread.join(timeout)


def _build(ruleset_id: str, options: dict[str, Any], folder: Any) -> None:
    try:
        with _build_slot:
            started = time.perf_counter()
            built = family_of(ruleset_id).prepare_table(ruleset_id, options, folder)
    except Exception:  # a thread has no caller to tell: log it; the next request retries
        logger.exception("building the strategy table for %s %s failed", ruleset_id, options)
        return
    logger.info(
        "strategy table for %s %s %s in %.1f s",
        ruleset_id, options, "built" if built else "loaded", time.perf_counter() - started,
    )


# Per process: game id -> (ruleset, options) of a game with an optimal seat, or None.
_NEEDS_KEPT = 10_000
_needs: OrderedDict[str, tuple[str, dict[str, Any]] | None] = OrderedDict()


def game_strategy_known(
    *, game_id: Any, ruleset_id: str, options: Mapping[str, Any], computers: Sequence[str | None]
) -> None:
    """Tells this process, as a game is created, what :func:`game_strategy_require` would
    otherwise ask the database on the game's first move: its moves usually come to the
    process that created it (the same client, the same connection)."""
    needs = (ruleset_id, dict(options)) if TABLE_LEVEL in computers else None
    _keep(str(game_id), needs)


def _needs_of_game(game_id: Any) -> tuple[str, dict[str, Any]] | None:
    key = str(game_id)
    with _lock:
        if key in _needs:
            _needs.move_to_end(key)
            return _needs[key]
    optimal = Player.objects.filter(game=OuterRef("pk"), computer=TABLE_LEVEL)
    row = (
        Game.objects.filter(pk=game_id)
        .values_list("ruleset", "options", Exists(optimal))
        .first()
    )
    if row is None:
        return None  # no such game: nothing to keep, the service's lookup refuses it
    ruleset_id, options, has_optimal = row
    needs = (ruleset_id, dict(options)) if has_optimal else None
    _keep(key, needs)
    return needs


def _keep(key: str, needs: tuple[str, dict[str, Any]] | None) -> None:
    with _lock:
        _needs[key] = needs
        while len(_needs) > _NEEDS_KEPT:
            _needs.popitem(last=False)
