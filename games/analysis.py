"""Game analysis: a game's log scored against optimal solitaire play.

The computation is :mod:`scoring.strategy.analysis`; this module reads the game, its seats
and the part of its log that holds decisions, in a fixed number of queries, and hands them
over. Nothing is stored: the analysis of a whole game takes a few milliseconds with the
table loaded, and computing it from the log each time means it can never differ from what
the log says.

:func:`seat_accuracies` is the entry point for other parts of the service that want the
accuracy of finished games (the classroom roster's mean accuracy per ruleset).
"""

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings

from scoring.strategy import SUPPORTED
from scoring.strategy.analysis import Analysis, analyse

from .errors import ServiceError
from .models import Event, Game, Player

Seats = Literal["persons", "all"]
# The only events a decision is read from; the rest of the log is not loaded.
DECISION_EVENTS = ("rolled", "scored", "scratched")


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a game, with the seats it covers (for their names)."""

    game: Game
    players: list[Player]
    analysis: Analysis


def analysable(ruleset_id: str) -> bool:
    """Whether games of this ruleset can be analysed (its optimal strategy is solved)."""
    return ruleset_id in SUPPORTED


def game_analysis(*, game_id: Any, seats: Seats = "persons") -> GameAnalysis:
    """Every decision so far of the game's person seats (``seats="all"``: computer seats
    too), scored against optimal play. Three queries: the game, its seats, its log.

    Raises ``not_found`` for no such game and ``analysis_unavailable`` for a ruleset
    whose strategy is not solved (Maxi Yatzy, Ten Thousand).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", "no game with this id")
    if not analysable(game.ruleset):
        known = ", ".join(SUPPORTED)
        raise ServiceError(
            "analysis_unavailable",
            f"{game.ruleset} games cannot be analysed: analysis is available for {known}",
        )
    players = list(Player.objects.filter(game=game).order_by("seat"))
    chosen = [p for p in players if seats == "all" or p.computer is None]
    return GameAnalysis(game, chosen, analysis_of(game, [p.seat for p in chosen]))


def analysis_of(game: Game, seats: Iterable[int], *, build_missing: bool = True) -> Analysis:
    """The analysis of ``seats`` of an analysable game (one query: its log, made only once
    the table is loaded). ``build_missing=False`` raises rather than solve a missing table
    (``FileNotFoundError``, ``StaleTable``), for pages that must answer at once."""
    log = (
        Event.objects.filter(game=game, type__in=DECISION_EVENTS)
        .order_by("seq")
        .values("seq", "type", "seat", "data")
    )
    return analyse(
        game.ruleset, game.options, log, list(seats), settings.STRATEGY_DIR,
        build_missing=build_missing,
    )


def seat_accuracies(*, games: Iterable[Game]) -> dict[tuple[uuid.UUID, int], float]:
    """The accuracy of each seat (person or computer) in each finished game among
    ``games`` whose ruleset can be analysed, keyed by ``(game id, seat)``.

    A seat that made no decision (it left before its first roll) has no entry; nor has
    any seat of an unfinished game or of a ruleset without analysis. Accuracy is the
    share, in percent, of the expected score that the seat's decisions kept (see
    :func:`scoring.strategy.analysis.accuracy_of`); the classroom roster averages it per
    ruleset. One query (the logs of every game given), whatever the number of games.
    """
    finished = {
        game.pk: game
        for game in games
        if game.status == Game.Status.FINISHED and analysable(game.ruleset)
    }
    logs: dict[uuid.UUID, list[dict[str, Any]]] = defaultdict(list)
    events = (
        Event.objects.filter(game_id__in=list(finished), type__in=DECISION_EVENTS)
        .order_by("game_id", "seq")
        .values("game_id", "seq", "type", "seat", "data")
    )
    for event in events if finished else ():
        logs[event.pop("game_id")].append(event)
    accuracies = {}
    for game_id, log in logs.items():
        game = finished[game_id]
        seats = sorted({event["seat"] for event in log})
        for seat in _analyse(game, log, seats).seats:
            if seat.accuracy is not None:
                accuracies[(game_id, seat.seat)] = seat.accuracy
    return accuracies


def seat_accuracy(*, game: Game, seat: int) -> float | None:
    """The accuracy of one seat in a finished game (None: see :func:`seat_accuracies`)."""
    return seat_accuracies(games=[game]).get((game.pk, seat))


def _analyse(game: Game, log: Iterable[dict[str, Any]], seats: list[int]) -> Analysis:
    return analyse(game.ruleset, game.options, log, seats, settings.STRATEGY_DIR)
