"""The games this process changed last, kept so that their next move needs no read.

A move used to take two round trips: the lock and read of the game and its seats, then the
writes and the commit. Most moves of a game come to the process that played the one before
(a client keeps its connection, and its connection stays with one worker), which then
already holds the game as it wrote it. Such a move is decided on a copy of that game and
written in one round trip, by an update that applies only if the game's row is still the
one this process wrote (``games.db.gamestore.game_update``): PostgreSQL gives every version
of a row the id of the transaction that wrote it (``xmin``), so any other writer of the game,
whichever code it runs, makes the kept copy stale. A stale copy costs one wasted round trip,
never a wrong write: the move is then decided again on the game read under its lock.

At most ``settings.GAMES_KEPT`` games are kept (the least recently changed are let go), and
only active or waiting ones: a game that is over takes no more moves.
"""

import copy
import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings

from games.models import Game, Player
from scoring.match import GameStatus

_lock = threading.Lock()
_games: "OrderedDict[Any, tuple[Game, list[Player]]]" = OrderedDict()

# The statuses of games that may still change by a move.
PLAYING = {GameStatus.ACTIVE, GameStatus.WAITING}


def keep(key: Any, game: Game, players: list[Player]) -> None:
    """Keeps the game (and its seats) as this process just wrote it; one whose row version
    is unknown, or that is over, is let go instead."""
    if game.__dict__.get("_xmin") is None or game.status not in PLAYING:
        drop(key)
        return
    with _lock:
        _games[key] = (game, list(players))
        _games.move_to_end(key)
        while len(_games) > settings.GAMES_KEPT:
            _games.popitem(last=False)


def take(key: Any) -> tuple[Game, list[Player]] | None:
    """A copy of the kept game and of its seats, to change as a read game would be; None if
    this process keeps no such game. The kept objects themselves are never changed: the
    request that wrote them may still be reading them, to answer."""
    with _lock:
        found = _games.get(key)
    if found is None:
        return None
    game, players = found
    mine = copy.copy(game)
    # A move replaces the state, never changes it in place; these two lists are copied so
    # that nothing done to this copy's can reach the kept game's.
    mine.timeouts, mine.winners = list(game.timeouts), list(game.winners)
    seats = [copy.copy(player) for player in players]
    for seat in seats:
        Player.game.field.set_cached_value(seat, mine)
    return mine, seats


def drop(key: Any) -> None:
    """Lets the game go (its copy proved stale, or it is over)."""
    with _lock:
        _games.pop(key, None)


def clear() -> None:
    """Lets every game go (tests start from a process that keeps none)."""
    with _lock:
        _games.clear()
