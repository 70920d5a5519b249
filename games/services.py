"""Every change to a game, one function per action.

Each runs in one transaction with the game row locked: authorise and validate first, ask
the rules engine, then write the state, the version, the log and the score entries together.
A refused move raises before anything is written, so it changes nothing.
"""

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring import Outcome, Ruleset, View, get_ruleset, secure_rng, seeded_rng

from .errors import ServiceError
from .models import Event, Game, IdempotencyRecord, Player, ScoreEntry
from .notify import announce
from .tokens import hash_token, new_token, seat_for_token

Render = Callable[[Game, list[Player]], dict[str, Any]]


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


def game_create(
    *,
    ruleset_id: str,
    options: Mapping[str, Any] | None,
    players: Sequence[NewSeat],
    seed: int | None = None,
) -> Created:
    ruleset = get_ruleset(ruleset_id)
    chosen = ruleset.validate_options(options)
    ruleset.check_seats(len(players))
    state = ruleset.new_state(seats=len(players), options=chosen)
    tokens = {seat: new_token() for seat, p in enumerate(players) if p.computer is None}
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset.id,
            options=chosen,
            ranked=seed is None,
            seed=seed,
            state=state,
            last_seq=1,
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
        Event.objects.create(
            game=game,
            seq=1,
            type="created",
            data={
                "ruleset": ruleset.id,
                "options": chosen,
                "seed": seed,
                "players": [
                    {"seat": s, "name": p.name, "computer": p.computer}
                    for s, p in enumerate(players)
                ],
            },
        )
    return Created(game=game, players=list(rows), tokens=tokens)


def game_move(
    *,
    game_id: Any,
    token: str | None,
    action: str,
    args: Mapping[str, Any],
    render: Render,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Moved:
    """Play one move for the seat the token belongs to and answer with ``render``'s body."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise ServiceError("not_found", "no game with this id")
        players = list(Player.objects.filter(game=game).order_by("seat"))
        seat = seat_for_token(players, token).seat
        fingerprint = _fingerprint(seat, action, args)
        if idempotency_key is not None:
            first = IdempotencyRecord.objects.filter(game=game, key=idempotency_key).first()
            if first is not None:
                if first.fingerprint != fingerprint:
                    raise ServiceError(
                        "idempotency_key_reused",
                        "this Idempotency-Key was used for a different request",
                    )
                return Moved(body=first.body, replayed=True)
        if if_match is not None and if_match != game.version:
            raise ServiceError(
                "version_mismatch", f"the game is at version {game.version}, not {if_match}"
            )
        if game.status != Game.Status.ACTIVE:
            raise ServiceError("game_not_active", f"the game is {game.status}")
        ruleset = get_ruleset(game.ruleset)
        rng = secure_rng() if game.seed is None else seeded_rng(game.seed, game.version)
        outcome = ruleset.move(
            game.state, seat=seat, action=action, args=args, options=game.options, rng=rng
        )
        _save(game, players, ruleset, outcome)
        body = render(game, players)
        if idempotency_key is not None:
            IdempotencyRecord.objects.create(
                game=game, key=idempotency_key, fingerprint=fingerprint, status_code=200, body=body
            )
    return Moved(body=body, replayed=False)


def game_abandon(*, game_id: Any, by: str) -> Game:
    """Mark a game that is not over ``abandoned``, logged like any change."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise ServiceError("not_found", "no game with this id")
        if game.status not in (Game.Status.WAITING, Game.Status.ACTIVE):
            raise ServiceError("game_not_active", f"the game is {game.status} already")
        game.status = Game.Status.ABANDONED
        game.version += 1
        game.last_seq += 1
        Event.objects.create(game=game, seq=game.last_seq, type="abandoned", data={"by": by})
        game.save(update_fields=["status", "version", "last_seq", "updated_at"])
        announce(game.id, game.last_seq)
    return game


def _save(game: Game, players: list[Player], ruleset: Ruleset, outcome: Outcome) -> None:
    view: View = ruleset.view(outcome.state, options=game.options)
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
    fields = ["state", "version", "last_seq", "updated_at"]
    if view.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.winners = view.winners
        fields += ["status", "finished_at", "winners"]
    game.save(update_fields=fields)
    announce(game.id, game.last_seq)


def _fingerprint(seat: int, action: str, args: Mapping[str, Any]) -> str:
    request = json.dumps(
        {"seat": seat, "action": action, "args": args}, sort_keys=True, default=str
    )
    return hashlib.sha256(request.encode()).hexdigest()
