"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS): generated moves carry real seat tokens,
and well-formed requests are sent where the schema says they are well formed.

Moves need the token of the seat whose turn it is, and tokens are shown only in the answer
that creates a seat. These hooks remember every token and the seat to move from each game
the service returns, so that a move on a known game is sent with the right token and reaches
the rules instead of stopping at 401. A move on an unknown game keeps whatever Authorization
was generated for it.

Some rules join a body to its path, which OpenAPI 3.0 cannot say: each ruleset has its own
boxes, options and number of dice, and one path serves them all (`/rulesets/{id}/score/`,
`/games/{id}/score/`). The schema lists every ruleset's names (an unknown one is refused
as it says); a body that is well formed for some ruleset is answered 400 on a game of
another (`unknown_category`, `invalid_dice`, `invalid`), as the contract wants. So that the
positive-data check asks what it means to ask (is a well-formed request accepted?), a
well-formed ("positive") case is sent to a ruleset or a known game that it fits
(:func:`before_call`); malformed ("negative") cases are sent as generated.
"""

import contextlib
import re
import threading
from typing import Any

import schemathesis

from scoring import RULESETS
from scoring.boxgame import BoxGame

_lock = threading.Lock()
_tokens: dict[str, dict[int, str]] = {}  # game id -> seat -> token
_to_move: dict[str, int] = {}  # game id -> the seat whose turn it is
_rulesets: dict[str, str] = {}  # game id -> its ruleset


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
        if game.get("ruleset") in RULESETS:
            _rulesets[game["id"]] = game["ruleset"]


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


# -- well-formed cases go where they fit --------------------------------------------------

RULESET_PATH = r"^/api/v1/rulesets/\{id\}/(score|advice)/$"
GAME_MOVE = r"^/api/v1/games/\{id\}/(roll|hold|score|scratch|bank|pass)/$"
SOLVED = ("yahtzee", "yatzy", "forced-yatzy")  # the rulesets advice is given for


def _boxes(ruleset_id: str) -> set[str]:
    return {box.id for box in RULESETS[ruleset_id].categories}


def _options(ruleset_id: str) -> set[str]:
    return {option.id for option in RULESETS[ruleset_id].options}


def _fits_move(ruleset_id: str, action: str, body: dict[str, Any]) -> bool:
    ruleset = RULESETS[ruleset_id]
    if not isinstance(ruleset, BoxGame):
        return action in ("bank", "pass") or (action == "roll" and "hold" not in body)
    if action in ("bank", "pass") or "set_aside" in body:
        return False
    if action in ("score", "scratch"):
        return body.get("category") in _boxes(ruleset_id)
    return all(position < ruleset.dice for position in body.get("hold", []))


def _fit_ruleset_body(case: schemathesis.Case, route: str) -> None:
    """A calculator or advice request, on a ruleset whose dice, boxes and options it names."""
    body = case.body if isinstance(case.body, dict) else {}
    dice = body.get("dice")
    count = len(dice) if isinstance(dice, list) else 5
    if route == "advice":
        candidates = [r for r in SOLVED if _boxes(r) >= set(body.get("scorecard") or {})]
        ruleset_id = (candidates or ["yahtzee"])[0]
        if isinstance(dice, list):
            body["dice"] = (dice * 5)[:5]
        # Only a position that play can reach has a value: boxes scratched, no bonus yet.
        body["scorecard"] = {box: None if v is None else 0 for box, v in
                             (body.get("scorecard") or {}).items() if box in _boxes(ruleset_id)}
        body["yahtzee_bonus"] = 0
    else:
        fits = [r for r in RULESETS if (isinstance(RULESETS[r], BoxGame)
                                        and RULESETS[r].dice == count) or
                (not isinstance(RULESETS[r], BoxGame))]
        named = set(body.get("scorecard") or {})
        ruleset_id = max(fits, key=lambda r: len(named & _boxes(r)))
        if body.get("scorecard"):
            body["scorecard"] = {b: v for b, v in body["scorecard"].items()
                                 if b in _boxes(ruleset_id)}
    if isinstance(body.get("options"), dict):
        body["options"] = {k: v for k, v in body["options"].items() if k in _options(ruleset_id)}
    case.path_parameters = {**(case.path_parameters or {}), "id": ruleset_id}


def _fit_game(case: schemathesis.Case, action: str) -> None:
    """A move, on a known game of a ruleset that has it, with the token of its seat to move."""
    body = case.body if isinstance(case.body, dict) else {}
    with _lock:
        fitting = [
            game for game, ruleset in _rulesets.items()
            if _fits_move(ruleset, action, body) and _tokens.get(game)
        ]
        if not fitting:
            return
        game_id = fitting[hash(repr(body)) % len(fitting)]
        seats = _tokens[game_id]
        token = seats.get(_to_move.get(game_id, 0)) or next(iter(seats.values()))
    case.path_parameters = {**(case.path_parameters or {}), "id": game_id}
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@schemathesis.hook
def before_call(context: schemathesis.HookContext, case: schemathesis.Case, kwargs: Any) -> None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or case.method != "POST":
        return
    path = case.operation.path
    if re.match(RULESET_PATH, path):
        _fit_ruleset_body(case, re.match(RULESET_PATH, path).group(1))
    elif re.match(GAME_MOVE, path):
        _fit_game(case, re.match(GAME_MOVE, path).group(1))
