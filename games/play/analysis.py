"""Game analysis: a game's log scored against optimal solitaire play.

The computation is :mod:`scoring.strategy.analysis`; this module reads the game, its seats
and the part of its log that holds decisions, in a fixed number of queries, and hands them
over. The endpoint's analysis is not stored: a whole game takes a few milliseconds with
the table loaded, and computed from the log each time it can never differ from what the
log says.

:func:`seat_accuracies` is the entry point for other parts of the service that want the
accuracy of finished games (the classroom roster's mean accuracy per ruleset, over many
games at once): those figures are cached, see there.
"""

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache

from games.models import Event, Game, Player
from games.play.errors import ServiceError
from games.play.privacy import Private, Viewer, require_visible
from games.play.strategy import build_in_background, strategy_load, ten_thousand_tables
from scoring import get_ruleset
from scoring.match import GameStatus
from scoring.strategy import SUPPORTED, StaleTable, load_strategy
from scoring.strategy.analysis import Analysis, analyse
from scoring.strategy.tenthousand_analysis import EVENTS as TEN_THOUSAND_EVENTS
from scoring.strategy.tenthousand_analysis import TenThousandAnalysis, analyse_ten_thousand
from scoring.strategy.tenthousand_tables import load_tables

logger = logging.getLogger(__name__)

Seats = Literal["persons", "all"]
# The only events a decision is read from; the rest of the log is not loaded.
DECISION_EVENTS = ("rolled", "scored", "scratched")
TEN_THOUSAND = "ten-thousand"
# Ten Thousand is solved for one seat and for two: games of more are not analysed.
TEN_THOUSAND_SEATS = 2


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a game, with the seats it covers (for their names)."""

    game: Game
    players: list[Player]
    analysis: Analysis | TenThousandAnalysis


def analysable(ruleset_id: str) -> bool:
    """Whether games of this ruleset can be analysed (its optimal strategy is solved)."""
    return ruleset_id in SUPPORTED or ruleset_id == TEN_THOUSAND


def _analysable_game(game: Game) -> bool:
    return analysable(game.ruleset) and (
        game.ruleset != TEN_THOUSAND or len(game.state["totals"]) <= TEN_THOUSAND_SEATS
    )


def game_analysis(
    *, game_id: Any, seats: Seats = "persons", viewer: Viewer | None = None
) -> GameAnalysis:
    """Every decision so far of the game's person seats (``seats="all"``: computer seats
    too), scored against optimal play. Three queries: the game, its seats, its log.

    Raises ``not_found`` for no such game and ``analysis_unavailable`` for a ruleset
    whose strategy is not solved (Maxi Yatzy) and for Ten Thousand games of three seats or
    more.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", "no game with this id")
    require_visible(
        Private(game.pk, game.due_at, game.student_id, game.classroom_id), viewer or Viewer()
    )
    if not analysable(game.ruleset):
        known = ", ".join([*SUPPORTED, TEN_THOUSAND])
        raise ServiceError(
            "analysis_unavailable",
            f"{game.ruleset} games cannot be analysed: analysis is available for {known}",
        )
    if not _analysable_game(game):
        raise ServiceError(
            "analysis_unavailable",
            f"{TEN_THOUSAND} is analysed in games of one or two seats; this game has "
            f"{len(game.state['totals'])}",
        )
    # The table is loaded, or the answer is 503 strategy_unavailable: never built here.
    if game.ruleset == TEN_THOUSAND:
        ten_thousand_tables(options=get_ruleset(TEN_THOUSAND).validate_options(game.options))
    else:
        strategy_load(ruleset_id=game.ruleset, options=game.options)
    players = list(Player.objects.filter(game=game).order_by("seat"))
    chosen = [p for p in players if seats == "all" or p.computer is None]
    return GameAnalysis(game, chosen, analysis_of(game, [p.seat for p in chosen]))


def analysis_of(
    game: Game, seats: Iterable[int], *, build_missing: bool | None = None
) -> Analysis | TenThousandAnalysis:
    """The analysis of ``seats`` of an analysable game (one query: its log, made only once
    the table is loaded). ``build_missing=False`` raises rather than solve a missing table
    (``FileNotFoundError``, ``StaleTable``), for pages that must answer at once."""
    types = TEN_THOUSAND_EVENTS if game.ruleset == TEN_THOUSAND else DECISION_EVENTS
    log = (
        Event.objects.filter(game=game, type__in=types)
        .order_by("seq")
        .values("seq", "type", "seat", "data")
    )
    return _analyse(game, log, list(seats), build_missing=build_missing)


def _analyse(
    game: Game,
    log: Iterable[dict[str, Any]],
    seats: list[int],
    *,
    build_missing: bool | None = None,
) -> Analysis | TenThousandAnalysis:
    """The analysis of ``seats`` from the game's ``log``, by its ruleset's analyser."""
    if game.ruleset != TEN_THOUSAND:
        return analyse(
            game.ruleset, game.options, log, seats, settings.STRATEGY_DIR,
            build_missing=build_missing,
        )
    options = get_ruleset(TEN_THOUSAND).validate_options(game.options)
    tables = load_tables(
        options["bank_minimum"], settings.STRATEGY_DIR, build_missing=build_missing is not False
    )
    return analyse_ten_thousand(
        tables, options, len(game.state["totals"]), log, seats,
        finished=game.status == GameStatus.FINISHED, winners=game.state["winners"],
    )


def seat_accuracies(*, games: Iterable[Game]) -> dict[tuple[uuid.UUID, int], float]:
    """The accuracy of each seat (person or computer) in each finished game among
    ``games`` whose ruleset can be analysed, keyed by ``(game id, seat)``.

    A seat that made no decision (it left before its first roll) has no entry; nor has
    any seat of an unfinished game or of a ruleset without analysis. Accuracy is the
    share, in percent, of the expected score that the seat's decisions kept (see
    :func:`scoring.strategy.analysis.accuracy_of`); the classroom roster averages it per
    ruleset.

    A finished game's log never changes, so its accuracies are kept in the cache (Django's
    cache framework, shared by every process where one is configured) under a key made of
    the game, its last event and the digest of the rules its table was solved from: a
    cached figure is always the one the log implies. Games not in the cache cost one query
    (all their logs at once) and a few milliseconds each; cached games cost none.
    """
    finished = [
        game for game in games
        if game.status == GameStatus.FINISHED and _analysable_game(game) and _ready(game)
    ]
    keys = {game.pk: _accuracy_key(game) for game in finished}
    cached = _cache_get(list(keys.values()))
    missing = {game.pk: game for game in finished if keys[game.pk] not in cached}
    logs: dict[uuid.UUID, list[dict[str, Any]]] = {game_id: [] for game_id in missing}
    if missing:
        events = (
            Event.objects.filter(
                game_id__in=list(missing), type__in=(*DECISION_EVENTS, *TEN_THOUSAND_EVENTS)
            )
            .order_by("game_id", "seq")
            .values("game_id", "seq", "type", "seat", "data")
        )
        for event in events:
            logs[event.pop("game_id")].append(event)
    fresh: dict[str, Accuracies] = {}
    for game_id, log in logs.items():
        game = missing[game_id]
        seats = sorted({event["seat"] for event in log if event["seat"] is not None})
        analysis = _analyse(game, log, seats)
        fresh[keys[game_id]] = [
            [seat.seat, seat.accuracy] for seat in analysis.seats if seat.accuracy is not None
        ]
    _cache_set(fresh)
    by_key = {**cached, **fresh}
    return {
        (game.pk, seat): accuracy
        for game in finished
        for seat, accuracy in by_key[keys[game.pk]]
    }


def seat_accuracy(*, game: Game, seat: int) -> float | None:
    """The accuracy of one seat in a finished game (None: see :func:`seat_accuracies`)."""
    return seat_accuracies(games=[game]).get((game.pk, seat))


ACCURACY_CACHE_SECONDS = 30 * 24 * 3600


def _ready(game: Game) -> bool:
    """Whether the game's table is loaded (a missing one is built in the background, and
    its games' accuracies are left out until then: a roster never waits for a build)."""
    try:
        _digest(game)
    except (FileNotFoundError, StaleTable):
        build_in_background(ruleset_id=game.ruleset, options=game.options)
        return False
    return True


def _digest(game: Game) -> str:
    """The digest of the rules the game's loaded table was solved from (never built here)."""
    folder = settings.STRATEGY_DIR
    if game.ruleset == TEN_THOUSAND:
        minimum = get_ruleset(TEN_THOUSAND).validate_options(game.options)["bank_minimum"]
        return load_tables(minimum, folder, build_missing=False).meta["rules_digest"]
    strategy = load_strategy(game.ruleset, game.options, folder, build_missing=False)
    return strategy.table.meta.get("engine_digest", "")


def _accuracy_key(game: Game) -> str:
    return f"dice:analysis:accuracy:{game.pk}:{game.last_seq}:{_digest(game)}"


# Per game, [seat, accuracy] pairs: plain lists, whatever serializer the cache uses.
Accuracies = list[list[Any]]


def _cache_get(keys: list[str]) -> dict[str, Accuracies]:
    """Whatever the cache holds of ``keys``; nothing if the cache cannot be reached."""
    if not keys:
        return {}
    try:
        return cache.get_many(keys)
    except Exception:  # an unreachable cache only costs the computation
        logger.warning("analysis: the cache cannot be read", exc_info=True)
        return {}


def _cache_set(entries: dict[str, Accuracies]) -> None:
    if not entries:
        return
    try:
        cache.set_many(entries, ACCURACY_CACHE_SECONDS)
    except Exception:  # an unreachable cache only costs the computation next time
        logger.warning("analysis: the cache cannot be written", exc_info=True)
