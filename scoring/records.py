"""Checking a game record (docs/contract.md, "Verifiable dice and records"): its commitment, every
thrown die, every move, and the totals and winners it claims.

A record is checked by playing it again: each move the log shows is turned back into the
command that made it (:func:`commands`) and played through the same :class:`~scoring.match.
Match` the service plays with, computer seats included (their moves are read from the log,
not chosen again). The dice of each throw are the ones the log shows; where the secret is
revealed, each of them is also derived from it (``scoring.verifiable``) at the
coordinates the engine gives the throw. Every event the replay writes must then be the
event the record shows, in order.

The work is bounded by the record itself: one engine move per logged move, one derivation
per thrown die, and the record's size is limited by whoever reads it (the API: 1 MB).
"""

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import cast

from .commands import Bank, Command, Hold, Join, Leave, Pass, Roll, Score, Scratch, Start
from .errors import RuleError, gettext_noop
from .match import Match, Seat, status
from .record_format import CODES_BY_FIELD, Logged, Problem, Record, Verdict, parse
from .record_format import PROBLEM_CODES as PROBLEM_CODES  # the codes' home is here for callers
from .ruleset import Event, Ruleset, State
from .state import Created, OptionValue
from .verifiable import DerivedDice, commitment

# Events a move writes but no command asks for: they are compared, never replayed.
FOLLOWING = {"busted", "finished"}
# Events that record something beside the moves (a turn clock's notice): skipped.
NOTICES = {"timed_out"}


class _NoMind:
    """The computers' own choices are read from the log: a replay never draws one."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a replayed computer seat chose a move by itself")


NO_MIND = _NoMind()


class _Stop(Exception):
    """Ends the replay at its first problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.detail)
        self.problem = problem


def verify(document: object) -> Verdict:
    """Checks a record; raises ``record_format.NotARecord`` for a document that is not one."""
    record = parse(document)
    verdict = Verdict()
    dice = _revealed(record, verdict)
    try:
        match, state = _replay(record, dice, verdict)
    except _Stop as stop:
        verdict.problems.append(stop.problem)
        return verdict
    _check_end(record, match, state, verdict)
    return verdict


# -- the dice ------------------------------------------------------------------------------


def _revealed(record: Record, verdict: Verdict) -> DerivedDice | None:
    """The game's dice when its secret is shown and matches the commitment; else None (and,
    for a secret that does not match, the problem)."""
    if record.algorithm != DerivedDice.algorithm or record.secret is None:
        return None
    try:
        secret = bytes.fromhex(record.secret)
    except ValueError:
        secret = None
    if secret is None or commitment(secret) != record.commitment:
        verdict.problems.append(
            Problem(None, "commitment_mismatch",
                    gettext_noop("the secret's SHA-256 is not the commitment"))
        )
        return None
    if record.client_seed is None:
        verdict.problems.append(
            Problem(None, "die_mismatch",
                    gettext_noop("no client seed: the dice cannot be derived"))
        )
        return None
    verdict.dice = 0
    return DerivedDice(secret, record.client_seed)


class _LoggedDice:
    """The dice source of a replay: each throw answers the faces its ``rolled`` event shows,
    after checking them against the secret's (when it is revealed)."""

    def __init__(self, throws: Iterator[Logged], derived: DerivedDice | None, verdict: Verdict):
        self.throws = throws
        self.derived = derived
        self.verdict = verdict

    def throw(self, seat: int, turn: int, roll: int, positions: Sequence[int]) -> list[int]:
        event = next(self.throws, None)
        if event is None:
            raise _Stop(Problem(None, "illegal_move",
                                gettext_noop("a move threw dice the log does not show")))
        shown = event.data.get("dice")
        if (
            not isinstance(shown, list)
            or len(shown) <= max(positions, default=0)
            or not all(type(value) is int and 1 <= value <= 6 for value in shown)
        ):
            raise _Stop(Problem(event.seq, "die_mismatch",
                                gettext_noop("the dice are not faces from 1 to 6")))
        faces = [shown[position] for position in positions]
        if self.derived is not None:
            expected = self.derived.throw(seat, turn, roll, positions)
            for position, got, wanted in zip(positions, faces, expected, strict=True):
                if got != wanted:
                    raise _Stop(Problem(
                        event.seq,
                        "die_mismatch",
                        gettext_noop("die {position} of seat {seat}'s turn {turn}, throw "
                                     "{roll} shows {got}; the secret gives {wanted}"),
                        {"position": position, "seat": seat, "turn": turn, "roll": roll,
                         "got": got, "wanted": wanted},
                    ))
            assert self.verdict.dice is not None
            self.verdict.dice += len(positions)
        return faces


# -- the moves -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A command read back from the log: who made it, and the event that shows it."""

    seat: int | None
    command: Command | None  # None: the game was abandoned
    seq: int


def commands(events: Sequence[Logged], ruleset: Ruleset) -> Iterator[Move]:
    """The commands that wrote the log after its ``created`` event, in order."""
    holds = Hold in ruleset.moves
    index = 1
    while index < len(events):
        event = events[index]
        index += 1
        kind, data = event.type, event.data
        if kind in FOLLOWING or kind in NOTICES or (kind == "started" and event.seat is None):
            continue  # written by the move before it, or a notice
        if kind == "set_aside":
            following = events[index] if index < len(events) else None
            chosen = _positions(data.get("dice"))
            index += 1
            if following is not None and following.type == "rolled":
                yield Move(event.seat, Roll(set_aside=chosen), event.seq)
            elif following is not None and following.type == "banked":
                yield Move(event.seat, Bank(set_aside=chosen), event.seq)
            else:
                raise _Stop(
                    Problem(event.seq, "illegal_move",
                            gettext_noop("dice set aside neither thrown nor banked"))
                )
            continue
        yield Move(event.seat, _command(event, holds=holds), event.seq)


def _command(event: Logged, *, holds: bool) -> Command | None:
    data = event.data
    match event.type:
        case "rolled" if not holds:
            return Roll()
        case "rolled":
            thrown = data.get("thrown")
            count = len(shown) if isinstance(shown := data.get("dice"), list) else 0
            if not isinstance(thrown, list):
                raise _Stop(Problem(event.seq, "die_mismatch",
                                    gettext_noop("a throw must list the dice thrown")))
            return Roll(hold=tuple(i for i in range(count) if i not in thrown))
        case "held":
            return Hold(hold=_positions(data.get("held")))
        case "scored":
            return Score(category=data.get("category"))  # type: ignore[arg-type]  # the log's value as written: the engine refuses a wrong one
        case "scratched":
            return Scratch(category=data.get("category"))  # type: ignore[arg-type]  # the log's value as written: the engine refuses a wrong one
        case "passed":
            return Pass()
        case "left":
            return Leave()
        case "started":
            return Start()
        case "joined":
            return Join(name=data.get("name"))  # type: ignore[arg-type]  # the log's value as written: the engine refuses a wrong one
        case "abandoned":
            return None
    raise _Stop(Problem(event.seq, "illegal_move",
                        gettext_noop("no move writes an event {type!r}"), {"type": event.type}))


def _positions(value: object) -> tuple[int, ...]:
    # The engine checks the positions themselves; anything else than a list fails there.
    return tuple(value) if isinstance(value, list) else value  # type: ignore[return-value]  # see above


# -- the replay ----------------------------------------------------------------------------


def _replay(
    record: Record, derived: DerivedDice | None, verdict: Verdict
) -> tuple[Match, State]:
    """Plays the record's moves again, comparing every event written with the record's;
    answers the match and the state at the end of the log."""
    events = record.events
    if not events or events[0].type != "created":
        raise _Stop(Problem(None, "illegal_move",
                            gettext_noop("the log must open with a created event")))
    options = _in_order(record)
    seats = _created(record, events[0])
    first = cast(int, events[0].data.get("open_seats", 0))  # a bad count fails as a move
    moves = commands(events, record.ruleset)
    dice = _LoggedDice((e for e in events if e.type == "rolled"), derived, verdict)
    log = _Log([event for event in events if event.type not in NOTICES])
    log.check([Event("created", None, cast(Created, events[0].data))])
    last: list[int] = [1]  # the seq of the move being played

    def recorded(ruleset: Ruleset, state: State, *_: object) -> Command:
        """A computer seat's move: the next one of the log, which must be that seat's."""
        move = next(moves, None)
        if move is None or move.command is None or move.seat != state["current"]:
            seq = move.seq if move is not None else None
            raise _Stop(Problem(seq, "illegal_move", gettext_noop("seat {seat} was to move"),
                                {"seat": state["current"]}))
        last[0] = move.seq
        verdict.moves += 1
        return move.command

    match = Match(record.ruleset, options, seats, recorded)
    try:
        outcome = match.new(open_seats=first, dice=dice, mind=NO_MIND)
        log.check(outcome.events)
        state = outcome.state
        for move in moves:
            last[0] = move.seq
            verdict.moves += 1
            seated = range(len(match.seats))
            if not isinstance(move.command, Join) and move.seat not in (None, *seated):
                raise _Stop(Problem(move.seq, "illegal_move",
                                    gettext_noop("there is no seat {seat}"), {"seat": move.seat}))
            if move.command is None:
                # Who abandoned it, as the log says: the event replayed must match it.
                by = events[move.seq - 1].data.get("by")
                outcome = match.abandon(state, by=by)  # type: ignore[arg-type]  # compared below
            else:
                outcome = match.play(
                    state, seat=move.seat, command=move.command, dice=dice, mind=NO_MIND
                )
            if isinstance(move.command, Join):
                match = replace(match, seats=[*match.seats, Seat(move.command.name)])
            log.check(outcome.events)
            state = outcome.state
    except (RuleError, AssertionError, KeyError, TypeError, ValueError, IndexError) as error:
        if isinstance(error, RuleError):
            raise _Stop(Problem(last[0], "illegal_move", error.message, error.params)) from None
        raise _Stop(
            Problem(last[0], "illegal_move", gettext_noop("the move cannot be played"))
        ) from None
    log.check_ended()
    if [seat.name for seat in match.seats] != [seat.name for seat in record.players]:
        raise _Stop(Problem(None, "illegal_move",
                            gettext_noop("the players are not those the log seats")))
    return match, state


def _in_order(record: Record) -> dict[str, OptionValue]:
    """What a record's types cannot say: its seats and its log are numbered in order, and
    its options are the ruleset's."""
    for index, number in enumerate(record.seat_numbers):
        if number != index:
            raise _Stop(Problem(None, "illegal_move", gettext_noop(
                "player {index} is numbered seat {number}: seats are listed in order"
            ), {"index": index, "number": number}))
    for index, event in enumerate(record.events):
        if event.seq != index + 1:
            raise _Stop(Problem(event.seq, "illegal_move", gettext_noop(
                "event {index} is numbered {seq}: the log must be whole and in order"
            ), {"index": index + 1, "seq": event.seq}))
    try:
        return record.ruleset.validate_options(record.options)
    except RuleError as error:
        raise _Stop(Problem(None, "illegal_move", error.message, error.params)) from None


def _created(record: Record, event: Logged) -> list[Seat]:
    """The seats the ``created`` event fills, which must be the record's first ones."""
    data = event.data
    names = data.get("players")
    seats = record.players[: len(names)] if isinstance(names, list) else []
    listed = [
        {"seat": seat, "name": player.name, "computer": player.computer}
        for seat, player in enumerate(seats)
    ]
    if (
        not seats
        or _json(names) != _json(listed)
        or data.get("ruleset") != record.ruleset.id
        or _json(data.get("options")) != _json(record.options)
        or type(data.get("open_seats", 0)) is not int
    ):
        raise _Stop(Problem(event.seq, "illegal_move",
                            gettext_noop("created does not match the record's game")))
    return seats


class _Log:
    """The record's events (notices aside), compared one for one with those the replay
    writes, in order."""

    def __init__(self, logged: list[Logged]) -> None:
        self.logged = logged
        self.next = 0

    def check(self, written: Sequence[Event]) -> None:
        for event in written:
            if self.next >= len(self.logged):
                raise _Stop(
                    Problem(None, "illegal_move",
                            gettext_noop("the log stops before a {type} event"),
                            {"type": event.type})
                )
            shown = self.logged[self.next]
            self.next += 1
            if shown.type != event.type or shown.seat != event.seat:
                raise _Stop(Problem(
                    shown.seq, "illegal_move",
                    gettext_noop("the log shows {shown} by seat {seat}; the rules give "
                                 "{given} by seat {given_seat}"),
                    {"shown": shown.type, "seat": shown.seat, "given": event.type,
                     "given_seat": event.seat},
                ))
            if _json(shown.data) != _json(event.data):
                raise _Stop(_difference(shown, event))

    def check_ended(self) -> None:
        if self.next < len(self.logged):
            shown = self.logged[self.next]
            raise _Stop(Problem(shown.seq, "illegal_move",
                                gettext_noop("no move writes this {type}"), {"type": shown.type}))


def _difference(shown: Logged, event: Event) -> Problem:
    for name in sorted(set(shown.data) | set(event.data)):
        if _json(shown.data.get(name)) != _json(event.data.get(name)):
            code = CODES_BY_FIELD.get(name, "illegal_move")
            return Problem(
                shown.seq, code,
                gettext_noop("{type}: {name} is {shown}; the rules give {given}"),
                {"type": shown.type, "name": name, "shown": _json(shown.data.get(name)),
                 "given": _json(event.data.get(name))},
            )
    return Problem(  # pragma: no cover
        shown.seq, "illegal_move", gettext_noop("{type} differs"), {"type": shown.type}
    )


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _check_end(record: Record, match: Match, state: State, verdict: Verdict) -> None:
    view = record.ruleset.view(state, options=match.options)
    now = status(state)
    if record.status != now:
        verdict.problems.append(
            Problem(None, "status_mismatch",
                    gettext_noop("the record says {record}; the log, {log}"),
                    {"record": record.status, "log": now})
        )
    if record.totals != view.totals:
        verdict.problems.append(
            Problem(None, "total_mismatch", gettext_noop("totals are {log}, not {record}"),
                    {"log": view.totals, "record": record.totals})
        )
    if record.winners != view.winners:
        verdict.problems.append(
            Problem(None, "total_mismatch", gettext_noop("winners are {log}, not {record}"),
                    {"log": view.winners, "record": record.winners})
        )
