"""The box games as a :class:`~scoring.family.Family`: Yahtzee and the Yatzy games.

Their strategy is the solitaire-optimal one of :mod:`.strategy` (the expected final score),
solved for every ruleset but Maxi Yatzy, whose strongest player is a heuristic. Strategy
modules are imported on first use, so that the rules load without NumPy.
"""

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from ..commands import Command
from ..errors import Words
from ..family import Family, Folder, PlayerRng
from ..ruleset import Ruleset
from ..state import BoxSeat, BoxState, BoxTurn, Json, LoggedEvent, Options, OptionValue
from .boxgame import BoxGame
from .yahtzee import Yahtzee
from .yatzy import ForcedYatzy, MaxiYatzy, Yatzy

LEVELS = ("random", "greedy", "optimal")
# What a box game's analysis reads: a roll's keep shows in the next ``rolled``.
ANALYSIS_EVENTS = ("rolled", "scored", "scratched")

if TYPE_CHECKING:  # the strategy is imported on first use (NumPy)
    from .strategy.analysis import Analysis
    from .strategy.api import Advice, Strategy
    from .strategy.table import Table


class BoxGames(Family[BoxState, "Strategy", "Advice", "Analysis"]):
    id = "box-games"
    name = "Box games"

    def __init__(self) -> None:
        self._rulesets: tuple[BoxGame, ...] = (Yahtzee(), Yatzy(), ForcedYatzy(), MaxiYatzy())

    @property
    def rulesets(self) -> tuple[Ruleset[BoxState], ...]:
        return self._rulesets

    def levels(self, ruleset: Ruleset[BoxState]) -> tuple[str, ...]:
        return LEVELS

    def computer_cost(self, ruleset: Ruleset[BoxState], level: str) -> int:
        # random and greedy look at the open boxes; optimal reads a solved table, or (Maxi
        # Yatzy, unsolved) searches a heuristic at every move: measured by
        # tests/bench/computer_costs.py --requests (docs/operations.md).
        if level != "optimal":
            return 1
        return 4 if self.solved(ruleset) else 7

    def computer_game_moves(self, ruleset: Ruleset[BoxState], level: str) -> int:
        box_game = cast(BoxGame, ruleset)
        return len(box_game.boxes) * (box_game.rolls_per_turn + 1)

    def computer_move(
        self,
        ruleset: Ruleset[BoxState],
        state: BoxState,
        *,
        level: str,
        options: Options,
        rng: PlayerRng,
        folder: Folder,
    ) -> Command:
        from ..strategy.players import box_move

        return box_move(_box(ruleset), state, level=level, options=options, rng=rng, folder=folder)

    def solved(self, ruleset: Ruleset[BoxState]) -> bool:
        from .strategy.model import SUPPORTED

        return ruleset.id in SUPPORTED

    def table_options(
        self, ruleset: Ruleset[BoxState], options: Options | None
    ) -> tuple[str, dict[str, OptionValue]]:
        from .strategy.model import resolve

        solved, full = resolve(ruleset.id, options)
        return solved.id, full

    def load_table(
        self,
        ruleset: Ruleset[BoxState],
        options: Options | None,
        folder: Folder,
        *,
        build_missing: bool,
    ) -> "Strategy":
        from .strategy.api import load_strategy

        return load_strategy(ruleset.id, options, folder, build_missing=build_missing)

    def prepare_table(
        self, ruleset_id: str, table_options: Options, folder: Folder
    ) -> bool:
        from .strategy.api import prepare_table

        return prepare_table(ruleset_id, table_options, folder)[1]

    def table_file(
        self, ruleset_id: str, table_options: Options
    ) -> tuple[dict[str, OptionValue], str, dict[str, Json]]:
        from .strategy.model import model_for
        from .strategy.table import expected_meta, solver_for, table_path

        model = model_for(ruleset_id, table_options)
        meta = expected_meta(model, solver_for(model))
        return dict(model.options), table_path(".", model).name, meta

    def describe_table(self, table: object) -> str:
        return f"expected final score {cast('Table', table).start_value:.4f}"

    def advise(
        self, ruleset: Ruleset[BoxState], state: BoxState, options: Options, table: "Strategy"
    ) -> "Advice":
        from .strategy.api import advise_with

        view = ruleset.view(state, options=options)
        # A box game's view shows box-game seats and turns.
        player = cast(BoxSeat, view.players[state["current"]])
        turn = cast(BoxTurn, view.turn)
        dice = turn["dice"]
        return advise_with(
            table,
            player["scorecard"],
            player.get("yahtzee_bonus", 0),
            dice,
            turn["rolls_left"] if dice is not None else None,
        )

    @property
    def analysis_events(self) -> tuple[str, ...]:
        return ANALYSIS_EVENTS

    def analysis_refusal(self, ruleset: Ruleset[BoxState], state: BoxState) -> "Words | None":
        return None

    def analyse(
        self,
        ruleset: Ruleset[BoxState],
        state: BoxState,
        options: Options,
        table: "Strategy",
        log: Iterable[LoggedEvent],
        seats: Sequence[int],
    ) -> "Analysis":
        from .strategy.analysis import analyse_with

        return analyse_with(table, log, seats)


def _box(ruleset: Ruleset[BoxState]) -> BoxGame:
    """The ruleset as the box game it is: the registry hands a family its own only."""
    return cast("BoxGame", ruleset)


BOX_GAMES = BoxGames()
