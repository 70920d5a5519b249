"""Strategy tables for requests: loaded, never built, and never waited for under a lock.

Solving a table takes 5 to 50 seconds of a core, so the service builds the tables it offers
before it serves (``manage.py build_strategy``, run by ``make run`` and docker-compose.yml),
and a deployment builds every other table once, in a worker (``games.work.tables``). A
request that finds one missing in this process's ``STRATEGY_DIR`` copies it from the
database if the deployment has it; otherwise it is answered at once with 503
``strategy_unavailable`` and ``Retry-After``, having queued the build (within the caller's
limit: see ``games.work.tables``). Requests after the build succeed, on every host.

Computer seats play inside the game's row lock, so the service calls
:func:`strategy_require` before it takes that lock: the table is then in memory, and the
computer's moves under the lock only look it up.
"""

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_noop

from games.models import Game, Player
from games.play.errors import ServiceCode, ServiceError
from games.work import tables
from scoring import RuleError, Ruleset, family_of, get_ruleset
from scoring.boxgames.strategy import StaleTable, Strategy, load_strategy
from scoring.errors import Words
from scoring.tenthousand.strategy.tables import SolvedTables, load_tables

logger = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds a client is asked to wait while a missing table is built (a build takes 5 to 50).
RETRY_AFTER = 15
# The computer level that plays from the tables.
TABLE_LEVEL = "optimal"

_lock = threading.Lock()
TEN_THOUSAND = "ten-thousand"

# What the 503 adds, by what came of asking for the table.
_NOT_QUEUED = {
    tables.Asked.LIMITED: gettext_noop(
        "{what} is not built; this client has asked for as many new tables as it may this "
        "hour, so it is not queued: ask for one the service has (see docs/operations.md, "
        "strategy tables)"
    ),
    tables.Asked.BUSY: gettext_noop(
        "{what} is not built; many tables wait for a build already, so it is not queued yet"
    ),
}


def strategy_load(*, ruleset_id: str, options: Mapping[str, Any] | None) -> Strategy:
    """The loaded strategy for this ruleset and options, read from ``STRATEGY_DIR`` if this
    process has not loaded it yet (a fraction of a second); never built here.

    Raises :class:`RuleError` for a ruleset without tables or bad options, and
    :class:`ServiceError` ``strategy_unavailable`` when the table is missing or stale and
    the deployment has not built it yet.
    """
    folder = settings.STRATEGY_DIR
    return _loaded_or_unavailable(
        lambda: load_strategy(ruleset_id, options, folder, build_missing=False),
        ruleset_id, options,
        Words(gettext_noop("the optimal-strategy table for {ruleset}"), {"ruleset": ruleset_id}),
    )


def _loaded_or_unavailable(
    load: Callable[[], T], ruleset_id: str, options: Mapping[str, Any] | None, what: Words
) -> T:
    """What ``load`` reads; if the table is missing or stale here, what it reads from the
    deployment's stored copy, else the answer is 503 ``strategy_unavailable`` (its
    build queued, within the caller's limit)."""
    try:
        return load()
    except (FileNotFoundError, StaleTable):
        pass
    spec = tables.spec_of(*_full(ruleset_id, options))
    if tables.fetch(spec, settings.STRATEGY_DIR):  # the deployment built it already
        try:
            return load()
        except (FileNotFoundError, StaleTable):
            logger.warning("the stored strategy table %s does not load", spec.name)
    asked = tables.ask(spec)
    message = _NOT_QUEUED.get(
        asked, gettext_noop("{what} is being built; try again in {seconds} seconds")
    )
    raise ServiceError(
        ServiceCode.STRATEGY_UNAVAILABLE, message, what=what, seconds=RETRY_AFTER
    )


def _full(ruleset_id: str, options: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The id of the table's ruleset and the options that pick its table (validated)."""
    ruleset = get_ruleset(ruleset_id)
    return family_of(ruleset).table_options(ruleset, options)


def ten_thousand_tables(*, options: Mapping[str, Any]) -> SolvedTables:
    """Ten Thousand's solved tables for these (validated) options' bank minimum, read
    from ``STRATEGY_DIR`` if this process has not loaded them yet; never built here (503
    ``strategy_unavailable`` as above)."""
    folder, minimum = settings.STRATEGY_DIR, options["bank_minimum"]
    return _loaded_or_unavailable(
        lambda: load_tables(minimum, folder, build_missing=False),
        TEN_THOUSAND, options,
        Words(
            gettext_noop("the solved table of Ten Thousand with a bank minimum of {minimum}"),
            {"minimum": minimum},
        ),
    )


def table_load(*, ruleset: Ruleset, options: Mapping[str, Any] | None) -> Any:
    """The solved table of a ruleset whose family has one (see
    :meth:`scoring.family.Family.load_table`), read as :func:`strategy_load` reads it:
    never built here (503 ``strategy_unavailable``, its build queued)."""
    folder = settings.STRATEGY_DIR
    return _loaded_or_unavailable(
        lambda: family_of(ruleset).load_table(ruleset, options, folder, build_missing=False),
        ruleset.id, options,
        Words(gettext_noop("the solved table of {ruleset}"), {"ruleset": ruleset.id}),
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


def queue_build(*, ruleset_id: str, options: Mapping[str, Any] | None) -> tables.Asked:
    """Queue this table's build in the deployment, unless it is queued or built already
    (work outside requests: no caller's limit applies)."""
    return tables.ask(tables.spec_of(*_full(ruleset_id, options)))


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
