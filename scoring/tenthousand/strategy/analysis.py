"""Ten Thousand analysis: every decision of a game of one or two seats scored against the
solved game, in its own objective.

A decision is made on every throw that can score (a bust decides nothing). Its options are
those of :func:`~.advice.advise_position` in the position of that throw (the
seat's total, the other's, the turn points, the throw), and what was chosen is read from
the log: a ``set_aside`` event (the faces set aside) followed by ``rolled`` (then
``roll``) or ``banked`` (then ``bank``), or a ``passed`` event. ``seq`` is the event that
records the decision: the ``set_aside``, or the ``passed``.

Values are the advice's, unrounded: the seat's chance of winning (``win_probability``, a
game of two seats) or its expected number of turns still to play, this one included
(``expected_turns``, one seat). ``loss`` is the distance from the best option, never
negative: best minus chosen for a chance, chosen minus best for turns. The thresholds of
the labels and the formula of the accuracy are given per objective below.
"""

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ...boxgames.strategy.analysis import SeatAnalysis
from ...state import LoggedEvent, Options, ten_thousand_options
from .advice import (
    PASS,
    TURNS,
    WIN,
    Option,
    Position,
    TenThousandAdvice,
    advise_position,
)
from .tables import SolvedTables

# A decision is ``best`` when it loses at most this much (the values are exact to 1e-9).
BEST_TOLERANCE = 1e-6
# Per objective: losses below the first bound are inaccuracies, below the second mistakes,
# and from there on blunders. A chance of winning: under one percentage point is a close
# call, from four points a clear error (about a bad turn's worth, near the end of a game).
# Expected turns: under a tenth of a turn is a close call; from half a turn on, a blunder
# (banking a small turn early, or throwing two dice for a few points with much at stake).
THRESHOLDS = {WIN: (0.01, 0.04), TURNS: (0.1, 0.5)}
LABELS = ("best", "inaccuracy", "mistake", "blunder")
# The events a decision, the totals and the seats in play are read from.
EVENTS = ("rolled", "set_aside", "banked", "busted", "passed", "left")


def label_of(loss: float, objective: str) -> str:
    if loss <= BEST_TOLERANCE:
        return "best"
    inaccuracy, mistake = THRESHOLDS[objective]
    if loss < inaccuracy:
        return "inaccuracy"
    if loss < mistake:
        return "mistake"
    return "blunder"


def accuracy_of(expected_loss: float, expected_start: float, objective: str) -> float:
    """``win_probability``: ``100 * (1 - expected_loss / expected_start)``, at least 0 (the
    share of the seat's starting chance its decisions kept); ``expected_turns``:
    ``100 * expected_start / (expected_start + expected_loss)`` (optimal turns over the
    turns the decisions cost). Two decimals."""
    if objective == WIN:
        return round(max(0.0, 100.0 * (1.0 - expected_loss / expected_start)), 2)
    return round(100.0 * expected_start / (expected_start + expected_loss), 2)


@dataclass(frozen=True)
class Decision:
    seq: int
    seat: int
    round: int
    dice: list[int]
    turn_points: int
    totals: list[int]
    chosen: Option
    best: Option
    chosen_value: float
    best_value: float
    loss: float
    label: str

    def as_dict(self) -> dict[str, object]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "round": self.round,
            "dice": list(self.dice),
            "turn_points": self.turn_points,
            "totals": list(self.totals),
            "chosen": self.chosen,
            "best": self.best,
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "label": self.label,
        }


@dataclass(frozen=True)
class TenThousandAnalysis:
    method: str
    objective: str
    seats: list[SeatAnalysis]
    decisions: list[Decision]


class LogError(ValueError):
    """The log does not describe a game of these rules."""


def analyse_ten_thousand(
    tables: SolvedTables,
    options: Options,
    seat_count: int,
    log: Iterable[LoggedEvent],
    seats: Collection[int],
    *,
    finished: bool,
    winners: Collection[int] = (),
) -> TenThousandAnalysis:
    """The analysis of ``seats`` of a game of ``seat_count`` (1 or 2) seats with
    ``options`` (validated), whose log is ``log`` (events ``{"seq", "type", "seat",
    "data"}`` in order; only :data:`EVENTS` are read)."""
    if seat_count not in (1, 2):
        raise ValueError("analysis covers games of one or two seats")
    reader = _Reader(tables, options, seat_count, set(seats))
    for event in log:
        reader.read(event)
    opening = advise_position(
        tables, options, Position(0, (0,) * (seat_count - 1), 0, None)
    )
    first = opening.value_of({"keep": [], "then": "roll"})
    objective = opening.objective
    result = []
    for seat in sorted(set(seats)):
        mine = [d for d in reader.decisions if d.seat == seat]
        start = first if seat == 0 or objective == TURNS else 1.0 - first
        loss = sum(d.loss for d in mine)
        luck = None
        if finished and objective == WIN:
            luck = (1.0 if seat in winners else 0.0) - start + loss
        elif finished:
            luck = start + loss - reader.turns[seat]
        result.append(
            SeatAnalysis(
                seat=seat,
                total=reader.totals[seat],
                expected_start=start,
                expected_loss=loss,
                accuracy=accuracy_of(loss, start, objective) if mine else None,
                luck=luck,
                counts={name: sum(d.label == name for d in mine) for name in LABELS},
            )
        )
    return TenThousandAnalysis(opening.method, objective, result, reader.decisions)


class _Reader:
    """Replays the log's totals and turns, and values each decision as it completes."""

    def __init__(
        self, tables: SolvedTables, options: Options, seat_count: int,
        seats: set[int],
    ) -> None:
        self.tables, self.options, self.seats = tables, options, seats
        self.rules = ten_thousand_options(options)
        self.totals = [0] * seat_count
        self.turns = [0] * seat_count  # turns ended (banked, busted or passed)
        self.final_from: int | None = None
        self.decisions: list[Decision] = []
        self.dice: list[int] = []  # the last throw's six dice
        self.thrown: list[int] = []  # and which of them it threw
        self.turn_points = 0
        # The throw waiting for its decision: (position, faces) and, once set aside, the
        # set_aside event's seq and the kept faces.
        self.pending: tuple[Position, list[int]] | None = None
        self.kept: tuple[int, list[int]] | None = None

    def read(self, event: LoggedEvent) -> None:
        kind, seat, data, seq = event["type"], event["seat"], event["data"], event["seq"]
        if kind == "rolled":
            if self.kept is not None:
                self._decided(seat, self.kept[0], {"keep": self.kept[1], "then": "roll"})
            self.dice, self.thrown = list(data["dice"]), list(data["thrown"])
            faces = [self.dice[i] for i in self.thrown]
            self.pending = (self._position(seat, tuple(faces)), sorted(faces))
        elif kind == "set_aside":
            if self.pending is None:
                raise LogError(f"event {seq}: dice set aside with no throw to decide on")
            kept = sorted(self.dice[i] for i in data["dice"])
            self.kept = (seq, kept)
            self.turn_points += data["points"]
        elif kind == "banked":
            if self.kept is None:
                raise LogError(f"event {seq}: a bank with nothing set aside")
            self._decided(seat, self.kept[0], {"keep": self.kept[1], "then": "bank"})
            self.totals[seat] = data["total"]
            reached = data["total"] >= self.rules["target"]
            if self.rules["final_round"] and self.final_from is None and reached:
                self.final_from = seat
            self._end_turn(seat)
        elif kind == "passed":
            if self.pending is not None:
                self._decided(seat, seq, PASS)
            self._end_turn(seat)
        elif kind == "busted":
            self.pending = None
            self._end_turn(seat)
        elif kind == "left":
            self.pending = self.kept = None
            self.turn_points = 0

    def _position(self, seat: int, faces: tuple[int, ...]) -> Position:
        """The position of the seat's throw: a seat that left still counts as the other
        seat (the analysis keeps one objective for the whole game)."""
        others = tuple(total for s, total in enumerate(self.totals) if s != seat)
        lead = max(others) if self.final_from is not None and others else None
        return Position(self.totals[seat], others, self.turn_points, faces, lead)

    def _decided(self, seat: int, seq: int, chosen: Option) -> None:
        assert self.pending is not None
        position, faces = self.pending
        self.pending, self.kept = None, None
        if seat not in self.seats:
            return
        advice = advise_position(self.tables, self.options, position)
        self.decisions.append(_decision(advice, position, faces, seat, seq, chosen,
                                        self.turns[seat] + 1))

    def _end_turn(self, seat: int) -> None:
        self.pending = self.kept = None
        self.turn_points = 0
        self.turns[seat] += 1


def _decision(
    advice: TenThousandAdvice, position: Position, faces: list[int], seat: int, seq: int,
    chosen: Option, round_: int,
) -> Decision:
    best, best_value = advice.options[0]
    try:
        chosen_value = advice.value_of(chosen)
    except KeyError:
        raise LogError(f"event {seq}: {chosen} is not an option of {faces}") from None
    worse = chosen_value - best_value if advice.objective == TURNS else best_value - chosen_value
    loss = max(0.0, worse)
    label = label_of(loss, advice.objective)
    if label == "best":
        best, best_value, loss = chosen, chosen_value, 0.0
    return Decision(
        seq=seq, seat=seat, round=round_, dice=faces, turn_points=position.turn_points,
        totals=[position.own, *position.others], chosen=chosen, best=best,
        chosen_value=chosen_value, best_value=best_value, loss=loss, label=label,
    )
