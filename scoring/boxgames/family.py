"""The box games as a :class:`~scoring.family.Family`: Yahtzee and the Yatzy games.

Their strategy is the solitaire-optimal one of :mod:`.strategy` (the expected final score),
solved for every ruleset but Maxi Yatzy, whose strongest player is a heuristic. Strategy
modules are imported on first use, so that the rules load without NumPy.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from ..commands import Command
from ..family import Family, Folder, PlayerRng
from ..ruleset import Ruleset, State
from .boxgame import BoxGame
from .yahtzee import Yahtzee
from .yatzy import ForcedYatzy, MaxiYatzy, Yatzy

LEVELS = ("random", "greedy", "optimal")
# What a box game's analysis reads: a roll's keep shows in the next ``rolled``.
ANALYSIS_EVENTS = ("rolled", "scored", "scratched")


class BoxGames(Family):
    id = "box-games"
    name = "Box games"

    def __init__(self) -> None:
        self._rulesets: tuple[BoxGame, ...] = (Yahtzee(), Yatzy(), ForcedYatzy(), MaxiYatzy())

    @property
    def rulesets(self) -> tuple[Ruleset, ...]:
        return self._rulesets

    def levels(self, ruleset: Ruleset) -> tuple[str, ...]:
        return LEVELS

    def computer_cost(self, ruleset: Ruleset, level: str) -> int:
        # random and greedy look at the open boxes; optimal reads a solved table, or (Maxi
        # Yatzy, unsolved) searches a heuristic at every move: measured by
        # tests/bench/computer_costs.py --requests (docs/operations.md).
        if level != "optimal":
            return 1
        return 4 if self.solved(ruleset) else 7

    def computer_game_moves(self, ruleset: Ruleset, level: str) -> int:
        box_game = cast(BoxGame, ruleset)
        return len(box_game.boxes) * (box_game.rolls_per_turn + 1)

    def computer_move(
        self,
        ruleset: Ruleset,
        state: State,
        *,
        level: str,
        options: Mapping[str, Any],
        rng: PlayerRng,
        folder: Folder,
    ) -> Command:
        from ..strategy.players import box_move

        return box_move(_box(ruleset), state, level=level, options=options, rng=rng, folder=folder)

    def solved(self, ruleset: Ruleset) -> bool:
        from .strategy.model import SUPPORTED

        return ruleset.id in SUPPORTED

    def table_options(
        self, ruleset: Ruleset, options: Mapping[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        from .strategy.model import resolve

        solved, full = resolve(ruleset.id, options)
        return solved.id, full

    def load_table(
        self,
        ruleset: Ruleset,
        options: Mapping[str, Any] | None,
        folder: Folder,
        *,
        build_missing: bool,
    ) -> Any:
        from .strategy.api import load_strategy

        return load_strategy(ruleset.id, options, folder, build_missing=build_missing)

    def prepare_table(
        self, ruleset_id: str, table_options: Mapping[str, Any], folder: Folder
    ) -> bool:
        from .strategy.api import prepare_table

        return prepare_table(ruleset_id, table_options, folder)[1]

    def table_file(
        self, ruleset_id: str, table_options: Mapping[str, Any]
    ) -> tuple[dict[str, Any], str, dict[str, Any]]:
        from .strategy.model import model_for
        from .strategy.table import expected_meta, solver_for, table_path

        model = model_for(ruleset_id, table_options)
        meta = expected_meta(model, solver_for(model))
        return dict(model.options), table_path(".", model).name, meta

    def describe_table(self, table: Any) -> str:
        return f"expected final score {table.start_value:.4f}"

    def advise(
        self, ruleset: Ruleset, state: State, options: Mapping[str, Any], table: Any
    ) -> Any:
        from .strategy.api import advise_with

        view = ruleset.view(state, options=options)
        player = view.players[state["current"]]
        dice = view.turn["dice"]
        return advise_with(
            table,
            player["scorecard"],
            player.get("yahtzee_bonus", 0),
            dice,
            view.turn["rolls_left"] if dice is not None else None,
        )

    @property
    def analysis_events(self) -> tuple[str, ...]:
        return ANALYSIS_EVENTS

    def analysis_refusal(self, ruleset: Ruleset, state: State) -> str | None:
        return None

    def analyse(
        self,
        ruleset: Ruleset,
        state: State,
        options: Mapping[str, Any],
        table: Any,
        log: Iterable[Mapping[str, Any]],
        seats: Sequence[int],
    ) -> Any:
        from .strategy.analysis import analyse_with

        return analyse_with(table, log, seats)


def _box(ruleset: Ruleset) -> BoxGame:
    """The ruleset as the box game it is: the registry hands a family its own only."""
    return cast("BoxGame", ruleset)


BOX_GAMES = BoxGames()
