"""Seat tokens: random, shown once, stored only as a hash, compared in constant time."""

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from games.models import Player
from games.play.errors import ServiceCode, ServiceError


def new_token() -> str:
    return secrets.token_urlsafe(32)


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
