"""What a tournament needs of bots: looking them up to enter them, an entrant's bot, a bot's
seat given to its key, and the ``tournament`` events on the bots' keys' streams."""

import uuid
from collections.abc import Sequence
from typing import Any

from games.models import Entrant, Tournament
from games.play.services import Played


def bots_by_id(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Any]:
    """The bots with these ids (deleted ones left out), by id."""
    return {}


def bot_columns(bot_id: uuid.UUID | None) -> dict[str, Any]:
    """An entrant row's columns naming its bot."""
    return {}


def seated(tournament: Tournament, played: Played, entrants: Sequence[Entrant]) -> None:
    """The seats of a new game that are bots' are given to their keys (``seated``)."""


def status_changed(tournament: Tournament) -> None:
    """The keys of the tournament's bots hear its new status."""
