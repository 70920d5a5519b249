"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS): generated moves carry real seat tokens.

Moves need the token of the seat whose turn it is, and tokens are shown only in the answer
that creates a seat. These hooks remember every token and the seat to move from each game
the service returns, so that a move on a known game is sent with the right token and reaches
the rules instead of stopping at 401. A move on an unknown game keeps whatever Authorization
was generated for it.
"""

import contextlib
import threading
from typing import Any

import schemathesis

_lock = threading.Lock()
_tokens: dict[str, dict[int, str]] = {}  # game id -> seat -> token
_to_move: dict[str, int] = {}  # game id -> the seat whose turn it is


def _remember(game: Any) -> None:
    if not isinstance(game, dict) or not isinstance(game.get("id"), str):
        return
    players = game.get("players")
    if not isinstance(players, list):
        return
    with _lock:
        seats = _tokens.setdefault(game["id"], {})
        for player in players:
            if isinstance(player, dict) and player.get("token") and "seat" in player:
                seats[player["seat"]] = player["token"]
        if isinstance(game.get("current_seat"), int):
            _to_move[game["id"]] = game["current_seat"]


@schemathesis.hook
def after_call(
    context: schemathesis.HookContext, case: schemathesis.Case, response: schemathesis.Response
) -> None:
    if 200 <= response.status_code < 300 and case.operation.path.startswith("/api/v1/games/"):
        with contextlib.suppress(ValueError):  # not JSON: nothing to remember
            _remember(response.json())


MOVES = r"^/api/v1/games/\{id\}/"


@schemathesis.auth(refresh_interval=None).apply_to(method="POST", path_regex=MOVES)
class SeatToken:
    def get(self, case: schemathesis.Case, context: schemathesis.AuthContext) -> str | None:
        game_id = (case.path_parameters or {}).get("id")
        with _lock:
            seats = _tokens.get(game_id) if isinstance(game_id, str) else None
            if not seats:
                return None
            return seats.get(_to_move.get(game_id, 0)) or next(iter(seats.values()))

    def set(self, case: schemathesis.Case, data: str, context: schemathesis.AuthContext) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
