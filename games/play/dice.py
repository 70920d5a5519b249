"""A game's dice: the secret it commits to when created, the source every change throws
with, and what the game shows of them (docs/contract.md, "Verifiable dice and records").

The secret is the one thing about a game that must stay unseen while it is played: it is
stored with the game and read only here, to throw, and to show once the game is over.
"""

import hashlib
import random
from dataclasses import dataclass, field
from typing import TypedDict

from games.models import Game
from scoring import Dice, secure_rng, seeded_rng
from scoring.match import GameStatus
from scoring.verifiable import (
    DERIVED,
    DerivedDice,
    commitment,
    new_client_seed,
    new_secret,
    seeded_secret,
)

# A game's secret is shown once nobody can play it any more.
OVER = (GameStatus.FINISHED, GameStatus.ABANDONED)


class DiceShown(TypedDict):
    algorithm: str
    commitment: str | None
    client_seed: str | None
    secret: str | None


@dataclass(frozen=True)
class Committed:
    """A new game's dice: its secret (hex) and client seed, fixed before its first throw.
    (Its repr leaves the secret out: a traceback or a log line must not show it.)"""

    secret: str = field(repr=False)
    client_seed: str


def commit(*, seed: int | None, client_seed: str | None) -> Committed:
    """The dice of a new game. A seeded game's secret and default client seed follow from
    its seed, so the same seed and moves give the same dice; any other game's secret comes
    from the operating system's secure source."""
    if seed is None:
        return Committed(new_secret().hex(), client_seed or new_client_seed())
    chosen = client_seed or hashlib.sha256(f"client-seed:{seed}".encode()).hexdigest()[:16]
    return Committed(seeded_secret(seed).hex(), chosen)


def dice_for(game: Game) -> Dice:
    """What a change of ``game`` throws with: its derived dice, or for a game created before
    they were derived, the draws it always had (secure, or from its seed and version)."""
    if game.dice_algorithm == DERIVED:
        return DerivedDice(bytes.fromhex(game.dice_secret), game.client_seed)
    return secure_rng() if game.seed is None else seeded_rng(game.seed, game.version)


def mind_for(game: Game) -> random.Random:
    """Computer seats' own choices (which random move, say) come from a source of their own,
    seeded like the dice in a seeded game, so the same seed and moves give the same game.
    A whole generator: the players draw choices and fractions, not only dice."""
    return secure_rng() if game.seed is None else seeded_rng(game.seed, -game.version)


def revealed(game: Game) -> bool:
    """Whether the game's secret may be shown: once it is finished or abandoned, and for a
    game of an assignment (whose secret is every student's) once the assignment is closed
    too (``dice_sealed`` is lifted then)."""
    return game.status in OVER and not game.dice_sealed


def dice_shown(game: Game) -> DiceShown:
    """The game's ``dice`` object: the commitment from the start, the secret at the end."""
    if game.dice_algorithm != DERIVED:
        return {"algorithm": game.dice_algorithm, "commitment": None, "client_seed": None,
                "secret": None}
    return {
        "algorithm": DERIVED,
        "commitment": commitment(bytes.fromhex(game.dice_secret)),
        "client_seed": game.client_seed,
        "secret": game.dice_secret if revealed(game) else None,
    }
