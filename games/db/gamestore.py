"""A game's rows: the one place that locks, reads and writes a game with its seats.

Every change to a game writes through here: a create inserts the game, its seats, its first
events and any score entries (``game_insert``); a join, a move, a leave or an abandon locks
the game and reads its seats (``game_lock``), then writes the game's new version, the totals
that changed, a joining seat, the events and the entries (``game_update``). The services
decide what changes, from the rules engine's outcome; this module only stores it, with the
plain SQL of ``games.db.rows``. On PostgreSQL each step is one round trip: a create is one,
any other change two (the lock and read, then the writes).

The live event streams read a game's log here too (``game_log``), without a lock.
"""

import datetime as dt
from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, models
from django.db.models.functions import Now

from games.db import clock, rows
from games.models import Event, Game, Player, ScoreEntry
from scoring.match import GameStatus

# The game's columns a change may alter; the others are fixed when the game is created.
CHANGING = [
    "state", "status", "open_seats", "last_seq", "updated_at", "finished_at", "winners", "version",
    "deadline", "timeouts",
]


@dataclass(frozen=True)
class Change:
    """The rows a change adds to its game's log and score sheet, and the seats whose total
    it changed (a new game's seats are inserted whole, totals included)."""

    events: Sequence[Event]
    entries: Sequence[ScoreEntry] = ()
    totals: Sequence[Player] = ()


@dataclass(frozen=True)
class Locked:
    """A game locked for a change, its seats in order, and the database's time when the lock
    was granted (the time the change is made at: ``games.db.clock``)."""

    game: Game
    players: list[Player]
    now: dt.datetime


def game_change() -> AbstractContextManager[None]:
    """The transaction of one change to a game (``transaction.atomic()`` in fewer round trips:
    ``games.db.rows.change``): its lock opens it, its writes end it."""
    return rows.change()


def game_lock(game_id: Any) -> Locked | None:
    """The game, its row locked until the transaction ends, its seats in order and the
    database's time; None for an id that is not a game's.

    One round trip on PostgreSQL: the seats are read after the lock is granted, so they are
    those of the last change committed, and the time with the game's row. SQLite has no
    ``FOR UPDATE``; it locks the whole database when the transaction begins.
    """
    key = _key(game_id)
    if key is None:
        return None
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    found, seats = rows.run([
        rows.select(Game, "id = %s", [key], tail=lock, also=[clock.now_sql()]),
        rows.select(Player, "game_id = %s", [key], tail=" ORDER BY seat"),
    ])
    if not found:
        return None
    game = rows.instances(Game, found)[0]
    players = rows.instances(Player, seats)
    for player in players:
        Player.game.field.set_cached_value(player, game)
    return Locked(game, players, clock.moment(found[0][-1]))


def game_due_clock(*, passed_over: Collection[Any] = ()) -> Any | None:
    """The id of an active game whose clock is due (its deadline passed, by the database's
    clock), locked until the transaction ends; games locked by another transaction are
    skipped, and so are ``passed_over``. None if there is none."""
    due = (
        Game.objects.select_for_update(skip_locked=True)
        .filter(deadline__lte=Now(), status=GameStatus.ACTIVE)
        .exclude(pk__in=list(passed_over))
        .order_by("deadline")
    )
    return due.values_list("pk", flat=True).first()


def game_insert(game: Game, players: Sequence[Player], change: Change) -> None:
    """Inserts a new game, at its first version, with its seats (which get their ids) and
    the change's events and score entries."""
    _write(rows.insert(Game, [game]), players, change)
    _stored(game)


def game_update(game: Game, change: Change, *, joined: Sequence[Player] = ()) -> None:
    """Writes a change to a game read by ``game_lock``: its version grows by one, its
    changing columns are written, and so are the totals that changed, the seats that
    ``joined`` (which get their ids), the events and the score entries."""
    game.version += 1
    statements = [rows.update(game, CHANGING)]
    # A seat joining now is inserted with its total.
    statements.extend(
        rows.update(player, ["total"]) for player in change.totals if player.pk is not None
    )
    _write(statements, joined, change)


def game_log(game_id: Any, *, after: int, limit: int) -> tuple[str, int, list[Event]] | None:
    """The game's status and last seq, and the first ``limit`` events of its log after seq
    ``after``; None for an id that is not a game's. One round trip on PostgreSQL."""
    key = _key(game_id)
    if key is None:
        return None
    found, events = rows.run([
        rows.select(Game, "id = %s", [key], fields=("status", "last_seq")),
        rows.select(
            Event, "game_id = %s AND seq > %s", [key, after, limit], tail=" ORDER BY seq LIMIT %s"
        ),
    ])
    if not found:
        return None
    status, last_seq = found[0]
    return status, last_seq, rows.instances(Event, events)


def _key(game_id: Any) -> Any:
    """The id as the database takes it; None if it cannot be a game's id."""
    pk = Game._meta.pk
    try:
        return pk.get_db_prep_value(pk.to_python(game_id), connection)
    except ValidationError:
        return None


def _write(statements: list[rows.Statement], seats: Sequence[Player], change: Change) -> None:
    """Runs ``statements``, then inserts the new ``seats``, reading back their ids, and the
    change's events and entries: all in one round trip on PostgreSQL, which in a
    :func:`game_change` is the one that commits it."""
    seated = rows.insert(Player, seats, returning=("seat", "id"))

    def seated_ids(results: list[list[tuple[Any, ...]]]) -> None:
        if seated:
            ids = dict(results[len(statements)])
            for seat in seats:
                seat.id = ids[seat.seat]
            _stored(*seats)

    rows.later([
        *statements,
        *seated,
        *rows.insert(Event, change.events),
        *rows.insert(ScoreEntry, change.entries, looked_up={"player": _seat_of}),
    ], seated_ids)


def _seat_of(entry: ScoreEntry) -> rows.Statement:
    """The id of an entry's seat, found by game and seat number: a seat inserted in the same
    round trip (a new game's, say) has no id yet."""
    return rows.select(
        Player, "game_id = %s AND seat = %s", [_key(entry.game_id), entry.player.seat],
        fields=["id"],
    )


def _stored(*objs: models.Model) -> None:
    """Marks objects just inserted as the ORM does once it has saved them."""
    for obj in objs:
        obj._state.adding = False
        obj._state.db = connection.alias
