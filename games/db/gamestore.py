"""A game's rows: the one place that locks, reads and writes a game with its seats.

Every change to a game writes through here: a create inserts the game, its seats, its first
events and any score entries (``game_insert``); a join, a move, a leave or an abandon locks
the game and reads its seats (``game_lock``), then writes the game's new version, the totals
that changed, a joining seat, the events and the entries (``game_update``). The services
decide what changes, from the rules engine's outcome; this module only stores it, with the
plain SQL of ``games.db.rows``. On PostgreSQL each step is one round trip: a create is one,
any other change two (the lock and read, then the writes). A move of a game this process
wrote last is one: it is decided on the game as this process kept it (``kept_game_take``;
``games.db.kept``), and its writes apply only if nobody has written the game since.

The live event streams read a game's log here too (``game_log``), without a lock.

With ``settings.DATABASE_WRITES = "orm"`` every one of these reads and writes goes through
Django's ORM the plain way instead (``games.db.ormstore``), and no game is kept: the same
rows, the same answers, more round trips. The public functions here are the one seam either
way; they read the setting once.
"""

import datetime as dt
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.signals import setting_changed
from django.db import DatabaseError, connection, models
from django.db.models.functions import Now
from django.dispatch import receiver

from games.db import clock, kept, ormstore, rows
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
class GameAtHand:
    """A game a change is decided on, its seats in order, and the database's time the change
    is made at (``games.db.clock``). ``locked``: the game was read under its row's lock
    (:func:`game_lock`); otherwise it is this process's kept copy (:func:`kept_game_take`),
    locked by nothing, and the change's write is guarded instead (:func:`game_update`)."""

    game: Game
    players: list[Player]
    now: dt.datetime
    locked: bool = True


# The SQLSTATE that ``games_stale()`` raises (migration 0015): a kept game was written since.
STALE = "GS001"


class Stale(Exception):
    """A change decided on a kept game (``kept_game_take``) was not written: somebody wrote the
    game after this process did. Nothing of the change was; decide it again on the game
    read under its lock (``game_lock``)."""


@cache
def _by_orm() -> bool:
    """Whether the ORM reads and writes games (``settings.DATABASE_WRITES``): read once."""
    return bool(settings.DATABASE_WRITES == "orm")


@receiver(setting_changed)
def _writes_changed(*, setting: str, **kwargs: Any) -> None:
    """A test that changes the setting is taken at its word from its next change."""
    if setting == "DATABASE_WRITES":
        _by_orm.cache_clear()


@contextmanager
def game_change() -> Iterator[None]:
    """The transaction of one change to a game (``transaction.atomic()`` in fewer round trips:
    ``games.db.rows.change``): its lock opens it, its writes end it. Raises :class:`Stale`
    when the change was decided on a kept game that somebody wrote since."""
    if _by_orm():
        with ormstore.game_change():
            yield
        return
    try:
        with rows.change():
            yield
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) == STALE:
            raise Stale from error
        raise


def game_lock(game_id: Any) -> GameAtHand | None:
    """The game, its row locked until the transaction ends, its seats in order and the
    database's time; None for an id that is not a game's.

    One round trip on PostgreSQL: the seats are read after the lock is granted, so they are
    those of the last change committed, and the time with the game's row. SQLite has no
    ``FOR UPDATE``; it locks the whole database when the transaction begins.
    """
    if _by_orm():
        found_orm = ormstore.game_lock(game_id)
        return None if found_orm is None else GameAtHand(*found_orm)
    key = _key(game_id)
    if key is None:
        return None
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    also = [clock.now_sql(), _XMIN if _versioned() else "NULL"]
    found, seats = rows.run([
        rows.select(Game, "id = %s", [key], tail=lock, also=also),
        rows.select(Player, "game_id = %s", [key], tail=" ORDER BY seat"),
    ])
    if not found:
        return None
    game = rows.instances(Game, found)[0]
    game.__dict__["_xmin"] = found[0][-1]
    players = rows.instances(Player, seats)
    for player in players:
        Player.game.field.set_cached_value(player, game)
    now = clock.moment(found[0][-2])
    clock.learn(now)
    return GameAtHand(game, players, now)


def kept_game_take(game_id: Any) -> GameAtHand | None:
    """A copy of the game as this process wrote it last, with its seats, and the database's
    time worked out without asking it (``clock.estimated``); None when this process keeps
    no such game (or PostgreSQL does not hold it, or the time is not known). Nothing is
    locked or read: the change's writes apply only if the game is still as kept
    (:func:`game_update`), or raise :class:`Stale`. Never with the ORM's writes, which
    cannot guard theirs."""
    if _by_orm() or not _versioned():
        return None
    key, now = _key(game_id), clock.estimated()
    if key is None or now is None:
        return None
    found = kept.take(key)
    if found is None:
        return None
    game, players = found
    return GameAtHand(game, players, now, locked=False)


def kept_game_remember(game: Game, players: list[Player]) -> None:
    """Keeps the game as this process just wrote it, for its next move (:func:`kept_game_take`)."""
    if _by_orm():
        return
    kept.keep(_key(game.pk), game, players)


def kept_game_drop(game_id: Any) -> None:
    """Lets a kept game go (its copy proved stale)."""
    kept.drop(_key(game_id))


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
    if _by_orm():
        ormstore.game_insert(game, players, change)
        return
    statement = rows.insert(Game, [game])[0]
    if _versioned():
        statement = _returning_xmin(statement, f", {clock.now_sql()}")
    _write([statement], players, change, written=game)
    _stored(game)


def game_update(
    game: Game, change: Change, *, joined: Sequence[Player] = (), guarded: bool = False
) -> None:
    """Writes a change to a game read by ``game_lock``: its version grows by one, its
    changing columns are written, and so are the totals that changed, the seats that
    ``joined`` (which get their ids), the events and the score entries.

    A ``guarded`` write (of a game from :func:`kept_game_take`) applies only if its row is
    still the version this process wrote (PostgreSQL's ``xmin``: any writer makes a new one),
    its clock has not run out and its assignment is not due, by the database's clock;
    otherwise the whole change fails with :class:`Stale`."""
    if _by_orm():
        ormstore.game_update(game, change, changing=CHANGING, joined=joined)
        return
    game.version += 1
    statements = [_game_update(game, guarded=guarded)]
    # A seat joining now is inserted with its total.
    statements.extend(
        rows.update(player, ["total"]) for player in change.totals if player.pk is not None
    )
    _write(statements, joined, change, written=game)


def game_log(game_id: Any, *, after: int, limit: int) -> tuple[str, int, list[Event]] | None:
    """The game's status and last seq, and the first ``limit`` events of its log after seq
    ``after``; None for an id that is not a game's. One round trip on PostgreSQL."""
    if _by_orm():
        return ormstore.game_log(game_id, after=after, limit=limit)
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


# A row's version as PostgreSQL numbers it: the id of the transaction that wrote it.
_XMIN = "xmin::text"


def _versioned() -> bool:
    """Whether the database numbers each version of a row (``_XMIN``): PostgreSQL."""
    return connection.vendor == "postgresql"


def _game_update(game: Game, *, guarded: bool) -> rows.Statement:
    """The update of a game's changing columns; on PostgreSQL it answers the row's new
    version, and a ``guarded`` one is guarded (:func:`game_update`) and answers the
    database's time too."""
    statement = rows.update(game, CHANGING)
    if not _versioned():
        return statement
    if not guarded:
        return _returning_xmin(statement)
    # Only the update's own SQL (the model's columns) is formatted in; values are parameters.
    sql = (
        f"WITH changed AS ({statement.sql} AND xmin = %s::xid AND version = %s"  # noqa: S608
        " AND (deadline IS NULL OR deadline > clock_timestamp())"
        " AND (due_at IS NULL OR due_at > clock_timestamp())"
        f" RETURNING {_XMIN} AS written)"
        " SELECT coalesce((SELECT written FROM changed), games_stale()), clock_timestamp()"
    )
    params = [*statement.params, game.__dict__["_xmin"], game.version - 1]
    return rows.Statement(sql, params, reads=True)


def _returning_xmin(statement: rows.Statement, also: str = "") -> rows.Statement:
    """The statement answering the new version of the row it writes (and ``also``)."""
    sql = f"{statement.sql} RETURNING {_XMIN}{also}"
    return rows.Statement(sql, statement.params, reads=True)


def _write(
    statements: list[rows.Statement],
    seats: Sequence[Player],
    change: Change,
    *,
    written: Game | None = None,
) -> None:
    """Runs ``statements``, then inserts the new ``seats``, reading back their ids, and the
    change's events and entries: all in one round trip on PostgreSQL, which in a
    :func:`game_change` is the one that commits it. ``written``: the game the first
    statement updates, which learns its row's new version from its answer."""
    seated = rows.insert(Player, seats, returning=("seat", "id"))

    def learned(results: list[list[tuple[Any, ...]]]) -> None:
        """The new row version of the game written, the database's time, the seats' ids."""
        if written is not None and results[0]:
            answer = results[0][0]
            written.__dict__["_xmin"] = answer[0]
            if len(answer) > 1:
                clock.learn(clock.moment(answer[1]))
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
    ], learned)


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
