"""Game records (docs/contract.md, "Verifiable dice and records"): a game as one document that
anyone can check, and the check itself (``scoring.records``, free of the database)."""

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from games.models import Event, Game, Player
from games.play.errors import ServiceCode, ServiceError
from scoring.records import Verdict, verify


@dataclass(frozen=True)
class GameRecord:
    """What a record is made of: the game, its seats and its whole log."""

    game: Game
    players: list[Player]
    events: list[Event]


def game_record(*, game_id: Any) -> GameRecord:
    """The game with its seats and its whole log, in three queries; ``not_found`` if none."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError(ServiceCode.NOT_FOUND, gettext_noop("no game with this id"))
    players = list(Player.objects.filter(game=game).order_by("seat"))
    events = list(Event.objects.filter(game=game).order_by("seq"))
    return GameRecord(game=game, players=players, events=events)


def record_verify(*, document: object) -> Verdict:
    """Checks a record: its commitment, dice, moves, totals and winners. A document that is
    not a record raises ``invalid``; its work is one engine move per move it logs."""
    return verify(document)
