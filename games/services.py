"""Every change to a game, one function per action.

Each runs in one transaction with the game row locked: authorise and validate first, ask
the rules engine, then write the state, the version, the log and the score entries together.
A refused change raises before anything is written, so it changes nothing.
"""

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict, Unpack

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scoring import Event as RuleEvent
from scoring import Outcome, Rng, RuleError, Ruleset, get_ruleset, secure_rng, seeded_rng
from scoring.strategy import computer_move, levels_for

from .classroom_models import Student
from .errors import ServiceError
from .models import Event, Game, IdempotencyRecord, Player, ScoreEntry
from .notify import announce
from .tokens import hash_token, new_token, seat_for_token

Render = Callable[..., dict[str, Any]]


@dataclass(frozen=True)
class NewSeat:
    name: str
    computer: str | None = None


@dataclass(frozen=True)
class Created:
    game: Game
    players: list[Player]
    tokens: dict[int, str]


@dataclass(frozen=True)
class Moved:
    body: dict[str, Any]
    replayed: bool
    status_code: int = 200


@dataclass
class Change:
    """What one action did: the engine's outcome, and any seat token it created."""

    outcome: Outcome
    tokens: dict[int, str] = field(default_factory=dict)


Apply = Callable[[Game, list[Player], Ruleset, int | None, Rng], Change]
# A bound on the moves computer seats make in one request: a whole game of computers fits.
# A game of computers only that has not ended by then (house rules no one can reach) ends
# there, as any game does when no person is left to play.
COMPUTER_MOVES = 20_000


def game_create(
    *,
    ruleset_id: str,
    options: Mapping[str, Any] | None,
    players: Sequence[NewSeat],
    open_seats: int = 0,
    seed: int | None = None,
    student: Student | None = None,
) -> Created:
    """A new game; with open seats it waits for others to join (or for a ``start``).

    ``student``: the student whose API key created it; the game then belongs to them.
    """
    ruleset = get_ruleset(ruleset_id)
    chosen = ruleset.validate_options(options)
    ruleset.check_seats(len(players) + open_seats)
    levels = levels_for(ruleset.id)
    for seat, p in enumerate(players):
        if p.computer is not None and p.computer not in levels:
            raise RuleError(
                "invalid",
                f"{ruleset.name} computer players are: {', '.join(levels)}",
                field=f"players.{seat}.computer",
            )
    state = ruleset.new_state(seats=len(players), options=chosen)
    tokens = {seat: new_token() for seat, p in enumerate(players) if p.computer is None}
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset.id,
            options=chosen,
            status=Game.Status.WAITING if open_seats else Game.Status.ACTIVE,
            ranked=seed is None,
            seed=seed,
            open_seats=open_seats,
            state=state,
            last_seq=1,
            student=student,
            classroom_id=student.classroom_id if student is not None else None,
        )
        rows = Player.objects.bulk_create(
            Player(
                game=game,
                seat=seat,
                name=p.name,
                computer=p.computer,
                token_hash=hash_token(tokens[seat]) if seat in tokens else "",
            )
            for seat, p in enumerate(players)
        )
        seats = [{"seat": s, "name": p.name, "computer": p.computer} for s, p in enumerate(players)]
        data = {"ruleset": ruleset.id, "options": chosen, "seed": seed, "players": seats}
        Event.objects.create(
            game=game, seq=1, type="created", data=data | {"open_seats": open_seats}
        )
        rows = list(rows)
        if game.status == Game.Status.ACTIVE and rows[0].computer is not None:
            outcome = Outcome(state=state)
            _play_computers(game, rows, ruleset, outcome, _dice(game))
            _save(game, rows, ruleset, outcome)
    return Created(game=game, players=rows, tokens=tokens)


class Conditions(TypedDict, total=False):
    """How a change is answered, and on what conditions (the request's headers)."""

    render: Required[Render]
    if_match: int | None
    idempotency_key: str | None


def game_move(
    *,
    game_id: Any,
    token: str | None,
    action: str,
    args: Mapping[str, Any],
    **conditions: Unpack[Conditions],
) -> Moved:
    """Play one move for the seat the token belongs to."""

    def apply(
        game: Game, players: list[Player], ruleset: Ruleset, seat: int | None, rng: Rng
    ) -> Change:
        _check_active(game)
        outcome = ruleset.move(
            game.state, seat=seat, action=action, args=args, options=game.options, rng=rng
        )
        return Change(outcome)

    return _locked_change(
        game_id=game_id, token=token, action=action, args=args, apply=apply, **conditions
    )


def game_leave(*, game_id: Any, token: str | None, **conditions: Unpack[Conditions]) -> Moved:
    """The seat resigns; the game goes on among the others, or ends if no person is left."""
    return _locked_change(
        game_id=game_id, token=token, action="leave", args={}, apply=_leave, **conditions
    )


def game_start(*, game_id: Any, token: str | None, **conditions: Unpack[Conditions]) -> Moved:
    """A seated person starts a waiting game; the seats still open are dropped."""
    return _locked_change(
        game_id=game_id, token=token, action="start", args={}, apply=_start, **conditions
    )


def _leave(
    game: Game, players: list[Player], ruleset: Ruleset, seat: int | None, rng: Rng
) -> Change:
    _check_active(game)
    left = ruleset.view(game.state, options=game.options).left
    persons = [p for p in players if p.computer is None and not left[p.seat] and p.seat != seat]
    return Change(ruleset.leave(game.state, seat=seat, options=game.options, end=not persons))


def _start(
    game: Game, players: list[Player], ruleset: Ruleset, seat: int | None, rng: Rng
) -> Change:
    if game.status != Game.Status.WAITING:
        raise ServiceError("game_not_active", f"the game is {game.status}, not waiting")
    return Change(Outcome(state=game.state, events=[_started(game, players, seat)]))


def game_join(*, game_id: Any, name: str, render: Render) -> Moved:
    """Take the next open seat; the answer carries the new seat's token (and only it)."""

    def apply(
        game: Game, players: list[Player], ruleset: Ruleset, seat: int | None, rng: Rng
    ) -> Change:
        if game.status == Game.Status.ACTIVE or (
            game.status == Game.Status.WAITING and not game.open_seats
        ):
            raise ServiceError("game_full", "every seat of this game is taken")
        if game.status != Game.Status.WAITING:
            raise ServiceError("game_not_active", f"the game is {game.status}")
        token = new_token()
        joined = Player.objects.create(
            game=game, seat=len(players), name=name, token_hash=hash_token(token)
        )
        players.append(joined)
        # Nobody moves while a game waits, so its state is always a fresh one for its seats.
        state = ruleset.new_state(seats=len(players), options=game.options)
        events = [RuleEvent("joined", joined.seat, {"name": name})]
        game.open_seats -= 1
        if not game.open_seats:
            events.append(_started(game, players, None))
        return Change(Outcome(state=state, events=events), tokens={joined.seat: token})

    return _locked_change(
        game_id=game_id,
        token=None,
        action="join",
        args={"name": name},
        render=render,
        apply=apply,
        needs_token=False,
        status_code=201,
    )


def game_abandon(*, game_id: Any, by: str) -> Game:
    """Mark a game that is not over ``abandoned``, logged like any change."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in (Game.Status.WAITING, Game.Status.ACTIVE):
            raise ServiceError("game_not_active", f"the game is {game.status} already")
        game.status = Game.Status.ABANDONED
        game.version += 1
        game.last_seq += 1
        Event.objects.create(game=game, seq=game.last_seq, type="abandoned", data={"by": by})
        game.save(update_fields=["status", "version", "last_seq", "updated_at"])
        announce(game.id, game.last_seq)
    return game


# -- the common path of every change -----------------------------------------------------


def _locked_change(
    *,
    game_id: Any,
    token: str | None,
    action: str,
    args: Mapping[str, Any],
    render: Render,
    apply: Apply,
    if_match: int | None = None,
    idempotency_key: str | None = None,
    needs_token: bool = True,
    status_code: int = 200,
) -> Moved:
    """Lock, authorise, replay or check the version, apply, save, answer: in one transaction."""
    with transaction.atomic():
        game = _locked(game_id)
        players = list(Player.objects.filter(game=game).order_by("seat"))
        seat = seat_for_token(players, token).seat if needs_token else None
        fingerprint = _fingerprint(seat, action, args)
        if idempotency_key is not None:
            first = IdempotencyRecord.objects.filter(game=game, key=idempotency_key).first()
            if first is not None:
                if first.fingerprint != fingerprint:
                    raise ServiceError(
                        "idempotency_key_reused",
                        "this Idempotency-Key was used for a different request",
                    )
                return Moved(body=first.body, replayed=True, status_code=first.status_code)
        if if_match is not None and if_match != game.version:
            raise ServiceError(
                "version_mismatch", f"the game is at version {game.version}, not {if_match}"
            )
        ruleset = get_ruleset(game.ruleset)
        rng = _dice(game)
        change = apply(game, players, ruleset, seat, rng)
        _play_computers(game, players, ruleset, change.outcome, rng)
        _save(game, players, ruleset, change.outcome)
        body = render(game, players, change.tokens)
        if idempotency_key is not None:
            IdempotencyRecord.objects.create(
                game=game,
                key=idempotency_key,
                fingerprint=fingerprint,
                status_code=status_code,
                body=body,
            )
    return Moved(body=body, replayed=False, status_code=status_code)


def _dice(game: Game) -> Rng:
    """The dice of one request: secure, or for seeded games a function of seed and version."""
    return secure_rng() if game.seed is None else seeded_rng(game.seed, game.version)


def _play_computers(
    game: Game, players: list[Player], ruleset: Ruleset, outcome: Outcome, dice: Rng
) -> None:
    """Computer seats play their turns at once, after the previous seat's, logged likewise.

    Their own choices (which random move, say) come from a generator of their own, seeded
    like the dice in a seeded game, so the same seed and moves still give the same game.
    """
    levels = {p.seat: p.computer for p in players if p.computer is not None}
    if not levels or game.status != Game.Status.ACTIVE:
        return
    mind = secure_rng() if game.seed is None else seeded_rng(game.seed, -game.version)
    for _ in range(COMPUTER_MOVES):
        view = ruleset.view(outcome.state, options=game.options)
        if view.finished or view.current_seat not in levels:
            return
        seat = view.current_seat
        action, args = computer_move(
            ruleset,
            outcome.state,
            level=levels[seat],
            options=game.options,
            rng=mind,
            folder=settings.STRATEGY_DIR,
        )
        step = ruleset.move(
            outcome.state, seat=seat, action=action, args=args, options=game.options, rng=dice
        )
        outcome.state = step.state
        outcome.events.extend(step.events)
        outcome.entries.extend(step.entries)
    if not ruleset.view(outcome.state, options=game.options).finished:
        ruleset.finish(outcome, game.options)


def _locked(game_id: Any) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", "no game with this id")
    return game


def _check_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise ServiceError("game_not_active", f"the game is {game.status}")


def _started(game: Game, players: list[Player], by: int | None) -> RuleEvent:
    game.status = Game.Status.ACTIVE
    game.open_seats = 0
    return RuleEvent("started", by, {"seats": len(players)})


def _save(game: Game, players: list[Player], ruleset: Ruleset, outcome: Outcome) -> None:
    view = ruleset.view(outcome.state, options=game.options)
    by_seat = {player.seat: player for player in players}
    first_seq = game.last_seq + 1
    Event.objects.bulk_create(
        Event(game=game, seq=first_seq + i, type=e.type, seat=e.seat, data=e.data)
        for i, e in enumerate(outcome.events)
    )
    if outcome.entries:
        ScoreEntry.objects.bulk_create(
            ScoreEntry(
                game=game,
                player=by_seat[e.seat],
                category=e.category,
                points=e.points,
                round=e.round,
            )
            for e in outcome.entries
        )
    changed = [p for p in players if p.total != view.totals[p.seat]]
    for player in changed:
        player.total = view.totals[player.seat]
    if changed:
        Player.objects.bulk_update(changed, ["total"])
    game.state = outcome.state
    game.version += 1
    game.last_seq = first_seq + len(outcome.events) - 1
    if view.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.winners = view.winners
    game.save(
        update_fields=[
            "state",
            "version",
            "last_seq",
            "updated_at",
            "status",
            "open_seats",
            "finished_at",
            "winners",
        ]
    )
    announce(game.id, game.last_seq)


def _fingerprint(seat: int | None, action: str, args: Mapping[str, Any]) -> str:
    request = json.dumps(
        {"seat": seat, "action": action, "args": args}, sort_keys=True, default=str
    )
    return hashlib.sha256(request.encode()).hexdigest()
