"""The JSON bodies of games, rulesets, events, advice and analysis, built straight from the
engine's view as plain dicts, each typed as its shape in ``games.api.schema.responses``."""

from typing import Any, Literal, cast

from games.api.schema.responses import (
    AdviceBody,
    AdviceOptionBody,
    AnalysisBody,
    CheckedBody,
    DiceBody,
    EventBody,
    GameBody,
    HintBody,
    OptionBody,
    PlayerBody,
    RecordBody,
    RulesetBody,
    TenThousandAdviceBody,
    TenThousandAnalysisBody,
    TenThousandHintBody,
    TurnBody,
    VerdictBody,
)
from games.models import Event, Game, Player
from games.play.advice import Hint
from games.play.analysis import GameAnalysis
from games.play.clocks import clock_shown
from games.play.dice import dice_shown
from games.play.records import GameRecord
from scoring import Option, Ruleset, get_ruleset
from scoring.match import GameStatus
from scoring.record_format import FORMAT
from scoring.records import Verdict
from scoring.strategy import Advice
from scoring.strategy.tenthousand_advice import TenThousandAdvice
from scoring.strategy.tenthousand_analysis import TenThousandAnalysis


def render_game(
    game: Game, players: list[Player], tokens: dict[int, str] | None = None
) -> GameBody:
    view = get_ruleset(game.ruleset).view(game.state, options=game.options)
    seats: list[PlayerBody] = []
    for player, shown in zip(players, view.players, strict=True):
        # The engine's view of the seat (an untyped dict) completes the shape.
        seat = cast(
            "PlayerBody",
            {"seat": player.seat, "name": player.name, "computer": player.computer, **shown},
        )
        seat["left"] = bool(view.left and view.left[player.seat])
        if tokens and player.seat in tokens:
            seat["token"] = tokens[player.seat]
        seats.append(seat)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "options": game.options,
        "status": game.status,
        "ranked": game.ranked,
        "seed": game.seed,
        "dice": cast("DiceBody", dice_shown(game)),  # the algorithm: one the body names
        "clock": clock_shown(game),
        "open_seats": game.open_seats,
        "version": game.version,
        "round": view.round,
        "current_seat": view.current_seat if game.status == GameStatus.ACTIVE else None,
        "turn": cast("TurnBody", view.turn),  # the engine's view, an untyped dict
        "choices": view.choices if game.status == GameStatus.ACTIVE else {},
        "players": seats,
        "winners": view.winners,
        "created_at": iso_time(game.created_at),
        "updated_at": iso_time(game.updated_at),
        "finished_at": iso_time(game.finished_at) if game.finished_at else None,
        # A student's game: its classroom and the student (one query when not prefetched).
        "classroom": str(game.classroom_id) if game.classroom_id else None,
        "student": game.student.name if game.student is not None else None,
        "assignment": str(game.assignment_id) if game.assignment_id else None,
        "assignment_game": game.assignment_game,
    }


def render_record(record: GameRecord) -> RecordBody:
    game = record.game
    view = get_ruleset(game.ruleset).view(game.state, options=game.options)
    return {
        "format": FORMAT,
        "id": str(game.id),
        "ruleset": game.ruleset,
        "options": game.options,
        "players": [
            {"seat": p.seat, "name": p.name, "computer": p.computer} for p in record.players
        ],
        "dice": cast("DiceBody", dice_shown(game)),
        "events": [render_event(event) for event in record.events],
        "status": game.status,
        "totals": view.totals,
        "winners": view.winners,
    }


def render_verdict(verdict: Verdict) -> VerdictBody:
    if not verdict.valid:
        return {
            "valid": False,
            "problems": [
                {"seq": p.seq, "code": p.code, "detail": p.detail} for p in verdict.problems
            ],
        }
    checked: CheckedBody = {
        "dice": "unchecked" if verdict.dice is None else verdict.dice,
        "moves": verdict.moves,
    }
    return {"valid": True, "checked": checked}


def render_ruleset(ruleset: Ruleset) -> RulesetBody:
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "description": ruleset.description,
        "dice": ruleset.dice,
        "rolls_per_turn": ruleset.rolls_per_turn,
        "min_players": ruleset.min_players,
        "max_players": ruleset.max_players,
        "moves": sorted(move.action for move in ruleset.moves),
        "categories": [
            {"id": c.id, "name": c.name, "section": c.section, "description": c.description}
            for c in ruleset.categories
        ],
        "options": {option.id: render_option(option) for option in ruleset.options},
    }


JSON_TYPES: dict[type, Literal["string", "integer", "boolean"]] = {
    str: "string", int: "integer", bool: "boolean"
}


def render_option(option: Option) -> OptionBody:
    shown: OptionBody = {
        "type": JSON_TYPES[option.kind],
        "values": list(option.values),
        "default": option.default,
        "description": option.description,
    }
    for bound in ("minimum", "maximum", "step"):
        if getattr(option, bound, None) is not None:
            shown[bound] = getattr(option, bound)
    return shown


def render_event(event: Event) -> EventBody:
    return {
        "seq": event.seq,
        "type": event.type,
        "seat": event.seat,
        "data": event.data,
        "created_at": iso_time(event.created_at),
    }


def iso_time(value: Any) -> str:
    """A time as the API writes it: ISO 8601 in UTC, with ``Z``."""
    return value.isoformat().replace("+00:00", "Z")


def render_advice(advice: Advice) -> AdviceBody:
    """Expected finals rounded to 4 places, the best move, every option."""
    return {
        "method": "optimal",
        "expected_final": round(advice.expected_final, 4),
        "best": _advice_option(advice.best) if advice.best is not None else None,
        "options": [_advice_option(option) for option in advice.options],
    }


def _advice_option(option: dict[str, Any]) -> AdviceOptionBody:
    rounded = {**option, "expected_final": round(option["expected_final"], 4)}
    return cast("AdviceOptionBody", rounded)


def render_ten_thousand_advice(advice: TenThousandAdvice) -> TenThousandAdviceBody:
    """Every option with its value, unrounded (exact to 1e-9), best first."""
    body = {
        "method": advice.method,
        "objective": advice.objective,
        "best": advice.best,
        "options": [{"option": option, "value": value} for option, value in advice.options],
    }
    return cast("TenThousandAdviceBody", body)  # method and objective: ones the body names


def render_hint(hint: Hint) -> HintBody | TenThousandHintBody:
    if hint.ten_thousand is not None:
        return {"seat": hint.seat, **render_ten_thousand_advice(hint.ten_thousand)}
    if hint.advice is not None:
        return {"seat": hint.seat, **render_advice(hint.advice)}
    # No table for the ruleset: the move of the strongest computer player, with no values.
    return {
        "seat": hint.seat,
        "method": "heuristic",
        "expected_final": None,
        "best": cast("AdviceOptionBody | None", hint.move),
        "options": [],
    }


def render_analysis(result: GameAnalysis) -> AnalysisBody | TenThousandAnalysisBody:
    """The seats (the same fields for every ruleset) and the decisions; Ten Thousand adds
    its objective."""
    names = {player.seat: player for player in result.players}
    analysis = result.analysis
    seats = [
        {
            "seat": seat.seat,
            "name": names[seat.seat].name,
            "computer": names[seat.seat].computer,
            "total": seat.total,
            "expected_start": seat.expected_start,
            "expected_loss": seat.expected_loss,
            "accuracy": seat.accuracy,
            "luck": seat.luck,
            "counts": seat.counts,
        }
        for seat in analysis.seats
    ]
    decisions = [decision.as_dict() for decision in analysis.decisions]
    # The engine's seats and decisions (untyped dicts) are the bodies' shapes.
    if isinstance(analysis, TenThousandAnalysis):
        body = {
            "method": analysis.method,
            "objective": analysis.objective,
            "seats": seats,
            "decisions": decisions,
        }
        return cast("TenThousandAnalysisBody", body)
    return cast(
        "AnalysisBody", {"method": analysis.method, "seats": seats, "decisions": decisions}
    )
