"""What a tournament needs of bots: looking them up to enter them, an entrant's bot, a bot's
seat given to its key, and the ``tournament`` events on the bots' keys' streams."""

import uuid
from collections.abc import Sequence
from typing import Any

from games.models import Bot, Entrant, Player, Tournament
from games.play.services import Played


def bots_by_id(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Bot]:
    """The bots with these ids (deleted ones left out), by id. One query."""
    return {bot.id: bot for bot in Bot.objects.filter(pk__in=list(ids), deleted_at__isnull=True)}


def bot_columns(bot_id: uuid.UUID | None) -> dict[str, Any]:
    """An entrant row's columns naming its bot."""
    return {"bot_id": bot_id}


def seated(tournament: Tournament, played: Played, entrants: Sequence[Entrant]) -> None:
    """The seats of a new game that are bots' name their bots, and are given to their keys
    (``seated``)."""
    for player, entrant in zip(played.players, entrants, strict=True):
        if entrant.bot_id is None:
            continue
        player.bot_id = entrant.bot_id
        Player.objects.filter(game_id=played.game.pk, seat=player.seat).update(
            bot_id=entrant.bot_id
        )


def status_changed(tournament: Tournament) -> None:
    """The keys of the tournament's bots hear its new status."""
