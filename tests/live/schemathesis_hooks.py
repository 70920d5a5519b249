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
(:func:`map_case`); malformed ("negative") cases are sent as generated.
"""

import contextlib
import json
import re
import threading
import urllib.request
from typing import Any

import schemathesis

from scoring import RULESETS
from scoring.boxgame import BoxGame
from scoring.strategy import levels_for

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

RULESET_PATH = re.compile(r"^/api/v1/rulesets/\{id\}/(score|advice)/$")
GAME_MOVE = re.compile(r"^/api/v1/games/\{id\}/(roll|hold|score|scratch|bank|pass)/$")
SOLVED = ("yahtzee", "yatzy", "forced-yatzy")  # the rulesets advice is given for
MOST_SEATS = 8


def _boxes(ruleset_id: str) -> set[str]:
    return {box.id for box in RULESETS[ruleset_id].categories}


def _only_options_of(ruleset_id: str, body: dict[str, Any]) -> None:
    if isinstance(body.get("options"), dict):
        known = {option.id for option in RULESETS[ruleset_id].options}
        body["options"] = {k: v for k, v in body["options"].items() if k in known}


def _ruleset_for_move(action: str, body: dict[str, Any]) -> str:
    """A ruleset in which this move and body are well formed."""
    if action in ("bank", "pass") or "set_aside" in body:
        return "ten-thousand"
    if action in ("score", "scratch"):
        return next(r for r in RULESETS if body.get("category") in _boxes(r))
    return "maxi-yatzy" if 5 in body.get("hold", []) else "yahtzee"


def _fits_move(ruleset_id: str, action: str, body: dict[str, Any]) -> bool:
    ruleset = RULESETS[ruleset_id]
    if not isinstance(ruleset, BoxGame):
        return action in ("bank", "pass") or (action == "roll" and "hold" not in body)
    if action in ("bank", "pass") or "set_aside" in body:
        return False
    if action in ("score", "scratch"):
        return body.get("category") in _boxes(ruleset_id)
    return all(position < ruleset.dice for position in body.get("hold", []))


def _new_game(case: schemathesis.Case, ruleset_id: str) -> str | None:
    """Create a game of this ruleset on the service under test; its id (None on failure)."""
    base = (case.operation.base_url or "").rstrip("/")
    body = json.dumps({"ruleset": ruleset_id, "players": [{"name": "Fit"}]}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/games/", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            game = json.loads(answer.read())
    except OSError:
        return None
    _remember(game)
    return game.get("id")


def _fit_move(case: schemathesis.Case, action: str) -> None:
    """A move, on a known game of a ruleset that has it (made now if there is none)."""
    body = case.body if isinstance(case.body, dict) else {}
    with _lock:
        fitting = [
            game for game, ruleset in _rulesets.items()
            if _fits_move(ruleset, action, body) and _tokens.get(game)
        ]
    game_id = fitting[-1] if fitting else _new_game(case, _ruleset_for_move(action, body))
    if game_id is not None:
        case.path_parameters = {**(case.path_parameters or {}), "id": game_id}


def _fit_ruleset_request(case: schemathesis.Case, route: str) -> None:
    """A calculator or advice request, on a ruleset whose dice, boxes and options it names."""
    body = case.body if isinstance(case.body, dict) else {}
    named = set(body.get("scorecard") or {})
    if route == "advice":
        ruleset_id = max(SOLVED, key=lambda r: len(named & _boxes(r)))
        # Only a position that play can reach has a value: boxes scratched, no bonus yet.
        if isinstance(body.get("scorecard"), dict):
            body["scorecard"] = {
                box: None if points is None else 0
                for box, points in body["scorecard"].items()
                if box in _boxes(ruleset_id)
            }
        if "yahtzee_bonus" in body:
            body["yahtzee_bonus"] = 0
        # rolls_left goes with dice (how many rolls are left after them), and only with dice.
        if isinstance(body.get("dice"), list):
            body.setdefault("rolls_left", 2)
        else:
            body.pop("rolls_left", None)
    else:
        dice = body.get("dice")
        count = len(dice) if isinstance(dice, list) else 5
        fits = [
            r for r, ruleset in RULESETS.items()
            if not isinstance(ruleset, BoxGame) or ruleset.dice == count
        ]
        ruleset_id = max(fits, key=lambda r: len(named & _boxes(r)))
        if isinstance(body.get("scorecard"), dict):
            body["scorecard"] = {
                box: points for box, points in body["scorecard"].items()
                if box in _boxes(ruleset_id)
            }
    _only_options_of(ruleset_id, body)
    case.path_parameters = {**(case.path_parameters or {}), "id": ruleset_id}


def _fit_create(case: schemathesis.Case) -> None:
    """A new game whose options, computer levels and seats its ruleset takes."""
    body = case.body
    if not isinstance(body, dict) or body.get("ruleset") not in RULESETS:
        return
    ruleset_id = body["ruleset"]
    levels = levels_for(ruleset_id)
    seats = body.get("players") if isinstance(body.get("players"), list) else []
    for seat in seats:
        if isinstance(seat, dict) and seat.get("computer") not in (None, *levels):
            seat["computer"] = levels[0]
    if isinstance(body.get("open_seats"), int):
        body["open_seats"] = min(body["open_seats"], MOST_SEATS - len(seats))
    _only_options_of(ruleset_id, body)
    unattended = not body.get("open_seats") and all(
        isinstance(seat, dict) and seat.get("computer") for seat in seats
    )
    if unattended and isinstance(body.get("options"), dict):
        # A game of computers only is played at once: the standard length at most.
        for name, most in (("target", 10_000), ("bank_minimum", 350)):
            if isinstance(body["options"].get(name), int):
                body["options"][name] = min(body["options"][name], most)


@schemathesis.hook
def map_case(context: schemathesis.HookContext, case: schemathesis.Case) -> schemathesis.Case:
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive:
        _fit(case)
    return case


@schemathesis.hook
def before_add_examples(
    context: schemathesis.HookContext, examples: list[schemathesis.Case]
) -> None:
    """The schema's own examples (well formed, each for one ruleset) go where they fit too."""
    for case in examples:
        _fit(case)


def _fit(case: schemathesis.Case) -> None:
    if case.method != "POST":
        return
    path = case.operation.path
    if matched := RULESET_PATH.match(path):
        _fit_ruleset_request(case, matched.group(1))
    elif matched := GAME_MOVE.match(path):
        _fit_move(case, matched.group(1))
    elif path == "/api/v1/games/":
        _fit_create(case)
