"""The first answer to a move sent with an ``Idempotency-Key``, kept to replay on retries.

What is kept is the game and its seats as they were right after the move (their rows, as
Django's serializers write them), not a rendered body: the service stores data and the
HTTP layer renders the replayed game exactly as it rendered the first answer.
"""

import datetime as dt
import json
from typing import Any

from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder

from games.models import Game, Player


class _Encoder(DjangoJSONEncoder):
    """Times to the microsecond (Django's encoder keeps milliseconds), so that the replayed
    game renders exactly as the first answer did."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime):
            return o.isoformat()
        return super().default(o)


def snapshot(game: Game, players: list[Player]) -> list[dict[str, Any]]:
    rows = serializers.serialize("python", [game, *players])
    return json.loads(json.dumps(rows, cls=_Encoder))


def restore(saved: list[dict[str, Any]]) -> tuple[Game, list[Player]]:
    objects = [item.object for item in serializers.deserialize("python", saved)]
    game, players = objects[0], [p for p in objects[1:] if isinstance(p, Player)]
    assert isinstance(game, Game) and len(players) == len(objects) - 1
    return game, players
