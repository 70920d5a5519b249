"""Whole games between computer seats, played through the engine's own ``move``.

The scripts (:mod:`scoring.tenthousand.strategy.duel`,
:mod:`scoring.boxgames.strategy.evidence`) and the tests measure the players exactly as
the service runs them: ask :func:`computer_command`, apply it with ``Ruleset.move``,
repeat until the game ends. A refused move would raise the engine's ``RuleError`` here.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..ruleset import Ruleset
from ..state import LogEntry, Options
from .players import computer_command

TURN_ENDS = frozenset({"banked", "busted", "passed", "scored", "scratched"})


@dataclass(frozen=True)
class Game:
    """How a game ended: every seat's total, the winners, its length, and its log (events
    ``{"seq", "type", "seat", "data"}`` numbered from 1, as the API shows them)."""

    totals: list[int]
    winners: list[int]
    turns: int
    moves: int
    rounds: int
    log: list[LogEntry] = field(default_factory=list)


def play_game(
    ruleset: Ruleset,
    levels: Sequence[str],
    *,
    options: Options | None = None,
    rng: random.Random,
    folder: Path | str,
    max_moves: int = 1_000_000,
) -> Game:
    """One game with a computer at ``levels[seat]`` in every seat, dice and random
    choices drawn from ``rng``. ``max_moves`` guards tests against a player that never
    ends a game (it raises ``RuntimeError`` rather than loop forever)."""
    full = ruleset.validate_options(options)
    state = ruleset.new_state(seats=len(levels), options=full)
    turns = moves = 0
    log: list[LogEntry] = []
    while not state["finished"]:
        if moves >= max_moves:
            raise RuntimeError(f"no end after {moves} moves")
        seat = state["current"]
        command = computer_command(ruleset, state, levels[seat], full, rng, folder=folder)
        outcome = ruleset.move(state, seat=seat, command=command, options=full, rng=rng)
        state = outcome.state
        moves += 1
        log.extend(
            {"seq": len(log) + 1 + i, "type": e.type, "seat": e.seat, "data": e.data}
            for i, e in enumerate(outcome.events)
        )
        turns += sum(event.type in TURN_ENDS for event in outcome.events)
    view = ruleset.view(state, options=full)
    return Game(view.totals, view.winners, turns, moves, state["round"], log)
