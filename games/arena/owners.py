"""Who owns a bot, and the news for the streams of that owner's keys.

A bot belongs to a student of a classroom, or to the classroom's teacher (``student`` null):
its owner. A key's stream (``GET /me/stream/``) follows its owner's bots, so a student's
rotated key keeps them. The stream reads what it sends from the games themselves
(``games.arena.feed``); it is told when to read again by notifications (``games.db.notify``):
a game's own, on the game's channel, and its owner's, on the channel of ``<channel>`` below,
which these functions send in the caller's transaction (PostgreSQL delivers them when it commits).
A tournament's new status is in no game row: it is written as a ``KeyNotice``.
"""

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from games.db.notify import channel_of
from games.models import Bot, KeyNotice, Player

NOTICES_KEPT = dt.timedelta(days=1)


@dataclass(frozen=True)
class Owner:
    """A student of ``classroom_id``, or its teacher (``student_id`` None)."""

    classroom_id: uuid.UUID
    student_id: uuid.UUID | None

    @property
    def channel(self) -> str:
        """The name its notifications carry where a game's carry the game's id."""
        return f"bots-{self.classroom_id}-{self.student_id or 'teacher'}"

    def bots(self) -> Q:
        """Its bots, as a filter of ``Bot``."""
        return Q(classroom_id=self.classroom_id, student_id=self.student_id)


def owner_of(bot: Bot) -> Owner:
    return Owner(bot.classroom_id, bot.student_id)


def tell(owners: Iterable[Owner]) -> None:
    """Wakes the streams of these owners' keys when the transaction commits (PostgreSQL;
    elsewhere streams read on their own every half second)."""
    channels = sorted({owner.channel for owner in owners})
    if not channels or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for channel in channels:
            cursor.execute("SELECT pg_notify(%s, %s)", [channel_of(channel), channel])


def seats_given(players: Sequence[Player]) -> None:
    """Bots were seated (``players``, bots' seats among them): their owners' streams send
    ``seated`` with each seat's token. Call it in the transaction that seated them."""
    bot_ids = {p.bot_id for p in players if p.bot_id is not None}
    if bot_ids and connection.vendor == "postgresql":  # elsewhere streams read on their own
        tell(_owners_of(bot_ids))


def tournament_changed(
    *, tournament_id: uuid.UUID, status: str, bot_ids: Iterable[uuid.UUID]
) -> None:
    """A tournament with these bots has a new ``status``: the streams of the bots' owners'
    keys open now send ``tournament`` ``{"tournament", "status"}``. In the caller's
    transaction, so it is sent exactly when the change is kept."""
    owners = _owners_of(set(bot_ids))
    data = {"tournament": str(tournament_id), "status": status}
    KeyNotice.objects.bulk_create(
        KeyNotice(classroom_id=o.classroom_id, student_id=o.student_id, event="tournament",
                  data=data)
        for o in owners
    )
    KeyNotice.objects.filter(created_at__lt=timezone.now() - NOTICES_KEPT).delete()
    tell(owners)


def _owners_of(bot_ids: set[uuid.UUID]) -> list[Owner]:
    rows = Bot.objects.filter(pk__in=bot_ids).values_list("classroom_id", "student_id")
    return sorted({Owner(c, s) for c, s in rows}, key=lambda o: o.channel)
