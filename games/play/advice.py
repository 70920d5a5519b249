"""Advice for a game's current seat, from the strategy tables or the strongest computer player.

The advice is the solitaire-optimal move: in a game of several seats it ignores the other
players' scores (maximising one's own expected final score, not the chance of winning).
"""

import random
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.models import Game
from games.play.errors import ServiceError
from games.play.strategy import strategy_load
from scoring import get_ruleset
from scoring.match import GameStatus
from scoring.strategy import SUPPORTED, Advice, advise_with, computer_command


@dataclass(frozen=True)
class Hint:
    """The advice for the seat to move: from the strategy tables (``advice``) where its
    ruleset has them, else the move the strongest computer player would make (``move``,
    as ``{"action": ..., **arguments}``)."""

    seat: int
    advice: Advice | None = None
    move: dict[str, Any] | None = None


def game_hint(game: Game) -> Hint:
    if game.status != GameStatus.ACTIVE:
        raise ServiceError("game_not_active", f"the game is {game.status}")
    ruleset = get_ruleset(game.ruleset)
    view = ruleset.view(game.state, options=game.options)
    seat = view.current_seat
    if ruleset.id in SUPPORTED:
        player = view.players[seat]
        dice = view.turn["dice"]
        advice = advise_with(
            strategy_load(ruleset_id=ruleset.id, options=game.options),
            player["scorecard"],
            player.get("yahtzee_bonus", 0),
            dice,
            view.turn["rolls_left"] if dice is not None else None,
        )
        return Hint(seat, advice=advice)
    # No table for this ruleset: the move the strongest computer player would make.
    command = computer_command(
        ruleset,
        game.state,
        level="optimal",
        options=game.options,
        rng=random.Random(game.version),
        folder=settings.STRATEGY_DIR,
    )
    return Hint(seat, move={"action": command.action, **command.args()})
