"""Computer players for Ten Thousand (``docs/games/ten-thousand.md``): four levels, each a pure
function from the game state to the next move of the current seat.

``random``
    Sets aside a random scoring selection of the last throw (every scoring sub-multiset
    equally likely), then banks with probability 1/2 when banking is allowed, else throws.
    It never passes: a pass only loses what the turn holds.
``greedy``
    Takes every scoring die of each throw and banks as soon as the rules allow (also when
    all six dice are used: unlike ``classic`` it does not chase hot dice).
``classic``
    The rule text's defensive player, exactly: see :func:`classic_combinations` and
    :func:`classic_move`.
``optimal``
    Plays the solved game (:mod:`.solver`): the highest chance of winning
    whenever exactly two seats are in the game, the fewest expected turns alone; with
    three or more seats or options beyond the solved ones, the documented approximation
    of :mod:`.advice`.

A move is a command of :mod:`scoring.commands`: ``Roll()`` for the turn's first throw,
``Roll(set_aside=...)`` to set dice aside and throw the rest, ``Bank(set_aside=...)``, and
``Pass()``. Positions count among all six dice, as in the state.
"""

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

from ...commands import Bank, Command, Pass, Roll
from ...family import PlayerRng
from ...state import Options, TenThousandState, ten_thousand_options
from ..points import DICE, scoring_positions, selection_value
from .advice import PASS, Option, advise_state
from .tables import load_tables

# -- the turn as the players see it --------------------------------------------------------


def free_positions(state: TenThousandState) -> list[int]:
    """The positions of the last throw's dice (those not set aside earlier in the turn)."""
    return [i for i, aside in enumerate(state["set_aside"]) if not aside]


def positions_of(dice: Sequence[int], free: Sequence[int], kept: Sequence[int]) -> list[int]:
    """Positions (among ``free``) of dice showing the multiset ``kept``, ascending."""
    wanted = Counter(kept)
    chosen = []
    for position in free:
        face = dice[position]
        if wanted[face] > 0:
            wanted[face] -= 1
            chosen.append(position)
    if +wanted:
        raise ValueError(f"the free dice do not hold {sorted(kept)}")
    return chosen


# -- the levels ----------------------------------------------------------------------------


def _turn(state: TenThousandState) -> tuple[list[int], list[int], int]:
    """(dice, free positions, turn points) of a turn after at least one throw."""
    dice = state["dice"]
    assert dice is not None
    return dice, free_positions(state), state["turn_points"]


def _end(
    bank: bool, positions: Sequence[int], points: int, options: Options
) -> Command:
    """Set ``positions`` aside and bank (when ``bank``) or throw on, checked against the one
    rule a player's wish could break: a bank below the minimum becomes a throw."""
    if bank and points >= ten_thousand_options(options)["bank_minimum"]:
        return Bank(set_aside=tuple(positions))
    return Roll(set_aside=tuple(positions))


def random_move(
    state: TenThousandState, options: Options, rng: PlayerRng
) -> Command:
    """A random legal move: a random scoring selection, then bank or throw at random."""
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = [dice[p] for p in free]
    chosen = [
        [free[i] for i in subset]
        for size in range(1, len(free) + 1)
        for subset in combinations(range(len(free)), size)
        if selection_value([faces[i] for i in subset]) is not None
    ]
    if not chosen:
        return Pass()  # no legal state gets here: the engine ends a bust itself
    positions = rng.choice(chosen)
    points = turn_points + (selection_value([dice[p] for p in positions]) or 0)
    return _end(rng.random() < 0.5, positions, points, options)


def greedy_move(state: TenThousandState, options: Options) -> Command:
    """Every scoring die; bank as soon as the turn score allows it."""
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = [dice[p] for p in free]
    positions = [free[i] for i in scoring_positions(faces)]
    if not positions:
        return Pass()
    points = turn_points + (selection_value([dice[p] for p in positions]) or 0)
    return _end(True, positions, points, options)


def classic_combinations(faces: Sequence[int]) -> list[list[int]]:
    """The combinations the classic player sets aside from a throw, in its order, as
    positions into ``faces`` (the free dice of the throw).

    1-2-3-4-5-6 if thrown; otherwise the largest of-a-kind first (six, five, four, three
    of one face; among equal counts 1s first, then 6, 5, 4, 3, 2), repeated while any
    remains; then each single 1, then each single 5. With six dice a face shows at most
    six times, so after one group of three or more no second group of that face can
    remain; a second group can only be of another face.
    """
    if len(faces) == DICE and sorted(faces) == [1, 2, 3, 4, 5, 6]:
        return [list(range(DICE))]
    left = {face: [p for p, f in enumerate(faces) if f == face] for face in range(1, 7)}
    preference = (1, 6, 5, 4, 3, 2)
    combinations_: list[list[int]] = []
    while True:
        largest = max(len(left[face]) for face in preference)
        if largest < 3:
            break
        face = next(face for face in preference if len(left[face]) == largest)
        combinations_.append(left[face])
        left[face] = []
    for face in (1, 5):
        combinations_.extend([p] for p in left[face])
    return combinations_


def classic_move(state: TenThousandState, options: Options) -> Command:
    """The rule text's classic player.

    After a throw it sets aside everything :func:`classic_combinations` finds (the engine
    takes one selection per move, so the combinations go in one ``set_aside``). Then: all
    six dice used: throw all six again; else bank when the turn score is at least the
    game's ``bank_minimum``, else throw the free dice again. The rule text's "350" is read
    as the bank minimum: the same paragraph's rules state 350 as the bank minimum (option
    ``bank_minimum``), and this defensive player banks at the first chance the rules give
    (with the default options the two readings are the same player).
    """
    if state["dice"] is None:
        return Roll()
    dice, free, turn_points = _turn(state)
    faces = [dice[p] for p in free]
    chosen = sorted(free[i] for combo in classic_combinations(faces) for i in combo)
    if not chosen:
        return Pass()
    points = turn_points + (selection_value([dice[p] for p in chosen]) or 0)
    if len(chosen) == len(free):
        return Roll(set_aside=tuple(chosen))
    return _end(True, chosen, points, options)


def optimal_move(
    state: TenThousandState, options: Options, folder: Path | str
) -> Command:
    """The best option of the solved game (:mod:`.advice`): the chance of
    winning while exactly one other seat is in the game, the fewest expected turns alone,
    the documented approximation otherwise. Equal values: bank, then throw, then the
    selection worth more."""
    if state["dice"] is None:
        return Roll()  # throwing is never worse than passing a turn that has not begun
    tables = load_tables(ten_thousand_options(options)["bank_minimum"], folder)
    return command_of(state, advise_state(tables, state, options).best)


def command_of(state: TenThousandState, option: Option) -> Command:
    """The move that takes an advice's option in a turn after a throw."""
    if option == PASS:
        return Pass()
    assert isinstance(option, dict)
    dice, free, _ = _turn(state)
    positions = tuple(positions_of(dice, free, option["keep"]))
    return Bank(set_aside=positions) if option["then"] == "bank" else Roll(set_aside=positions)


TEN_THOUSAND_LEVELS = ("random", "greedy", "classic", "optimal")


def ten_thousand_move(
    state: TenThousandState,
    *,
    level: str,
    options: Options,
    rng: PlayerRng,
    folder: Path | str,
) -> Command:
    """The next move of the current seat at ``level`` (one of :data:`TEN_THOUSAND_LEVELS`)."""
    if level == "random":
        return random_move(state, options, rng)
    if level == "greedy":
        return greedy_move(state, options)
    if level == "classic":
        return classic_move(state, options)
    if level == "optimal":
        return optimal_move(state, options, folder)
    raise ValueError(f"ten-thousand has no computer level {level!r}")
