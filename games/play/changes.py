"""The parts every change to a game shares (``games.play.services``): the game at hand,
locked or kept; the engine's match for its seats; what the engine decided set on the game
and its seats, with the rows the change adds; the turn clock and the assignment's deadline
by the database's clock; the moves counted for ``/metrics``; a request's fingerprint for
idempotent retries."""

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from functools import partial
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.db import gamestore
from games.db.clock import db_now
from games.models import Event, Game, Player, ScoreEntry
from games.observe.metrics import MOVES
from games.play import clocks
from games.play.errors import ServiceCode, ServiceError
from scoring import ProblemCode, get_ruleset
from scoring.commands import Command
from scoring.match import Match, Seat, status
from scoring.ruleset import Outcome
from scoring.strategy.players import computer_command


def match_of(game: Game, players: Sequence[Player] | Sequence[Seat]) -> Match:
    seats = [Seat(p.name, p.computer) for p in players]
    strategy = partial(computer_command, folder=settings.STRATEGY_DIR)
    return Match(get_ruleset(game.ruleset), game.options, seats, strategy)



# The events that each stand for one move (a Ten Thousand throw or bank after a selection
# writes set_aside first, counted with it).
MOVE_EVENTS = {"rolled", "held", "scored", "scratched", "banked", "passed"}


def count_moves(game: Game, outcome: Outcome) -> None:
    moves = sum(event.type in MOVE_EVENTS for event in outcome.events)
    if moves:
        MOVES.labels(game.ruleset).inc(moves)


def extend(outcome: Outcome, step: Outcome) -> None:
    outcome.state = step.state
    outcome.events.extend(step.events)
    outcome.entries.extend(step.entries)


def out_of_time(game: Game, now: dt.datetime) -> bool:
    return game.deadline is not None and now >= game.deadline


def set_clock(
    game: Game, players: Sequence[Player], *, moved: int | None, now: dt.datetime | None
) -> None:
    """The deadline after a change made at ``now`` by the database's clock (read here if the
    change has not read it: a new game), None without a clock; and the seats' timeouts in a
    row (the seat that ``moved`` moved in time). No task is queued: the worker's sweep finds
    the deadline on the game itself."""
    if game.clock_seconds is None:
        return
    game.deadline = clocks.next_deadline(game, players, now or db_now())
    game.timeouts = clocks.timeouts_after(game, len(players), moved=moved)


def check_not_due(game: Game, now: dt.datetime) -> None:
    """A game of an assignment is played until the assignment's deadline (by the database's
    clock), not after, whether or not the assignment's closing has run yet."""
    if game.due_at is not None and now >= game.due_at:
        raise ServiceError(
            ProblemCode.GAME_NOT_ACTIVE,
            gettext_noop("the assignment of this game is closed: it can no longer be played"),
        )


def game_at_hand(game_id: Any) -> gamestore.GameAtHand:
    """The game, locked until the change commits, and its seats; ``not_found`` if none."""
    found = gamestore.game_lock(game_id)
    if found is None:
        raise ServiceError(ServiceCode.NOT_FOUND, gettext_noop("no game with this id"))
    return found


def outcome_apply(game: Game, players: Sequence[Player], outcome: Outcome) -> gamestore.Change:
    """Sets what the engine decided on the game and its seats (state, status, log position,
    totals; the finish time and winners once it is over); the rows the change adds."""
    first_seq = game.last_seq + 1
    game.state = outcome.state
    view = game.view()
    game.status = status(outcome.state)
    game.open_seats = outcome.state.get("open_seats", 0)
    game.last_seq = first_seq + len(outcome.events) - 1
    if view.finished and game.finished_at is None:
        game.finished_at = timezone.now()
        game.winners = view.winners
    changed = [p for p in players if p.total != view.totals[p.seat]]
    for player in changed:
        player.total = view.totals[player.seat]
    by_seat = {player.seat: player for player in players}
    return gamestore.Change(
        events=[
            Event(game=game, seq=first_seq + i, type=e.type, seat=e.seat, data=e.data)
            for i, e in enumerate(outcome.events)
        ],
        entries=[
            ScoreEntry(
                game=game, player=by_seat[e.seat], category=e.category, points=e.points,
                round=e.round,
            )
            for e in outcome.entries
        ],
        totals=changed,
    )


def fingerprint(seat: int, command: Command) -> str:
    request = json.dumps(
        {"seat": seat, "action": command.action, "args": command.args()}, sort_keys=True
    )
    return hashlib.sha256(request.encode()).hexdigest()
