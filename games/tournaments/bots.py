"""What a tournament needs of bots: looking them up to enter them, an entrant's bot, and the
``tournament`` events on the streams of the bots' owners' keys."""

import uuid
from collections.abc import Sequence
from typing import Any

from games.models import Bot, Entrant, KeyNotice, Tournament


def bots_by_id(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Bot]:
    """The bots with these ids (deleted ones left out), by id. One query."""
    return {bot.id: bot for bot in Bot.objects.filter(pk__in=list(ids), deleted_at__isnull=True)}


def bot_columns(bot_id: uuid.UUID | None) -> dict[str, Any]:
    """An entrant row's columns naming its bot."""
    return {"bot_id": bot_id}


def status_changed(tournament: Tournament) -> None:
    """The owners of the tournament's bots (a student, or the teacher) hear its new status
    on their keys' streams: one notice per owner, in the step's transaction."""
    owners = (
        Entrant.objects.filter(tournament=tournament, bot__isnull=False)
        .values_list("bot__student_id", flat=True)
        .distinct()
    )
    data = {"tournament": str(tournament.id), "status": str(tournament.status)}
    KeyNotice.objects.bulk_create(
        KeyNotice(classroom_id=tournament.classroom_id, student_id=owner, event="tournament",
                  data=data)
        for owner in set(owners)
    )
