"""Who a caller is to a game, and who may see it.

A seat's token is random, shown once, stored only as a hash and compared in constant time.
Any game is public, except a game of an assignment until the
assignment's deadline: then only its student (their key or their seat's token) and the
classroom's teacher see it, and anyone else is told there is no such game, so that nobody
reads a classmate's dice (the same for every student) before playing their own."""

import base64
import datetime as dt
import hashlib
import hmac
import secrets
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.crypto import salted_hmac

from games.models import Game, Player
from games.play.errors import ServiceCode, ServiceError


def new_token() -> str:
    return secrets.token_urlsafe(32)


def bot_seat_token(game_id: uuid.UUID, seat: int) -> str:
    """A bot's seat token: derived from the deployment's secret key, so that the bot's
    owner's stream can give it again on every reconnection while only its hash is stored.
    As long and as unguessable as a person's (HMAC-SHA256 under ``SECRET_KEY``)."""
    digest = salted_hmac("bot-seat-token", f"{game_id}:{seat}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_for_token(players: Iterable[Player], token: str | None) -> Player:
    """The seat the token belongs to; every seat is compared so timing tells nothing."""
    if not token:
        raise ServiceError(
            ServiceCode.NOT_AUTHENTICATED,
            "moves need the header 'Authorization: Bearer <seat token>'"
        )
    digest = hash_token(token)
    found = None
    for player in players:
        if player.token_hash and hmac.compare_digest(player.token_hash, digest):
            found = player
    if found is None:
        raise ServiceError(ServiceCode.INVALID_TOKEN, "this token belongs to no seat of this game")
    return found


@dataclass(frozen=True)
class Viewer:
    """Who asks: the student or the teacher (of a classroom) an API key names, and the seat
    token sent with the request, if any."""

    student_id: uuid.UUID | None = None
    teacher_of: uuid.UUID | None = None
    token: str | None = None


@dataclass(frozen=True)
class Private:
    """What decides whether a game is private to a viewer (the game's own columns)."""

    game_id: Any
    due_at: dt.datetime | None
    student_id: uuid.UUID | None
    classroom_id: uuid.UUID | None


def is_private(due_at: dt.datetime | None) -> bool:
    return due_at is not None and timezone.now() < due_at


def only_public(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games nobody is kept from: no deadline, or one passed (by the database's clock).
    What a list of every game shows, to anyone."""
    return games.filter(Q(due_at__isnull=True) | Q(due_at__lte=Now()))


# The columns of a game's row that decide, for the paths that read a row in part.
PRIVACY_COLUMNS = ("due_at", "student_id", "classroom_id")


def private_of(game_id: Any, columns: Mapping[str, Any]) -> Private:
    """What decides, from a game's row read in part (``PRIVACY_COLUMNS``)."""
    return Private(game_id, columns["due_at"], columns["student_id"], columns["classroom_id"])


def private_game(game: Game) -> Private:
    """What decides, from a game read whole."""
    return Private(game.pk, game.due_at, game.student_id, game.classroom_id)


def may_see(game: Private, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see the game. A public game costs nothing; a private one, a
    query only when a seat token must be checked."""
    if not is_private(game.due_at):
        return True
    if viewer.student_id is not None and viewer.student_id == game.student_id:
        return True
    if viewer.teacher_of is not None and viewer.teacher_of == game.classroom_id:
        return True
    if viewer.token:
        try:
            seat_for_token(Player.objects.filter(game_id=game.game_id), viewer.token)
            return True
        except ServiceError:
            pass
    return False


def require_visible(game: Private, viewer: Viewer) -> None:
    """``not_found`` unless ``viewer`` may see the game (``may_see``)."""
    if not may_see(game, viewer):
        raise ServiceError(ServiceCode.NOT_FOUND, "no game with this id")
