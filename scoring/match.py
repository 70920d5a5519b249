"""A game between seats: the lobby, the turns, the computer seats and the end.

A :class:`~scoring.ruleset.Ruleset` knows the rules of a turn. A match knows who sits at
the table: persons and computers, seats still open to join, seats that left. It applies
one command of one seat and then lets the computer seats play until a person's turn (or
the end), each computer's move chosen by an injected strategy, so that the whole game is
decided here and the service only stores what comes out.

The match keeps two keys of its own in the ruleset's state: ``open_seats`` (seats still
open to ``join``; the game waits while there are any) and ``abandoned``. The game's status
is :func:`status` of its state, and nothing else.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from .commands import Command, Join, Leave, Start
from .dice import Dice, Rng
from .errors import ProblemCode, RuleError, gettext_noop
from .ruleset import Event, Outcome, Ruleset, State, copied
from .state import Options


class GameStatus(StrEnum):
    """A game's one status. The engine decides it (:func:`status`); the database stores,
    the API shows and clients filter on these same values, so there is no second list."""

    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


# (ruleset, state, level, options, rng) -> the next command of the current (computer) seat.
Strategy = Callable[[Ruleset, State, str, Options, Rng], Command]

# A bound on the moves computer seats make after one command, the last guard of a
# request's work: a whole game of computers fits several times over (eight Ten Thousand
# seats of the ``random`` level, to the largest target they may play alone, take about a
# thousand). A game that has not ended by then ends there, as one does when no person is
# left to play.
COMPUTER_MOVES = 5_000


def status(state: State) -> GameStatus:
    """The game's status, read from the keys the match and the ruleset keep in its state."""
    if state.get("abandoned"):
        return GameStatus.ABANDONED
    if state["finished"]:
        return GameStatus.FINISHED
    if state.get("open_seats", 0):
        return GameStatus.WAITING
    return GameStatus.ACTIVE


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a person (``computer`` None) or a computer of that level."""

    name: str
    computer: str | None = None


@dataclass(frozen=True)
class Match:
    ruleset: Ruleset
    options: Options
    seats: Sequence[Seat]
    strategy: Strategy | None = None

    def new(self, *, open_seats: int, dice: Dice, mind: Rng) -> Outcome:
        """The state of a new game; when nobody is awaited, computers to move play at once."""
        self.ruleset.check_seats(len(self.seats) + open_seats)
        if not open_seats and all(seat.computer for seat in self.seats):
            self.ruleset.check_unattended(self.options)
        state = self.ruleset.new_state(seats=len(self.seats), options=self.options)
        state["open_seats"] = open_seats
        outcome = Outcome(state=state)
        self._play_computers(outcome, dice=dice, mind=mind)
        return outcome

    def play(
        self, state: State, *, seat: int | None, command: Command, dice: Dice, mind: Rng
    ) -> Outcome:
        """Apply ``command`` of ``seat`` (None for a join), then the computers' turns.

        ``dice`` throws the dice, the computers' as the persons' (a positional source, or an
        ``Rng`` drawn in order: see :meth:`Ruleset.move`); ``mind`` makes the computers' own
        random choices. The given state is never modified.
        """
        match command:
            case Join(name=name):
                return self._join(state, name, dice=dice, mind=mind)
            case Start():
                outcome = self._start(state, seat)
            case Leave():
                outcome = self._leave(state, seat)
            case _:
                _require(state, GameStatus.ACTIVE)
                assert seat is not None
                outcome = self.ruleset.move(
                    state, seat=seat, command=command, options=self.options, rng=dice
                )
        self._play_computers(outcome, dice=dice, mind=mind)
        return outcome

    def abandon(self, state: State, *, by: str) -> Outcome:
        """Mark a game that is not over as abandoned (nobody plays it any more)."""
        if status(state) not in (GameStatus.WAITING, GameStatus.ACTIVE):
            raise RuleError(
                ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is {status} already"),
                status=status(state),
            )
        outcome = Outcome(state=copied(state))
        outcome.state["abandoned"] = True
        outcome.events.append(Event("abandoned", None, {"by": by}))
        return outcome

    # -- the lobby -------------------------------------------------------------------------

    def _join(self, state: State, name: str, *, dice: Dice, mind: Rng) -> Outcome:
        now = status(state)
        if now == GameStatus.ACTIVE:
            raise RuleError(ProblemCode.GAME_FULL, gettext_noop("every seat of this game is taken"))
        _require(state, GameStatus.WAITING)
        joined = replace(self, seats=[*self.seats, Seat(name)])
        seat = len(self.seats)
        # Nobody moves while a game waits, so its state is always a fresh one for its seats.
        fresh = self.ruleset.new_state(seats=len(joined.seats), options=self.options)
        fresh["open_seats"] = state["open_seats"] - 1
        outcome = Outcome(state=fresh, events=[Event("joined", seat, {"name": name})])
        if not fresh["open_seats"]:
            outcome.events.append(Event("started", None, {"seats": len(joined.seats)}))
        joined._play_computers(outcome, dice=dice, mind=mind)
        return outcome

    def _start(self, state: State, seat: int | None) -> Outcome:
        if status(state) != GameStatus.WAITING:
            raise RuleError(
                ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is {status}, not waiting"),
                status=status(state),
            )
        outcome = Outcome(state=copied(state))
        outcome.state["open_seats"] = 0
        outcome.events.append(Event("started", seat, {"seats": len(self.seats)}))
        return outcome

    # -- seats that go ---------------------------------------------------------------------

    def _leave(self, state: State, seat: int | None) -> Outcome:
        """The seat resigns; when no person is left to play, the game ends with it."""
        _require(state, GameStatus.ACTIVE)
        assert seat is not None
        persons = [
            other
            for other, sitter in enumerate(self.seats)
            if sitter.computer is None and not state["left"][other] and other != seat
        ]
        return self.ruleset.leave(state, seat=seat, options=self.options, end=not persons)

    # -- computer seats --------------------------------------------------------------------

    def _play_computers(self, outcome: Outcome, *, dice: Dice, mind: Rng) -> None:
        """Computer seats play their turns until a person's turn or the end of the game."""
        levels = {seat: s.computer for seat, s in enumerate(self.seats) if s.computer}
        if not levels or status(outcome.state) != GameStatus.ACTIVE:
            return
        if self.strategy is None:
            raise ValueError("a match with computer seats needs a strategy")
        for _ in range(COMPUTER_MOVES):
            state = outcome.state
            seat = state["current"]
            if state["finished"] or seat not in levels:
                return
            command = self.strategy(self.ruleset, state, levels[seat], self.options, mind)
            step = self.ruleset.move(
                state, seat=seat, command=command, options=self.options, rng=dice
            )
            outcome.state = step.state
            outcome.events.extend(step.events)
            outcome.entries.extend(step.entries)
        if not outcome.state["finished"]:
            self.ruleset.finish(outcome, self.options)


def _require(state: State, wanted: GameStatus) -> None:
    now = status(state)
    if now != wanted:
        raise RuleError(
            ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is {status}"), status=now
        )
