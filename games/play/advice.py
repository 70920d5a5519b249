"""Advice for a game's current seat, from the strategy tables or the strongest computer player.

The advice is the solitaire-optimal move: in a game of several seats it ignores the other
players' scores (maximising one's own expected final score, not the chance of winning).
"""

import random
from typing import Any

from django.conf import settings

from games.models import Game
from games.play.errors import ServiceError
from games.play.strategy import strategy_load
from scoring import get_ruleset
from scoring.match import GameStatus
from scoring.strategy import SUPPORTED, Advice, advise_with, computer_command


def advice_body(advice: Advice) -> dict[str, Any]:
    """The API's shape: expected finals rounded to 4 places, the best move, every option."""

    def shown(option: dict[str, Any] | None) -> dict[str, Any] | None:
        if option is None:
            return None
        return {**option, "expected_final": round(option["expected_final"], 4)}

    return {
        "method": "optimal",
        "expected_final": round(advice.expected_final, 4),
        "best": shown(advice.best),
        "options": [shown(option) for option in advice.options],
    }


def game_hint(game: Game) -> dict[str, Any]:
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
        return {"seat": seat, **advice_body(advice)}
    # No table for this ruleset: the move the strongest computer player would make.
    command = computer_command(
        ruleset,
        game.state,
        level="optimal",
        options=game.options,
        rng=random.Random(game.version),
        folder=settings.STRATEGY_DIR,
    )
    return {
        "seat": seat,
        "method": "heuristic",
        "expected_final": None,
        "best": {"action": command.action, **command.args()},
        "options": [],
    }
