"""Every change to a game: create it, play a command in it, abandon it.

Each change runs in one transaction with the game row locked: authorise and check the
request's conditions first, let the engine (``scoring.match``) decide, then write the
state, the version, the log, the score entries and any idempotency record together. A
refused change raises before anything is written, so it changes nothing. Services answer
plain data (the game and its seats); how that is shown is the caller's business.
"""

import datetime as dt
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

from games.db import gamestore
from games.hooks import services as hooks
from games.models import Game, IdempotencyRecord, Player
from games.observe.metrics import (
    CLOCK_TIMEOUTS,
    PLAYED_KEPT,
    PLAYED_READ,
    PLAYED_READ_AGAIN,
)
from games.play import changes, clocks, replays
from games.play.dice import Committed, commit, dice_for, mind_for
from games.play.errors import REFUSALS, ServiceCode, ServiceError
from games.play.privacy import bot_seat_token, hash_token, new_token, seat_for_token
from games.play.strategy import game_strategy_known, game_strategy_require, strategy_require
from scoring import ProblemCode, get_ruleset
from scoring.commands import TURN_MOVES, Command, Join, Leave
from scoring.match import GameStatus, Seat, status
from scoring.ruleset import Event as RuleEvent
from scoring.ruleset import Outcome
from scoring.state import Created, SeatListed
from scoring.strategy.players import computer_command, levels_for


@dataclass(frozen=True)
class Played:
    """A game after a change: its seats, the seat tokens the change created (shown once),
    whether the answer is the replay of an earlier request with the same key, and the moves
    its computer seats played within the change, by level (what the change cost)."""

    game: Game
    players: list[Player]
    tokens: dict[int, str] = field(default_factory=dict, repr=False)
    replayed: bool = False
    computer_moves: dict[str, int] = field(default_factory=dict)


# Called before the engine when computer seats may play within the change; it raises to
# refuse the change (the caller's budget for their work is spent), which then writes nothing.
ComputersMayPlay = Callable[[], None]


@dataclass(frozen=True)
class Assigned:
    """Game ``number`` of an assignment for one student: its dice are the assignment's
    ``number``-th secret with the client seed ``game-<number>`` (the same for every student),
    and it can be played, and is seen by the student and the teacher only, until ``due_at``."""

    assignment_id: uuid.UUID
    number: int
    secret: str = field(repr=False)  # every student's game k: never in a log line
    due_at: dt.datetime


def game_create(
    *,
    ruleset_id: str,
    options: dict[str, Any] | None,
    players: Sequence[Seat],
    open_seats: int = 0,
    seed: int | None = None,
    client_seed: str | None = None,
    student_id: uuid.UUID | None = None,
    classroom_id: uuid.UUID | None = None,
    assigned: Assigned | None = None,
    clock: clocks.Clock | None = None,
    bots: Mapping[int, uuid.UUID] | None = None,
    marks: dict[str, Any] | None = None,
) -> Played:
    """A new game; with open seats it waits for others to join (or for a ``start``).

    A game with no person seat and no open seat is played to its end within this call.
    ``student_id``: the student whose API key created it, in ``classroom_id``; the game then
    belongs to them. ``client_seed`` goes into every die's derivation (a random one if None).
    ``bots``: the seats that bots hold (``games.arena``), each with its bot's id; their tokens
    are derived (``bot_seat_token``), for the bot's owner's stream to give.
    ``marks``: columns a caller sets itself (a tournament's game: its board's dice, its number).
    """
    # Strategy tables first, outside any lock: a missing one is a 503, never a build here.
    if any(p.computer == "optimal" for p in players):
        strategy_require(ruleset_id=ruleset_id, options=options)
    ruleset = get_ruleset(ruleset_id)
    chosen = ruleset.validate_options(options)
    _check_computers(ruleset.id, players)
    # Game k of an assignment throws from the assignment's k-th secret; any other game from
    # a secret of its own (its seed's, if seeded).
    dice = (
        Committed(assigned.secret, f"game-{assigned.number}")
        if assigned is not None
        else commit(seed=seed, client_seed=client_seed)
    )
    game = Game(
        ruleset=ruleset.id,
        options=chosen,
        ranked=seed is None,
        seed=seed,
        dice_secret=dice.secret,
        client_seed=dice.client_seed,
        student_id=student_id,
        classroom_id=classroom_id,
    )
    if clock is not None:
        game.clock_seconds, game.clock_max_timeouts = clock.turn_seconds, clock.max_timeouts
    if assigned is not None:
        game.ranked, game.dice_sealed = False, True
        game.assignment_id, game.assignment_game = assigned.assignment_id, assigned.number
        game.due_at = assigned.due_at
    for name, value in (marks or {}).items():
        setattr(game, name, value)
    match = changes.match_of(game, players)
    outcome = match.new(open_seats=open_seats, dice=dice_for(game), mind=mind_for(game))
    bots = bots or {}
    tokens = {seat: bot_seat_token(game.pk, seat) if seat in bots else new_token()
              for seat, p in enumerate(players) if p.computer is None}
    seats: list[SeatListed] = [
        {"seat": s, "name": p.name, "computer": p.computer} for s, p in enumerate(players)
    ]
    created: Created = {
        "ruleset": ruleset.id, "options": chosen, "seed": seed, "players": seats,
        "open_seats": open_seats,
    }
    outcome.events.insert(0, RuleEvent("created", None, created))
    seated = [
        Player(
            game=game,
            seat=seat,
            name=p.name,
            computer=p.computer,
            token_hash=hash_token(tokens[seat]) if seat in tokens else "",
            bot_id=bots.get(seat),
        )
        for seat, p in enumerate(players)
    ]
    change = changes.outcome_apply(game, seated, outcome)
    changes.set_clock(game, seated, moved=None, now=None)
    with gamestore.game_change():
        gamestore.game_insert(game, seated, change)
        hooks.game_changed(game, seated, before=None)
    game_strategy_known(
        game_id=game.pk, ruleset_id=ruleset.id, options=chosen,
        computers=[p.computer for p in players],
    )
    return _played(Played(game=game, players=seated, tokens=tokens), outcome)


def game_play(
    *,
    game_id: Any,
    token: str | None,
    command: Command,
    if_match: int | None = None,
    idempotency_key: str | None = None,
    computers_may_play: ComputersMayPlay | None = None,
) -> Played:
    """Play ``command`` for the seat the token belongs to (a move, ``start`` or ``leave``);
    the computer seats that follow play their turns within the same change, once
    ``computers_may_play`` (if given) let them.

    A game this process wrote last is played as it kept it, in one round trip
    (``gamestore.kept_game_take``). If somebody wrote it since, or the kept game refuses the
    command (which the game as it now stands might not), the command is decided again on
    the game read under its lock, as every other one is: only that decision is answered.
    A request with an ``Idempotency-Key`` always reads its game, as it reads its key's
    record with it.
    """
    # Strategy tables first, outside the game lock: a missing one is a 503, never a build.
    game_strategy_require(game_id=game_id)
    path = PLAYED_READ
    if idempotency_key is None:
        kept = gamestore.kept_game_take(game_id)
        if kept is not None:
            try:
                with gamestore.game_change():
                    played, outcome = _play(
                        kept, token, command, if_match, None, computers_may_play
                    )
            except (*REFUSALS, gamestore.Stale):
                gamestore.kept_game_drop(game_id)
                path = PLAYED_READ_AGAIN
            else:
                PLAYED_KEPT.inc()
                return _played(played, outcome)
    path.inc()
    with gamestore.game_change():
        at_hand = changes.game_at_hand(game_id)
        played, outcome = _play(
            at_hand, token, command, if_match, idempotency_key, computers_may_play
        )
    return _played(played, outcome)


def _play(
    at_hand: gamestore.GameAtHand,
    token: str | None,
    command: Command,
    if_match: int | None,
    idempotency_key: str | None,
    computers_may_play: ComputersMayPlay | None,
) -> tuple[Played, Outcome | None]:
    """:func:`game_play` on the game ``at_hand`` (read under its lock, or kept), inside the
    change's transaction; the outcome to count, None for a replayed answer."""
    game, players = at_hand.game, at_hand.players
    seat = seat_for_token(players, token).seat
    changes.check_not_due(game, at_hand.now)
    # Only a request that may be replayed needs its fingerprint.
    fingerprint = changes.fingerprint(seat, command) if idempotency_key is not None else ""
    if idempotency_key is not None:
        first = IdempotencyRecord.objects.filter(game=game, key=idempotency_key).first()
        if first is not None:
            if first.fingerprint != fingerprint:
                raise ServiceError(
                    ServiceCode.IDEMPOTENCY_KEY_REUSED,
                    gettext_noop("this Idempotency-Key was used for a different request"),
                )
            replayed_game, replayed_players = replays.restore(first.snapshot)
            return Played(game=replayed_game, players=replayed_players, replayed=True), None
    if if_match is not None and if_match != game.version:
        raise ServiceError(ServiceCode.VERSION_MISMATCH, gettext_noop(
            "the game is at version {version}, not {given}"), version=game.version, given=if_match)
    if isinstance(command, TURN_MOVES) and changes.out_of_time(game, at_hand.now):
        raise ServiceError(ProblemCode.NOT_YOUR_TURN, gettext_noop(
            "the time for this move ran out: the turn is played for you"))
    _computers_may_play(players, computers_may_play)
    outcome = changes.match_of(game, players).play(
        game.state, seat=seat, command=command, dice=dice_for(game), mind=mind_for(game)
    )
    before = hooks.position(game)
    change = changes.outcome_apply(game, players, outcome)
    changes.set_clock(game, players, moved=seat, now=at_hand.now)
    gamestore.game_update(game, change, guarded=not at_hand.locked)
    hooks.game_changed(game, players, before)
    if idempotency_key is not None:
        IdempotencyRecord.objects.create(
            game=game,
            key=idempotency_key,
            fingerprint=fingerprint,
            snapshot=replays.snapshot(game, players),
        )
    return Played(game=game, players=players), outcome


def _played(played: Played, outcome: Outcome | None) -> Played:
    """A change committed: its game kept for the next move here, its moves counted."""
    if outcome is None:
        return played
    gamestore.kept_game_remember(played.game, played.players)
    changes.count_moves(played.game, outcome)
    levels = {p.seat: p.computer for p in played.players if p.computer is not None}
    if not levels:
        return played
    moves = Counter(
        levels[e.seat] for e in outcome.events if e.type in changes.MOVE_EVENTS and e.seat in levels
    )
    return replace(played, computer_moves=dict(moves))


def _computers_may_play(players: Sequence[Player], check: ComputersMayPlay | None) -> None:
    if check is not None and any(p.computer is not None for p in players):
        check()


def game_join(
    *, game_id: Any, command: Join, computers_may_play: ComputersMayPlay | None = None,
    bot_id: uuid.UUID | None = None,
) -> Played:
    """Take the next open seat; the answer carries the new seat's token (and only it). The
    computer seats play at once if it was the last (``computers_may_play``: as ``game_play``).
    ``bot_id``: the bot that takes the seat (``games.arena``), its token derived.

    A join is never replayed by an idempotency key: its answer holds a token, and tokens
    are kept only as hashes.
    """
    game_strategy_require(game_id=game_id)
    with gamestore.game_change():
        locked = changes.game_at_hand(game_id)
        game, players = locked.game, locked.players
        _computers_may_play(players, computers_may_play)
        outcome = changes.match_of(game, players).play(
            game.state, seat=None, command=command, dice=dice_for(game), mind=mind_for(game)
        )
        seat = len(players)
        token = bot_seat_token(game.pk, seat) if bot_id is not None else new_token()
        joined = Player(
            game=game, seat=seat, name=command.name, token_hash=hash_token(token), bot_id=bot_id
        )
        players.append(joined)
        before = hooks.position(game)
        change = changes.outcome_apply(game, players, outcome)
        changes.set_clock(game, players, moved=None, now=locked.now)
        gamestore.game_update(game, change, joined=[joined])
        hooks.game_changed(game, players, before)
    return _played(Played(game=game, players=players, tokens={joined.seat: token}), outcome)


def game_abandon(*, game_id: Any, by: str) -> Game:
    """Mark a game that is not over ``abandoned``, logged like any change."""
    with gamestore.game_change():
        locked = changes.game_at_hand(game_id)
        game, players = locked.game, locked.players
        outcome = changes.match_of(game, players).abandon(game.state, by=by)
        change = changes.outcome_apply(game, players, outcome)
        changes.set_clock(game, players, moved=None, now=locked.now)
        gamestore.game_update(game, change)
    return game


def _check_computers(ruleset_id: str, players: Sequence[Seat]) -> None:
    levels = levels_for(ruleset_id)
    for seat, p in enumerate(players):
        if p.computer is not None and p.computer not in levels:
            raise ServiceError(
                ProblemCode.INVALID,
                gettext_noop("{game} computer players are: {levels}"),
                game=get_ruleset(ruleset_id).name, levels=", ".join(levels),
                field=f"players.{seat}.computer",
            )


# -- turn clocks -------------------------------------------------------------------------


# A timed-out turn is finished in at most this many moves (a box game's turn takes four at
# most; a Ten Thousand turn of the greedy player, a few more).
TIMEOUT_MOVES = 50


def game_time_out(*, game_id: Any) -> bool:
    """The clock of ``game`` fires: if its deadline has passed (by the database's clock), the
    seat to move times out. Its turn is finished as the ``greedy`` computer would (rolling
    first if it has not rolled), after a ``timed_out`` event; after ``max_timeouts`` turns in
    a row timed out, the seat leaves. Answers whether it fired.

    Run by a worker once the deadline has passed, as often as it likes: the game's lock and
    its deadline make the firing happen once (a firing sets the next deadline, or none), and
    a move racing it either came first (its deadline moved on) or is refused (``game_play``:
    its time ran out).
    """
    with gamestore.game_change():
        locked = changes.game_at_hand(game_id)
        game, players = locked.game, locked.players
        if not changes.out_of_time(game, locked.now):
            return False
        seat = game.state["current"]
        match = changes.match_of(game, players)
        deadline = game.deadline
        assert deadline is not None
        outcome = Outcome(
            state=game.state,
            events=[RuleEvent("timed_out", seat, {"seat": seat, "deadline": clocks.iso(deadline)})],
        )
        dice, mind = dice_for(game), mind_for(game)
        ruleset = get_ruleset(game.ruleset)
        turn = (seat, game.state["round"])  # a turn ends when the seat or the round moves on
        for _ in range(TIMEOUT_MOVES):
            now = (outcome.state["current"], outcome.state["round"])
            if status(outcome.state) != GameStatus.ACTIVE or now != turn:
                break
            command = computer_command(
                ruleset, outcome.state, "greedy", game.options, mind, folder=settings.STRATEGY_DIR
            )
            changes.extend(outcome, match.play(outcome.state, seat=seat, command=command, dice=dice,
                                        mind=mind))
        timeouts = clocks.timeouts_after(game, len(players), moved=None)
        timeouts[seat] += 1
        limit = game.clock_max_timeouts or clocks.DEFAULT_MAX_TIMEOUTS
        leaves = game.tournament_id is None  # in a tournament a seat never leaves
        if leaves and timeouts[seat] >= limit and status(outcome.state) == GameStatus.ACTIVE:
            changes.extend(outcome, match.play(outcome.state, seat=seat, command=Leave(), dice=dice,
                                        mind=mind))
        before = hooks.position(game)
        change = changes.outcome_apply(game, players, outcome)
        changes.set_clock(game, players, moved=None, now=locked.now)
        game.timeouts = timeouts
        gamestore.game_update(game, change)
        hooks.game_changed(game, players, before)
    CLOCK_TIMEOUTS.inc()
    changes.count_moves(game, outcome)
    return True


