"""Verifiable dice (docs/contract.md, "Verifiable dice and records").

Every face is a function of a secret, a client seed and where the die is thrown, so the
service can commit to the secret (its SHA-256) before the first throw and reveal it at the
end, and anyone can then recompute every die. A face depends on nothing else: the same
secret and client seed give the same face at the same ``(seat, turn, roll, position)``
whatever the players held.
"""

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .errors import ProblemCode, RuleError, gettext_noop

SECRET_BYTES = 32
CLIENT_SEED_LENGTH = 64
# 252 = 42 x 6: the bytes below it fall on the six faces equally often; the others
# would favour faces 1 to 4, so they are skipped.
FAIR_BYTES = 252
DERIVED = "hmac-sha256-v1"
# The dice of the games created before they were derived: drawn, not derivable, not checked.
LEGACY = "legacy"
ALGORITHMS = (DERIVED, LEGACY)


def face(secret: bytes, client_seed: str, seat: int, turn: int, roll: int, position: int) -> int:
    """The face of die ``position`` thrown by throw ``roll`` of turn ``turn`` of ``seat``.

    The first byte below 252 of HMAC-SHA256(secret, "{client_seed}:{seat}:{turn}:{roll}:
    {position}") gives ``1 + byte % 6``; should all 32 bytes be 252 or more, the message
    is tried again with ":1" appended, then ":2", and so on.
    """
    message = f"{client_seed}:{seat}:{turn}:{roll}:{position}".encode("ascii")
    attempt = message
    retry = 0
    while True:
        for byte in hmac.digest(secret, attempt, "sha256"):
            if byte < FAIR_BYTES:
                return 1 + byte % 6
        retry += 1
        attempt = message + f":{retry}".encode("ascii")


def commitment(secret: bytes) -> str:
    """What the service shows before the secret: the hex SHA-256 of the secret's bytes."""
    return hashlib.sha256(secret).hexdigest()


def new_secret() -> bytes:
    """The secret of an unseeded game, from the operating system's secure source."""
    return secrets.token_bytes(SECRET_BYTES)


def seeded_secret(seed: int) -> bytes:
    """The secret of a game created with an integer ``seed``: SHA-256("seed:" + str(seed)),
    so the same seed always gives the same dice."""
    return hashlib.sha256(f"seed:{seed}".encode("ascii")).digest()


def new_client_seed() -> str:
    """The client seed of a game whose creator gave none: 16 random hex characters."""
    return secrets.token_hex(8)


def check_client_seed(value: object) -> str:
    """A creator's client seed: 1 to 64 printable ASCII characters (space to tilde), no
    colon, since the colon separates the fields of the derivation's message."""
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= CLIENT_SEED_LENGTH
        or not all(" " <= char <= "~" and char != ":" for char in value)
    ):
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop(
                "client_seed must be 1 to {most} printable ASCII characters without a colon"
            ),
            field="client_seed",
            most=CLIENT_SEED_LENGTH,
        )
    return value


@dataclass(frozen=True)
class DerivedDice:
    """The dice of one game, derived from its secret and client seed by :func:`face`.
    (Its repr leaves the secret out: it must not reach a log before the game ends.)"""

    algorithm: ClassVar[str] = DERIVED
    secret: bytes = field(repr=False)
    client_seed: str

    def throw(self, seat: int, turn: int, roll: int, positions: Sequence[int]) -> list[int]:
        return [
            face(self.secret, self.client_seed, seat, turn, roll, position)
            for position in positions
        ]

    @property
    def commitment(self) -> str:
        return commitment(self.secret)
