"""Game analysis: a game's log scored against optimal solitaire play.

The computation is :mod:`scoring.strategy.analysis`; this module reads the game, its seats
and the part of its log that holds decisions, in a fixed number of queries, and hands them
over. The endpoint's analysis is not stored: a whole game takes a few milliseconds with
the table loaded, and computed from the log each time it can never differ from what the
log says.

A classroom's figures (the roster's and an assignment's mean accuracy) are not read from
here on each request: each finished student game's accuracies are kept once, by
:mod:`games.classrooms.figures`, which calls :func:`analysis_of`.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings

from games.models import Event, Game, Player
from games.play.errors import ServiceError
from games.play.privacy import Viewer, private_game, require_visible
from games.play.strategy import strategy_load, ten_thousand_tables
from scoring import ProblemCode, get_ruleset
from scoring.match import GameStatus
from scoring.state import ten_thousand_options
from scoring.strategy import SUPPORTED
from scoring.strategy.analysis import Analysis, analyse
from scoring.strategy.tenthousand_analysis import EVENTS as TEN_THOUSAND_EVENTS
from scoring.strategy.tenthousand_analysis import TenThousandAnalysis, analyse_ten_thousand
from scoring.strategy.tenthousand_tables import load_tables

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


def analysable_game(game: Game) -> bool:
    """Whether this game can be analysed: its ruleset's, and for Ten Thousand its seats'."""
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
        raise ServiceError(ProblemCode.NOT_FOUND, "no game with this id")
    require_visible(private_game(game), viewer or Viewer())
    if not analysable(game.ruleset):
        known = ", ".join([*SUPPORTED, TEN_THOUSAND])
        raise ServiceError(
            ProblemCode.ANALYSIS_UNAVAILABLE,
            f"{game.ruleset} games cannot be analysed: analysis is available for {known}",
        )
    if not analysable_game(game):
        raise ServiceError(
            ProblemCode.ANALYSIS_UNAVAILABLE,
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
    log: Iterable[Mapping[str, Any]],
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
        ten_thousand_options(options)["bank_minimum"],
        settings.STRATEGY_DIR, build_missing=build_missing is not False
    )
    return analyse_ten_thousand(
        tables, options, len(game.state["totals"]), log, seats,
        finished=game.status == GameStatus.FINISHED, winners=game.state["winners"],
    )
