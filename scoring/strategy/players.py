"""Computer players: one pure function the service calls for the next move of a computer
seat, and the levels each ruleset offers.

    command = computer_command(ruleset, state, "optimal", options, rng, folder=tables)
    outcome = ruleset.move(state, seat=state["current"], command=command, ...)

Every player answers the engine's own commands (``Roll(hold=...)``, ``Score(...)``...), so
what a computer plays and what a person sends are one type.

The service asks again after every move until a person's turn or the end of the game. A
move is always legal in the state given (the tests play thousands of whole games through
``Ruleset.move`` to hold that). Nothing here keeps state between calls except caches of
pure computations (solved tables, per-turn plans).

Box games (``yahtzee``, ``yatzy``, ``forced-yatzy``, ``maxi-yatzy``):

``random``
    Rolls; while rolls are left, re-rolls with probability 1/2, each die held with
    probability 1/2; then fills a random legal box (``score``: a box that does not fit
    takes 0, so ``scratch`` is never needed).
``greedy``
    After each roll it looks at the legal box with the most points now (the first in card
    order on ties). It keeps rolling while rolls are left (saved Maxi rolls included) and
    those points are below two thirds of the most that box can ever score, holding the
    dice that serve that box (:func:`serving_positions`); then it scores that box.
``optimal``
    Yahtzee (any options), Yatzy and Forced Yatzy: the solver's best move
    (:func:`~scoring.boxgames.strategy.advise_with`), which maximises the expected final score of
    solitaire play. Maxi Yatzy has no table: a documented heuristic
    (:mod:`scoring.boxgames.strategy.maxi`).

Ten Thousand: see :mod:`scoring.tenthousand.strategy.players`.
"""

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

from ..boxgames.boxgame import Box, BoxGame
from ..boxgames.faces import UPPER_IDS
from ..boxgames.strategy.api import Strategy, advise_with, load_strategy
from ..boxgames.strategy.maxi import maxi_move
from ..boxgames.strategy.model import SUPPORTED
from ..commands import Command, Roll, Score
from ..errors import ProblemCode, RuleError, gettext_noop
from ..family import PlayerRng
from ..registry import RULESETS, family_of
from ..ruleset import Ruleset, State
from ..state import BoxState, Options

BOX_LEVELS = ("random", "greedy", "optimal")
# greedy stops rolling once its best box holds this share of the box's maximum.
GREEDY_STOP = 2 / 3


def levels_for(ruleset_id: str) -> tuple[str, ...]:
    """The computer levels a ruleset offers (empty for an unknown ruleset id)."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        return ()
    return family_of(ruleset).levels(ruleset)


def computer_command(
    ruleset: Ruleset,
    state: State,
    level: str,
    options: Options,
    rng: PlayerRng,
    *,
    folder: Path | str,
) -> Command:
    """The next command of the current seat (``state["current"]``): with ``folder`` bound,
    the strategy a :class:`~scoring.match.Match` is driven by.

    ``options`` are the game's options (missing ones take their defaults); ``rng`` is a
    ``random.Random``-like source for the ``random`` level; ``folder`` is where the
    ``optimal`` box players find (or, the first time, build) their solved tables.
    Raises :class:`RuleError` ``invalid`` for a level the ruleset does not offer and
    ``game_not_active`` for a finished game; any other state gets a legal move.
    """
    if level not in levels_for(ruleset.id):
        offered = ", ".join(levels_for(ruleset.id)) or "none"
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop("{game} has no computer level {level!r}; offered: {offered}"),
            field="computer", game=ruleset.name, level=level, offered=offered,
        )
    if state["finished"]:
        raise RuleError(ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is over"))
    options = ruleset.validate_options(options)
    return family_of(ruleset).computer_move(
        ruleset, state, level=level, options=options, rng=rng, folder=folder
    )


def box_move(
    ruleset: BoxGame,
    state: BoxState,
    *,
    level: str,
    options: Options,
    rng: PlayerRng,
    folder: Path | str,
) -> Command:
    """A box game's computer move (the box games' :meth:`~scoring.family.Family.computer_move`)."""
    if state["dice"] is None:
        return Roll()  # every level's only move (and no table to load for it)
    if level == "random":
        return random_box_move(ruleset, state, options, rng)
    if level == "greedy":
        return greedy_box_move(ruleset, state, options)
    if ruleset.id in SUPPORTED:
        strategy = load_strategy(ruleset.id, options, folder)
        return optimal_box_move(strategy, state)
    return maxi_move(ruleset, state, options)


# -- box games -----------------------------------------------------------------------------


def _seat(state: BoxState) -> tuple[dict[str, int | None], int]:
    seat = state["current"]
    return state["cards"][seat], state["bonus"][seat]


def random_box_move(
    ruleset: BoxGame, state: BoxState, options: Options, rng: PlayerRng
) -> Command:
    """Random but legal: see the module docstring."""
    dice = state["dice"]
    if dice is None:
        return Roll()
    if ruleset.rolls_left(state) > 0 and rng.random() < 0.5:
        return Roll(hold=tuple(i for i in range(len(dice)) if rng.random() < 0.5))
    card, _ = _seat(state)
    legal = ruleset.legal(card, dice, options)
    return Score(category=rng.choice(sorted(legal)))


@cache
def box_maximum(ruleset_id: str, box_id: str) -> int:
    """The most points a box can take from any dice (its natural score)."""
    ruleset = RULESETS[ruleset_id]
    assert isinstance(ruleset, BoxGame)
    box = next(box for box in ruleset.boxes if box.id == box_id)
    return max(box.score(roll) for roll in combinations_with_replacement(range(1, 7), ruleset.dice))


def serving_positions(box: Box, dice: Sequence[int]) -> list[int]:
    """The dice greedy holds when going for ``box``.

    An upper box: the dice of its face. ``chance``: dice of 4 or more. A straight: one die
    of each face shown. Boxes of two or three groups (``two_pairs``, ``three_pairs``,
    ``full_house``, ``villa``, ``tower``): every die whose face shows at least twice. Every
    other box (pairs, of-a-kind, Yahtzee): the dice of the face shown most (the highest
    such face on a tie).
    """
    tally = Counter(dice)
    if box.id in UPPER_IDS:
        face = UPPER_IDS.index(box.id) + 1
        return [i for i, d in enumerate(dice) if d == face]
    if box.id == "chance":
        return [i for i, d in enumerate(dice) if d >= 4]
    if box.id.endswith("straight"):
        seen: set[int] = set()
        held = []
        for i, d in enumerate(dice):
            if d not in seen:
                seen.add(d)
                held.append(i)
        return held
    if box.id in {"two_pairs", "three_pairs", "full_house", "villa", "tower"}:
        return [i for i, d in enumerate(dice) if tally[d] >= 2]
    face = max(tally, key=lambda f: (tally[f], f))
    return [i for i, d in enumerate(dice) if d == face]


def greedy_box_move(ruleset: BoxGame, state: BoxState, options: Options) -> Command:
    """The box with the most points now; roll for it while it is weak (module docstring)."""
    dice = state["dice"]
    if dice is None:
        return Roll()
    card, _ = _seat(state)
    legal = ruleset.legal(card, dice, options)
    target = max(legal, key=legal.__getitem__)  # the first of the best: dicts keep card order
    if ruleset.rolls_left(state) > 0 and legal[target] < GREEDY_STOP * box_maximum(
        ruleset.id, target
    ):
        box = next(box for box in ruleset.boxes if box.id == target)
        held = serving_positions(box, dice)
        if len(held) < len(dice):
            return Roll(hold=tuple(held))
    return Score(category=target)


def optimal_box_move(strategy: Strategy, state: BoxState) -> Command:
    """The solver's best move for the current seat's card, bonus, dice and rolls left.

    ``rolls_left`` for the solver is the number of rolls still allowed after the current
    dice, which is what the engine's turn counts too; before the first roll the only move
    is a plain roll.
    """
    dice = state["dice"]
    if dice is None:
        return Roll()
    ruleset = strategy.model.ruleset
    card, bonus = _seat(state)
    left = min(ruleset.rolls_left(state), ruleset.rolls_per_turn - 1)
    best = advise_with(strategy, card, bonus, dice, left).best
    assert best is not None  # a card with an open box and dice on the table has moves
    if best["action"] == "roll":
        return Roll(hold=tuple(best["hold"]))
    return Score(category=best["category"])
