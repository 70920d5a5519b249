"""Game analysis: every decision of a box game scored against optimal solitaire play.

A decision is made on a roll. With rolls left, its options are every keep (the dice held
for the next roll, as a multiset of faces) and every legal box; with none left, every legal
box. What the player chose is read from the log: the ``rolled`` event that follows (the
dice it did not throw are the keep) or the ``scored``/``scratched`` event (the box; a
scratch enters 0). ``held`` events are not decisions: only what is held when the next roll
is made counts.

Every option is valued as the seat's expected final score after it, under optimal play
from then on, with the very computations :func:`~scoring.boxgames.strategy.advise_with` uses (the
same table, :func:`~scoring.boxgames.strategy.api.box_value` for boxes, the same keep values for
keeps), so the analysis and the hints never disagree. The *loss* of a decision is the best
option's value minus the chosen one's.

Along one seat's game the values chain: the expected score at the start, plus what each
roll's dice brought over what was expected before the roll (luck), minus what each
decision gave away (loss), is the final total. Hence, for a seat,
``luck = total - expected_start + expected_loss``.
"""

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...state import LoggedEvent, Options
from ...strategy.combinatorics import sub_multisets
from ..boxgame import Card
from .api import Folder, Strategy, _position, box_value, load_strategy
from .turn import best_keeps, keep_values

Option = tuple[int, ...] | str  # a keep (sorted faces) or a box id

METHOD = "optimal"
# A decision is ``best`` when it loses at most this much (float rounding, nothing more).
BEST_TOLERANCE = 1e-6
# Losses below ``INACCURACY_BELOW`` points are inaccuracies, below ``MISTAKE_BELOW``
# mistakes, and from there on blunders. Chosen from the losses of the computer players
# (``evidence --levels``): under 2 points is the slightly worse keep or box that is hard to
# see at the table (about half the greedy player's losing decisions); 8 points or more is
# giving away a big box, a straight or the upper bonus (the greedy player's worst tenth).
INACCURACY_BELOW = 2.0
MISTAKE_BELOW = 8.0
LABELS = ("best", "inaccuracy", "mistake", "blunder")
DECIMALS = 6  # values and losses: table values are float32 (about 3e-5 at 250 points)


def label_of(loss: float) -> str:
    """The label of a decision that lost ``loss`` points of expected final score."""
    if loss <= BEST_TOLERANCE:
        return "best"
    if loss < INACCURACY_BELOW:
        return "inaccuracy"
    if loss < MISTAKE_BELOW:
        return "mistake"
    return "blunder"


def accuracy_of(expected_loss: float, expected_start: float) -> float:
    """The share (in percent) of the expected score that the seat's decisions kept:
    ``100 * (1 - expected_loss / expected_start)``, at least 0, to two decimals."""
    return round(max(0.0, 100.0 * (1.0 - expected_loss / expected_start)), 2)


class LogError(ValueError):
    """The log does not describe a game these rules could have produced."""


@dataclass(frozen=True)
class Decision:
    seq: int
    seat: int
    round: int
    kind: str  # "keep" or "box": the kind of the option chosen
    dice: list[int]  # sorted faces the decision was made on
    rolls_left: int
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
            "kind": self.kind,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "chosen": _shown(self.chosen),
            "best": _shown(self.best),
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "label": self.label,
        }


@dataclass(frozen=True)
class SeatAnalysis:
    seat: int
    total: int
    expected_start: float
    expected_loss: float
    accuracy: float | None  # None while the seat has made no decision
    luck: float | None  # None where it has no meaning (Ten Thousand, before the end)
    counts: dict[str, int]


@dataclass(frozen=True)
class Analysis:
    method: str
    seats: list[SeatAnalysis]
    decisions: list[Decision]


def analyse(
    ruleset_id: str,
    options: Options | None,
    log: Iterable[LoggedEvent],
    seats: Collection[int],
    folder: Folder,
    *,
    build_missing: bool | None = None,
) -> Analysis:
    """The analysis of ``seats`` in a game of ``ruleset_id`` with ``options`` whose log is
    ``log``: events ``{"seq", "type", "seat", "data"}`` in order, as the API shows them
    (only ``rolled``, ``scored`` and ``scratched`` matter).

    The table is loaded exactly as :func:`~scoring.boxgames.strategy.advise` loads it, whatever
    :func:`load_strategy` does about a missing table, unless ``build_missing`` is given
    (``False``: never solve one here). The log is read only once the table is loaded.
    """
    loading = {} if build_missing is None else {"build_missing": build_missing}
    strategy = load_strategy(ruleset_id, options, folder, **loading)
    return analyse_with(strategy, log, seats)


def analyse_with(
    strategy: Strategy, log: Iterable[LoggedEvent], seats: Collection[int]
) -> Analysis:
    """:func:`analyse` on an already loaded strategy."""
    turns = _read_turns(strategy, log, set(seats))
    keeps = _value_keeps(strategy, turns)
    start = round(_position(strategy, strategy.model.blank_card(), 0)[3], DECIMALS)
    decisions: list[Decision] = []
    for turn in turns:
        decisions.extend(_decisions_of(strategy, turn, keeps))
    decisions.sort(key=lambda d: d.seq)
    ruleset = strategy.model.ruleset
    cards, bonuses = _final_cards(strategy, turns, seats)
    result = []
    for seat in sorted(set(seats)):
        mine = [d for d in decisions if d.seat == seat]
        loss = round(sum(d.loss for d in mine), DECIMALS)
        total = ruleset.seat_view(cards[seat], bonuses[seat])["total"]
        counts = {name: sum(d.label == name for d in mine) for name in LABELS}
        result.append(
            SeatAnalysis(
                seat=seat,
                total=total,
                expected_start=start,
                expected_loss=loss,
                accuracy=accuracy_of(loss, start) if mine else None,
                luck=round(total - start + loss, DECIMALS),
                counts=counts,
            )
        )
    return Analysis(method=METHOD, seats=result, decisions=decisions)


# -- reading the log -----------------------------------------------------------------------


@dataclass
class _Turn:
    """One turn of one seat: the card it started from and what was decided on each roll."""

    seat: int
    card: Card
    bonus: int
    round: int
    rolls: list[list[int]] = field(default_factory=list)  # the dice after each roll
    # (seq, index of the roll decided on, what was chosen, points of a box or None)
    choices: list[tuple[int, int, Option, int | None]] = field(default_factory=list)
    filled: tuple[str, int, int] | None = None  # (box, points, bonus earned) at its end
    column: int = -1  # its column in the keep-value arrays, if it decided with rolls left


def _read_turns(
    strategy: Strategy, log: Iterable[LoggedEvent], seats: set[int]
) -> list[_Turn]:
    """Every turn of ``seats`` that has at least one roll, in the order they were played."""
    m = strategy.model
    cards: dict[int, Card] = {}
    bonuses: dict[int, int] = {}
    current: dict[int, _Turn] = {}
    turns: list[_Turn] = []
    for event in log:
        kind, seat, data = event["type"], event["seat"], event["data"]
        if seat not in seats or kind not in {"rolled", "scored", "scratched"}:
            continue
        if seat not in cards:
            cards[seat], bonuses[seat] = m.blank_card(), 0
        turn = current.get(seat)
        if turn is None:
            if kind != "rolled":
                raise LogError(f"event {event['seq']}: a box filled before any roll")
            filled = sum(value is not None for value in cards[seat].values())
            turn = _Turn(seat, dict(cards[seat]), bonuses[seat], filled + 1)
            current[seat] = turn
            turns.append(turn)
        if kind == "rolled":
            dice = list(data["dice"])
            if turn.rolls:
                before = turn.rolls[-1]
                thrown = set(data["thrown"])
                kept = [i for i in range(len(before)) if i not in thrown]
                if any(dice[i] != before[i] for i in kept):
                    raise LogError(f"event {event['seq']}: a held die changed")
                keep = tuple(sorted(before[i] for i in kept))
                turn.choices.append((event["seq"], len(turn.rolls) - 1, keep, None))
            if len(turn.rolls) >= m.rolls_per_turn:
                raise LogError(f"event {event['seq']}: more rolls than a turn allows")
            turn.rolls.append(dice)
            continue
        box_id, points, earned = data["category"], data["points"], data["yahtzee_bonus"]
        turn.choices.append((event["seq"], len(turn.rolls) - 1, box_id, points))
        turn.filled = (box_id, points, earned)
        cards[seat][box_id] = points
        bonuses[seat] += earned
        del current[seat]
    return turns


def _final_cards(
    strategy: Strategy, turns: Sequence[_Turn], seats: Collection[int]
) -> tuple[dict[int, Card], dict[int, int]]:
    """Each seat's card and Yahtzee bonus after its last filled box."""
    cards = {seat: strategy.model.blank_card() for seat in seats}
    bonuses = dict.fromkeys(seats, 0)
    for turn in turns:
        if turn.filled is not None:
            box_id, points, earned = turn.filled
            cards[turn.seat] = {**turn.card, box_id: points}
            bonuses[turn.seat] = turn.bonus + earned
    return cards, bonuses


# -- valuing -------------------------------------------------------------------------------


@dataclass
class _KeepValues:
    """``by_left[L][keep, column]``: the expected points to come, from the start of the
    turn's card, of holding ``keep`` when ``L`` rolls are left (so ``L - 1`` after the
    throw); one column per turn that has a keep decision."""

    by_left: dict[int, np.ndarray]


def _value_keeps(strategy: Strategy, turns: Sequence[_Turn]) -> _KeepValues:
    """Keep values for every turn with a decision made while rolls were left (whatever was
    chosen: keeps are options then), all turns at once, one column each.

    The arithmetic is column by column exactly that of ``advise_with`` (``roll_values``,
    then ``keep_values`` and ``best_keeps`` for each further roll), so values agree to the
    last bit.
    """
    m = strategy.model
    lefts = {id(t): [m.rolls_per_turn - 1 - c[1] for c in t.choices] for t in turns}
    rolling = [t for t in turns if max(lefts[id(t)], default=0) > 0]
    by_left: dict[int, np.ndarray] = {}
    if not rolling:
        return _KeepValues(by_left)
    columns = []
    for column, turn in enumerate(rolling):
        turn.column = column
        index, f, u, _ = _position(strategy, turn.card, turn.bonus)
        columns.append(
            strategy.solver.roll_values(strategy.table.values, index, np.array([f]), np.array([u]))
        )
    rolls = np.concatenate(columns, axis=1)
    deepest = max(max(lefts[id(t)]) for t in rolling)
    for left in range(1, deepest + 1):
        keeps = keep_values(m.space, rolls)
        by_left[left] = keeps.copy()
        if left < deepest:
            rolls = best_keeps(m.space, keeps)
    return _KeepValues(by_left)


def _decisions_of(strategy: Strategy, turn: _Turn, keep_table: _KeepValues) -> list[Decision]:
    """The turn's decisions, each with every option valued and the best one found."""
    m = strategy.model
    ruleset = m.ruleset
    banked = ruleset.seat_view(turn.card, turn.bonus)["total"]
    # A box's value depends on the dice only through its points and the bonus the fill
    # earns: the rolls of a turn share most of them.
    filled: dict[tuple[str, int, int], float] = {}

    def value(dice: list[int], earned: int, box_id: str, pts: int) -> float:
        key = (box_id, pts, earned)
        if key not in filled:
            filled[key] = box_value(strategy, turn.card, turn.bonus, dice, box_id, pts)
        return filled[key]

    decisions = []
    for seq, roll, chosen, points in turn.choices:
        dice = turn.rolls[roll]
        left = m.rolls_per_turn - 1 - roll
        # Options in advise's order: boxes in card order, then keeps smallest first.
        legal = ruleset.legal(turn.card, dice, m.options)
        earned = ruleset.fill_bonus(turn.card, dice, m.options, turn.bonus)
        options: list[tuple[Option, float]] = [
            (box_id, value(dice, earned, box_id, pts)) for box_id, pts in legal.items()
        ]
        if left:
            keeps = keep_table.by_left[left][:, turn.column]
            options += [
                (keep, banked + float(keeps[m.space.keep_index[keep]]))
                for keep in sub_multisets(tuple(sorted(dice)))
            ]
        if isinstance(chosen, tuple):
            if not left:
                raise LogError(f"event {seq}: a roll with no roll left")
            chosen_value = dict(options)[chosen]
        else:
            if chosen not in legal or points not in (legal[chosen], 0):
                raise LogError(f"event {seq}: {chosen} cannot take {points} with {dice}")
            chosen_value = value(dice, earned, chosen, points)
        best, best_value = max(options, key=lambda o: round(o[1], DECIMALS))
        chosen_value, best_value = round(chosen_value, DECIMALS), round(best_value, DECIMALS)
        loss = max(0.0, round(best_value - chosen_value, DECIMALS))
        label = label_of(loss)
        if label == "best":
            best, best_value, loss = chosen, chosen_value, 0.0
        decisions.append(
            Decision(
                seq=seq,
                seat=turn.seat,
                round=turn.round,
                kind="keep" if isinstance(chosen, tuple) else "box",
                dice=sorted(dice),
                rolls_left=left,
                chosen=chosen,
                best=best,
                chosen_value=chosen_value,
                best_value=best_value,
                loss=loss,
                label=label,
            )
        )
    return decisions


def _shown(option: Option) -> list[int] | str:
    return list(option) if isinstance(option, tuple) else option
