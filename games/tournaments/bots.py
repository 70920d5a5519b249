"""What a tournament needs of bots (``games.arena``): looking them up to enter them, an
entrant's bot, a game's bots' seats given to their owners' streams, and the ``tournament``
events on those streams."""

import uuid
from collections.abc import Sequence
from typing import Any

from games.arena import owners
from games.models import Bot, Entrant, Player, Tournament


def bots_by_id(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Bot]:
    """The bots with these ids (deleted ones left out), by id. One query."""
    return {bot.id: bot for bot in Bot.objects.filter(pk__in=list(ids), deleted_at__isnull=True)}


def bot_columns(bot_id: uuid.UUID | None) -> dict[str, Any]:
    """An entrant row's columns naming its bot."""
    return {"bot_id": bot_id}


def seated(players: Sequence[Player]) -> None:
    """A new game's bots' seats: their owners' streams send ``seated`` (with the seat's
    token and the tournament). In the step's transaction."""
    owners.seats_given(players)


def status_changed(tournament: Tournament) -> None:
    """The owners of the tournament's bots (a student, or the teacher) hear its new status
    on their keys' streams, in the step's transaction."""
    bot_ids = Entrant.objects.filter(tournament=tournament, bot__isnull=False).values_list(
        "bot_id", flat=True
    )
    owners.tournament_changed(
        tournament_id=tournament.id,
        status=str(tournament.status),
        bot_ids=[bot_id for bot_id in bot_ids if bot_id is not None],
    )
