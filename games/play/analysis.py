"""Game analysis: a game's log scored against optimal solitaire play.

The computation is :mod:`scoring.boxgames.strategy.analysis`; this module reads the game, its seats
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
from django.utils.translation import gettext_noop

from games.models import Event, Game, Player
from games.play.errors import ServiceCode, ServiceError
from games.play.privacy import Viewer, private_game, require_visible
from games.play.strategy import table_load
from scoring import RULESETS, family_of, get_ruleset
from scoring.boxgames.strategy.analysis import Analysis
from scoring.errors import Words
from scoring.tenthousand.strategy.analysis import TenThousandAnalysis

Seats = Literal["persons", "all"]


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a game, with the seats it covers (for their names)."""

    game: Game
    players: list[Player]
    analysis: Analysis | TenThousandAnalysis


def analysable(ruleset_id: str) -> bool:
    """Whether games of this ruleset can be analysed (its optimal strategy is solved)."""
    ruleset = RULESETS.get(ruleset_id)
    return ruleset is not None and family_of(ruleset).solved(ruleset)


def analysable_game(game: Game) -> bool:
    """Whether this game can be analysed: its ruleset's, and what its family asks of a game
    (Ten Thousand: one or two seats)."""
    return analysable(game.ruleset) and _refusal(game) is None


def _refusal(game: Game) -> Words | None:
    ruleset = get_ruleset(game.ruleset)
    return family_of(ruleset).analysis_refusal(ruleset, game.state)


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
        raise ServiceError(ServiceCode.NOT_FOUND, gettext_noop("no game with this id"))
    require_visible(private_game(game), viewer or Viewer())
    if not analysable(game.ruleset):
        known = ", ".join(ruleset for ruleset in RULESETS if analysable(ruleset))
        raise ServiceError(
            ServiceCode.ANALYSIS_UNAVAILABLE,
            gettext_noop("{game} games cannot be analysed: analysis is available for {known}"),
            game=get_ruleset(game.ruleset).name, known=known,
        )
    refusal = _refusal(game)
    if refusal is not None:
        raise ServiceError(
            ServiceCode.ANALYSIS_UNAVAILABLE, refusal.message, field=None, **refusal.params
        )
    # The table is loaded, or the answer is 503 strategy_unavailable: never built here.
    table_load(ruleset=get_ruleset(game.ruleset), options=game.options)
    players = list(Player.objects.filter(game=game).order_by("seat"))
    chosen = [p for p in players if seats == "all" or p.computer is None]
    return GameAnalysis(game, chosen, analysis_of(game, [p.seat for p in chosen]))


def analysis_of(
    game: Game, seats: Iterable[int], *, build_missing: bool | None = None
) -> Analysis | TenThousandAnalysis:
    """The analysis of ``seats`` of an analysable game (one query: its log, made only once
    the table is loaded). ``build_missing=False`` raises rather than solve a missing table
    (``FileNotFoundError``, ``StaleTable``), for pages that must answer at once."""
    types = family_of(game.ruleset).analysis_events
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
    """The analysis of ``seats`` from the game's ``log``, by its ruleset's family."""
    ruleset = get_ruleset(game.ruleset)
    family = family_of(ruleset)
    table = family.load_table(
        ruleset, game.options, settings.STRATEGY_DIR, build_missing=build_missing is not False
    )
    return family.analyse(ruleset, game.state, game.options, table, log, seats)
