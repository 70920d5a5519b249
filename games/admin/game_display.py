"""How the admin shows a game: the engine's view of its state and the analysis of its
decisions (each worked out once per game object, and a failure of either shown, not
raised: a damaged game is when an admin looks at it), seat labels, JSON and scorecards.
Shared by the game's page, its rows (``game_rows``) and the other admin pages."""

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.models import Game
from games.play.analysis import analysable, analysis_of
from scoring import RuleError, View, get_ruleset
from scoring.boxgames.strategy import StaleTable
from scoring.boxgames.strategy.analysis import Decision, SeatAnalysis
from scoring.match import GameStatus
from scoring.tenthousand.strategy.analysis import Decision as TenThousandDecision

logger = logging.getLogger("games.admin.games")

EMPTY = "-"  # as the admin shows an empty value
# The statuses of a game that is not over: only these may still be changed here.
OPEN_STATUSES = frozenset({GameStatus.WAITING, GameStatus.ACTIVE})
_NO_VIEW = "_admin_no_engine_view"
_ANALYSIS_CACHE = "_admin_analysis"


# -- helpers -----------------------------------------------------------------------------


def engine_view(game: Game) -> View | None:
    """The engine's view of the game's state (``Game.view``, worked out once per state).

    ``None`` when the engine cannot read the state (a retired ruleset, a damaged state):
    the admin must still open such a game, since that is when admins look at it. That
    failure is remembered for the game object too, so a page reports it once.
    """
    if vars(game).get(_NO_VIEW):
        return None
    try:
        return game.view()
    except Exception:  # any failure of the engine is shown as "no view"
        logger.warning("admin: no engine view of game %s", game.pk, exc_info=True)
        vars(game)[_NO_VIEW] = True
        return None


@dataclass(frozen=True)
class Review:
    """A game's analysis as the page reads it: per seat, and per event that decided."""

    seats: dict[int, SeatAnalysis]
    decisions: dict[int, Decision | TenThousandDecision]


def game_review(game: Game) -> Review | None:
    """The analysis of every seat of the game, computed once per game object.

    ``None`` when the ruleset has no analysis, its table is not built yet, or the log
    cannot be analysed (logged): the page shows the game without it.
    """
    if _ANALYSIS_CACHE not in vars(game):
        review: Review | None = None
        if analysable(game.ruleset):
            seats = [player.seat for player in game.players.all()]
            try:
                analysis = analysis_of(game, seats, build_missing=False)
                review = Review(
                    seats={seat.seat: seat for seat in analysis.seats},
                    decisions={decision.seq: decision for decision in analysis.decisions},
                )
            except (FileNotFoundError, StaleTable):
                logger.info("admin: no strategy table yet to analyse game %s", game.pk)
            except Exception:  # a damaged log, say: show the game without its analysis
                logger.warning("admin: no analysis of game %s", game.pk, exc_info=True)
        vars(game)[_ANALYSIS_CACHE] = review
    return vars(game)[_ANALYSIS_CACHE]


def shown_option(option: Any) -> str:
    """A keep as ``keep 1 1 6``, a box by its id."""
    return option if isinstance(option, str) else "keep " + " ".join(map(str, option))


def seat_view(game: Game, seat: int) -> Mapping[str, Any] | None:
    view = engine_view(game)
    if view is None or not 0 <= seat < len(view.players):
        return None
    return view.players[seat]


def seat_label(game: Game, seat: int | None) -> str:
    """``"0 · Ann"`` for a seat number, from the game's (prefetched) players."""
    if seat is None:
        return EMPTY
    names = {player.seat: player.name for player in game.players.all()}
    return f"{seat} · {names[seat]}" if seat in names else str(seat)


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def json_code(value: Any) -> SafeString:
    return format_html(
        '<code style="white-space: pre-wrap; word-break: break-word">{}</code>',
        compact_json(value),
    )


def category_names(ruleset_id: str) -> dict[str, tuple[str, str]]:
    """Each category of the ruleset by id: its name and its section, in the card's order."""
    try:
        categories = get_ruleset(ruleset_id).categories
    except RuleError:
        return {}
    return {category.id: (category.name, category.section) for category in categories}


def scorecard_table(ruleset_id: str, card: Mapping[str, Any]) -> SafeString:
    """A small table of the card, one column pair per section (upper, lower)."""
    known = category_names(ruleset_id)
    # The ruleset's order, not the stored one: a JSON column need not keep key order.
    boxes = [box for box in known if box in card] + sorted(box for box in card if box not in known)
    sections: dict[str, list[tuple[str, Any]]] = {}
    for box in boxes:
        name, section = known.get(box, (box, ""))
        points = card[box]
        sections.setdefault(section, []).append((name, EMPTY if points is None else points))
    columns = list(sections.values())
    height = max((len(column) for column in columns), default=0)
    rows = []
    for i in range(height):
        cells = (column[i] if i < len(column) else ("", "") for column in columns)
        rows.append(
            format_html(
                "<tr>{}</tr>",
                format_html_join(
                    "",
                    '<th style="padding: 1px 6px">{}</th>'
                    '<td style="padding: 1px 6px; text-align: right">{}</td>',
                    cells,
                ),
            )
        )
    return format_html(
        '<table class="scorecard" style="margin: 0; font-size: 0.9em">{}</table>',
        format_html_join("", "{}", ((row,) for row in rows)),
    )
