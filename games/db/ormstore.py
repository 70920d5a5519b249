"""A game's rows through Django's ORM, the plain way: ``DATABASE_WRITES=orm``.

The game store (``games.db.gamestore``) reads and writes a game with the hand-written SQL
of ``games.db.rows`` unless this setting says otherwise; this module is the other way, the
reference the hand-written statements are measured against (docs/operations.md, "The fast
path's switches"). A change is ``transaction.atomic()``; its lock is ``select_for_update()``,
which reads the database's time in the same statement (``games.db.clock``), then the seats;
its writes are ``save()`` and ``bulk_create()``, each its own round trip. The game's rows
are the same either way, and so is the notification of its events (a trigger on the table).
No game is kept between moves (``games.db.kept``): a kept game's write is guarded by a
hand-written ``UPDATE`` that the ORM has no way to say.
"""

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models.expressions import RawSQL

from games.db import clock
from games.models import Event, Game, Player, ScoreEntry


class Change(Protocol):
    """What a change adds and alters (``games.db.gamestore.Change``, which the store passes):
    named here by its shape, so that this module needs nothing of the store's."""

    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def entries(self) -> Sequence[ScoreEntry]: ...
    @property
    def totals(self) -> Sequence[Player]: ...

# The annotation that carries the database's time on the locked game (taken off it again).
_NOW = "store_now"


@contextmanager
def game_change() -> Iterator[None]:
    """The transaction of one change: Django's own atomic block."""
    with transaction.atomic():
        yield


def game_lock(game_id: Any) -> tuple[Game, list[Player], dt.datetime] | None:
    """The game locked until the transaction ends (``SELECT ... FOR UPDATE``, which SQLite
    leaves out: it locks the whole database as the transaction begins) with the database's
    time read in the same statement, once the lock is granted, then its seats in order;
    None for an id that is not a game's."""
    key = _key(game_id)
    if key is None:
        return None
    now = RawSQL(clock.now_sql(), (), output_field=models.DateTimeField())
    try:
        game = Game.objects.select_for_update().annotate(**{_NOW: now}).get(pk=key)
    except Game.DoesNotExist:
        return None
    moment = clock.moment(game.__dict__.pop(_NOW))
    clock.learn(moment)
    # Read through the game, so that each seat knows it without another query.
    players = list(game.players.order_by("seat"))
    return game, players, moment


def game_insert(game: Game, players: Sequence[Player], change: Change) -> None:
    """The new game, its seats (which get their ids), its events and its score entries."""
    game.save(force_insert=True)
    for player in players:
        player.save(force_insert=True)
    _added(change)


def game_update(
    game: Game, change: Change, *, changing: Sequence[str], joined: Sequence[Player] = ()
) -> None:
    """The game's next version (its ``changing`` fields), the totals that changed, the
    seats that joined, the events and the score entries."""
    game.version += 1
    game.save(update_fields=changing)
    for player in change.totals:
        if player.pk is not None:  # a seat joining now is inserted with its total
            player.save(update_fields=["total"])
    for player in joined:
        player.save(force_insert=True)
    _added(change)


def game_log(game_id: Any, *, after: int, limit: int) -> tuple[str, int, list[Event]] | None:
    """The game's status and last seq, and the first ``limit`` events after seq ``after``;
    None for an id that is not a game's."""
    key = _key(game_id)
    if key is None:
        return None
    found = Game.objects.filter(pk=key).values_list("status", "last_seq").first()
    if found is None:
        return None
    events = Event.objects.filter(game_id=key, seq__gt=after).order_by("seq")[:limit]
    return found[0], found[1], list(events)


def _added(change: Change) -> None:
    """The change's events, then its score entries (whose seats are saved by now)."""
    Event.objects.bulk_create(change.events)
    ScoreEntry.objects.bulk_create(change.entries)


def _key(game_id: Any) -> Any:
    """The game's id as the ORM takes it; None if it cannot be a game's id."""
    pk = Game._meta.pk
    assert pk is not None
    try:
        return pk.to_python(game_id)
    except ValidationError:
        return None
