"""A family of rules: the rulesets that share one engine, and everything the service asks
of them beyond the moves (the solved strategy, advice, analysis, computer players, a
finished game's standings).

The service tells families apart by asking :func:`scoring.registry.family_of`, never by the
class of a ruleset: a new family is a package under ``scoring/`` with a :class:`Family`
registered in :mod:`scoring.registry`, and the service serves it with no ``if`` of its
own. The box games (:mod:`scoring.boxgames.family`) and Ten Thousand
(:mod:`scoring.tenthousand.family`) are the two there are.

A family's strategy (NumPy, numba) is imported by its methods, on first use: importing the
rules does not load the solvers.
"""

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from .commands import Command
from .errors import Words
from .ruleset import Ruleset, S
from .state import Json, LoggedEvent, Options, OptionValue

Folder = Path | str

T = TypeVar("T")
# What a family's strategy works with, each its own type: the solved table it loads, the
# advice it gives from it and the analysis it makes of a log.
TableT = TypeVar("TableT")
AdviceT = TypeVar("AdviceT")
AnalysisT = TypeVar("AnalysisT")


class PlayerRng(Protocol):
    """The random source a computer player draws from (``random.Random`` will do)."""

    def random(self) -> float: ...
    def choice(self, seq: Sequence[T]) -> T: ...
    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class Standings:
    """A game's seats as a tournament counts them: each seat's points, the winners, and
    the seats from first to last (by points; seats that left come last, in seat order)."""

    totals: list[int]
    winners: list[int]
    ranking: list[int]


class Family(ABC, Generic[S, TableT, AdviceT, AnalysisT]):
    """What the service needs of a family of rulesets. ``id`` names it in the registry and
    to the API layer (which keys its per-family schema shapes by it).

    A family is generic over its rulesets' state and its strategy's table, advice and
    analysis, so that each family's methods take and give its own types; the registry,
    which serves every family alike, holds them unparametrised."""

    id: str
    name: str

    @property
    @abstractmethod
    def rulesets(self) -> tuple[Ruleset[S], ...]:
        """The family's rulesets, in the order the service lists them."""

    # -- computer players ----------------------------------------------------------------

    @abstractmethod
    def levels(self, ruleset: Ruleset[S]) -> tuple[str, ...]:
        """The computer levels the ruleset offers, weakest first."""

    @abstractmethod
    def computer_cost(self, ruleset: Ruleset[S], level: str) -> int:
        """What one computer move at ``level`` costs, in units of about a tenth of a
        millisecond of the serving process's core (the request's whole work for the move):
        the service's budget of computer moves counts them."""

    @abstractmethod
    def computer_game_moves(self, ruleset: Ruleset[S], level: str) -> int:
        """About how many moves a seat at ``level`` makes in a whole game of computers."""

    @abstractmethod
    def computer_move(
        self,
        ruleset: Ruleset[S],
        state: S,
        *,
        level: str,
        options: Options,
        rng: PlayerRng,
        folder: Folder,
    ) -> Command:
        """The current seat's move at ``level`` (offered; the game active; ``options``
        validated). ``folder`` holds the solved tables the strongest level plays from."""

    # -- solved strategy: tables, advice, analysis ----------------------------------------

    @abstractmethod
    def solved(self, ruleset: Ruleset[S]) -> bool:
        """Whether the ruleset's strategy is solved: it has advice and analysis from tables
        (a ruleset without them has hints from its strongest computer player)."""

    @abstractmethod
    def table_options(
        self, ruleset: Ruleset[S], options: Options | None
    ) -> tuple[str, dict[str, OptionValue]]:
        """The ruleset id and the options a solved table of this game is keyed by (two
        games that differ elsewhere share a table). Raises :class:`RuleError` for bad
        options."""

    @abstractmethod
    def load_table(
        self,
        ruleset: Ruleset[S],
        options: Options | None,
        folder: Folder,
        *,
        build_missing: bool,
    ) -> TableT:
        """The loaded table for these options, read from ``folder`` (kept in memory once
        read); built if missing and ``build_missing``, else ``FileNotFoundError`` or
        ``StaleTable`` at once."""

    @abstractmethod
    def prepare_table(
        self, ruleset_id: str, table_options: Options, folder: Folder
    ) -> bool:
        """Build the table of :meth:`table_options` unless it is there and fresh; whether it
        was built. One build per table at a time, across threads and processes."""

    @abstractmethod
    def table_file(
        self, ruleset_id: str, table_options: Options
    ) -> tuple[dict[str, OptionValue], str, dict[str, Json]]:
        """For the table of these options (as :meth:`table_options` gives them): the full
        options it is solved for, its file's name, and the header a fresh file of the
        current engine carries (what a deployment's stored copy is fingerprinted by)."""

    @abstractmethod
    def describe_table(self, table: object) -> str:
        """What a solved table says of the game in a few words, for the build's log (a
        table as :meth:`prepare_table`'s builders give it)."""

    @abstractmethod
    def advise(
        self, ruleset: Ruleset[S], state: S, options: Options, table: TableT
    ) -> AdviceT:
        """The advice for the seat to move in an active game, from :meth:`load_table`'s
        table."""

    @property
    @abstractmethod
    def analysis_events(self) -> tuple[str, ...]:
        """The event types an analysis reads decisions from (the rest of a log is not
        loaded)."""

    @abstractmethod
    def analysis_refusal(self, ruleset: Ruleset[S], state: S) -> "Words | None":
        """Why this game cannot be analysed although its ruleset is solved, or ``None``."""

    @abstractmethod
    def analyse(
        self,
        ruleset: Ruleset[S],
        state: S,
        options: Options,
        table: TableT,
        log: Iterable[LoggedEvent],
        seats: Sequence[int],
    ) -> AnalysisT:
        """The analysis of ``seats``' decisions in ``log`` (the events of
        :attr:`analysis_events`, in order)."""

    # -- tournaments ---------------------------------------------------------------------

    def standings(
        self, ruleset: Ruleset[S], state: S, options: Options
    ) -> Standings:
        """A game's standings (final once it is finished): every family shows totals."""
        view = ruleset.view(state, options=ruleset.validate_options(options))
        left = view.left or [False] * len(view.totals)
        ranking = sorted(
            range(len(view.totals)), key=lambda seat: (left[seat], -view.totals[seat], seat)
        )
        return Standings(list(view.totals), list(view.winners), ranking)
