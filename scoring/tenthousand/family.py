"""Ten Thousand as a :class:`~scoring.family.Family`.

Its strategy plays the game's own objective (the chance of winning against one other seat,
the fewest turns alone), from tables keyed by the bank minimum alone; games of more than
two seats are advised approximately and not analysed. Strategy modules are imported on
first use, so that the rules load without NumPy and numba.
"""

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from ..commands import Command
from ..errors import Words, gettext_noop
from ..family import Family, Folder, PlayerRng
from ..match import GameStatus, status
from ..ruleset import Ruleset
from ..state import Json, LoggedEvent, Options, OptionValue, TenThousandState, ten_thousand_options
from .rules import TenThousand

if TYPE_CHECKING:  # the strategy is imported on first use (NumPy, numba)
    from .strategy.advice import TenThousandAdvice
    from .strategy.analysis import TenThousandAnalysis
    from .strategy.tables import SolvedTables

# Solved for one seat and for two: games of more are not analysed.
ANALYSED_SEATS = 2


class TenThousandFamily(
    Family[TenThousandState, "SolvedTables", "TenThousandAdvice", "TenThousandAnalysis"]
):
    id = "ten-thousand"
    name = "Ten Thousand"

    def __init__(self) -> None:
        self._rulesets: tuple[Ruleset[TenThousandState], ...] = (TenThousand(),)

    @property
    def rulesets(self) -> tuple[Ruleset[TenThousandState], ...]:
        return self._rulesets

    def levels(self, ruleset: Ruleset[TenThousandState]) -> tuple[str, ...]:
        from .strategy.players import TEN_THOUSAND_LEVELS

        return TEN_THOUSAND_LEVELS

    def computer_move(
        self,
        ruleset: Ruleset[TenThousandState],
        state: TenThousandState,
        *,
        level: str,
        options: Options,
        rng: PlayerRng,
        folder: Folder,
    ) -> Command:
        from .strategy.players import ten_thousand_move

        return ten_thousand_move(state, level=level, options=options, rng=rng, folder=folder)

    def solved(self, ruleset: Ruleset[TenThousandState]) -> bool:
        return True

    def computer_cost(self, ruleset: Ruleset[TenThousandState], level: str) -> int:
        return 2  # every level: its optimal table is small, a throw's options few

    def computer_game_moves(self, ruleset: Ruleset[TenThousandState], level: str) -> int:
        # In a game of eight computers at the standard target and bank minimum: about 150
        # moves a seat for random, 50 for the others.
        return 160 if level == "random" else 60

    def table_options(
        self, ruleset: Ruleset[TenThousandState], options: Options | None
    ) -> tuple[str, dict[str, OptionValue]]:
        minimum = ten_thousand_options(ruleset.validate_options(options))["bank_minimum"]
        return ruleset.id, {"bank_minimum": minimum}

    def load_table(
        self,
        ruleset: Ruleset[TenThousandState],
        options: Options | None,
        folder: Folder,
        *,
        build_missing: bool,
    ) -> "SolvedTables":
        from .strategy.tables import load_tables

        minimum = ten_thousand_options(ruleset.validate_options(options))["bank_minimum"]
        return load_tables(minimum, folder, build_missing=build_missing)

    def prepare_table(
        self, ruleset_id: str, table_options: Options, folder: Folder
    ) -> bool:
        from .strategy.tables import prepare_tables

        minimum = ten_thousand_options(table_options)["bank_minimum"]
        return prepare_tables(minimum, folder)[1]

    def table_file(
        self, ruleset_id: str, table_options: Options
    ) -> tuple[dict[str, OptionValue], str, dict[str, Json]]:
        from .strategy.tables import expected_meta, table_path

        minimum = int(table_options["bank_minimum"])
        return {"bank_minimum": minimum}, table_path(".", minimum).name, expected_meta(minimum)

    def describe_table(self, table: object) -> str:
        tables = cast("SolvedTables", table)
        return (
            f"first player wins {tables.meta['first_player_wins']:.6f}, expected turns "
            f"alone {tables.meta['expected_turns']:.4f}"
        )

    def advise(
        self,
        ruleset: Ruleset[TenThousandState],
        state: TenThousandState,
        options: Options,
        table: "SolvedTables",
    ) -> "TenThousandAdvice":
        from .strategy.advice import advise_state

        return advise_state(table, state, ruleset.validate_options(options))

    @property
    def analysis_events(self) -> tuple[str, ...]:
        from .strategy.analysis import EVENTS

        return EVENTS

    def analysis_refusal(
        self, ruleset: Ruleset[TenThousandState], state: TenThousandState
    ) -> Words | None:
        seats = len(state["totals"])
        if seats <= ANALYSED_SEATS:
            return None
        return Words(
            gettext_noop("{game} is analysed in games of one or two seats; this game has {seats}"),
            {"game": ruleset.name, "seats": seats},
        )

    def analyse(
        self,
        ruleset: Ruleset[TenThousandState],
        state: TenThousandState,
        options: Options,
        table: "SolvedTables",
        log: Iterable[LoggedEvent],
        seats: Sequence[int],
    ) -> "TenThousandAnalysis":
        from .strategy.analysis import analyse_ten_thousand

        return analyse_ten_thousand(
            table, ruleset.validate_options(options), len(state["totals"]), log, seats,
            finished=status(state) == GameStatus.FINISHED, winners=state["winners"],
        )


TEN_THOUSAND = TenThousandFamily()
