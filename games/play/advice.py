"""Advice for a game's current seat and for any position, from the solved tables.

Box games (Yahtzee, Yatzy, Forced Yatzy): the solitaire-optimal move, which in a game of
several seats ignores the other players' scores. Ten Thousand: the game's own objective,
the chance of winning against the one other seat in play or the fewest turns alone (with
the documented approximation beyond that: see ``scoring.tenthousand.strategy.advice``).
Maxi Yatzy has no table: its hint is the move the strongest computer player would make.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

from games.models import Game
from games.play.errors import ServiceError
from games.play.strategy import table_load, ten_thousand_tables
from scoring import ProblemCode, family_of, get_ruleset
from scoring.boxgames.strategy import Advice
from scoring.match import GameStatus
from scoring.strategy.players import computer_command
from scoring.tenthousand.strategy.advice import (
    Position,
    TenThousandAdvice,
    advise_position,
    check_position,
)


@dataclass(frozen=True)
class Hint:
    """The advice for the seat to move: from the strategy tables where its ruleset's family
    has them (``advice``: that family's advice), else the move the strongest computer
    player would make (``move``, as ``{"action": ..., **arguments}``)."""

    seat: int
    family: str
    advice: Advice | TenThousandAdvice | None = None
    move: dict[str, Any] | None = None


def game_hint(game: Game) -> Hint:
    if game.status != GameStatus.ACTIVE:
        raise ServiceError(
            ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is {status}"), status=game.status
        )
    ruleset = get_ruleset(game.ruleset)
    view = game.view()
    seat = view.current_seat
    if seat is None:  # an active game always has a seat to move
        raise ServiceError(ProblemCode.GAME_NOT_ACTIVE, gettext_noop("no seat is to move"))
    family = family_of(ruleset)
    if family.solved(ruleset):
        options = ruleset.validate_options(game.options)
        advice = family.advise(
            ruleset, game.state, options, table_load(ruleset=ruleset, options=game.options)
        )
        return Hint(seat, family.id, advice=advice)
    # No table for this ruleset: the move the strongest computer player would make.
    command = computer_command(
        ruleset,
        game.state,
        level="optimal",
        options=game.options,
        rng=random.Random(game.version),
        folder=settings.STRATEGY_DIR,
    )
    return Hint(seat, family.id, move={"action": command.action, **command.args()})


def ten_thousand_advice(
    *,
    options: Mapping[str, Any],
    totals: Sequence[int],
    turn_points: int,
    dice: Sequence[int] | None,
) -> TenThousandAdvice:
    """Every option of a Ten Thousand position described by the caller: ``totals`` the
    seat's own and, in a game of two, the other's; ``dice`` the throw to decide on (None
    before a throw of all six dice). ``options`` are the game's, validated. With a final
    round and the other's total at the target, the position is the seat's last turn."""
    others = tuple(totals[1:])
    # A final round: the other has reached the target, this seat's last turn must beat it.
    reached = options["final_round"] and others and max(others) >= options["target"]
    position = Position(
        totals[0], others, turn_points, None if dice is None else tuple(dice),
        max(others) if reached else None,
    )
    # A position no game reaches (or one already over) is refused before any table is
    # read: a refusal neither waits for a table nor starts the build of one.
    check_position(options, position)
    tables = ten_thousand_tables(options=options)
    return advise_position(tables, options, position)
