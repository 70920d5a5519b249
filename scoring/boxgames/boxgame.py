"""The engine of the box-filling games (Yahtzee and the Yatzy family).

A turn is up to ``rolls_per_turn`` rolls (plus any saved rolls, where the ruleset saves
them), with dice held between rolls, ended by filling one open box of the player's card.
Rulesets differ in their boxes and in three hooks: which boxes are legal now
(:meth:`BoxGame.legal`), what bonus a fill earns besides its box (:meth:`BoxGame.fill_bonus`)
and what a seat's card shows (:meth:`BoxGame.seat_view`).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from ..commands import Command, Hold, Roll, Score, Scratch
from ..dice import DiceSource, check_dice, check_indices
from ..errors import ProblemCode, RuleError, gettext_noop
from ..ruleset import Category, Entry, Event, Outcome, Ruleset, View, best_seats
from ..state import BoxSeat, BoxState, Card, Json, JsonObject, Options

# The most ``hold`` moves one turn takes. Holding changes no die, so without a bound one
# turn could log holds for ever; thirty is far more than any player needs between three
# rolls (a roll may also set the held dice itself).
MOST_HOLDS = 30


@dataclass(frozen=True)
class Box(Category):
    """A box of the scorecard and the points it gives for a set of dice."""

    score: Callable[[Sequence[int]], int]


@cache
def box_points(box: Box, dice: int) -> tuple[int, ...]:
    """Every number of points the box can hold in a game of so many dice, in order: what
    some throw scores in it, and the 0 of a scratch. The fixed points the Joker gives
    (25, 30, 40) are what some throw scores anyway, so no option widens this."""
    throws = combinations_with_replacement(range(1, 7), dice)
    return tuple(sorted({0, *(box.score(list(faces)) for faces in throws)}))


def spelled_points(points: Sequence[int]) -> str:
    """Points as any language reads them, runs shortened: ``0, 5-30`` or ``0, 15``."""
    runs: list[list[int]] = []
    for value in points:
        if runs and value == runs[-1][1] + 1:
            runs[-1][1] = value
        else:
            runs.append([value, value])
    return ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in runs)


class BoxGame(Ruleset[BoxState]):
    boxes: tuple[Box, ...]
    upper_bonus_threshold: int
    upper_bonus_points: int
    saves_rolls: bool = False
    bonus_box: str | None = None  # the box that must hold its top points for a bonus
    bonus_step = 1  # a bonus beside the boxes grows by whole multiples of this
    moves = frozenset({Roll, Hold, Score, Scratch})

    @property
    def categories(self) -> tuple[Category, ...]:  # type: ignore[override]  # read, never set
        return self.boxes

    # -- hooks -------------------------------------------------------------------------

    def legal(self, card: Card, dice: Sequence[int], options: Options) -> dict[str, int]:
        """Every box that may be filled now with these dice, and the points it would take."""
        return {box.id: box.score(dice) for box in self.boxes if card[box.id] is None}

    def fill_bonus(
        self, card: Card, dice: Sequence[int], options: Options, bonus: int
    ) -> int:
        """Points earned besides the box itself when a box is filled (card before the fill)."""
        return 0

    def seat_view(self, card: Card, bonus: int) -> BoxSeat:
        upper = sum(card[box.id] or 0 for box in self.boxes if box.section == "upper")
        lower = sum(card[box.id] or 0 for box in self.boxes if box.section == "lower")
        upper_bonus = self.upper_bonus_points if upper >= self.upper_bonus_threshold else 0
        return {
            "scorecard": {box.id: card[box.id] for box in self.boxes},
            "upper_total": upper,
            "upper_bonus": upper_bonus,
            "total": upper + upper_bonus + lower + bonus,
        }

    # -- state -------------------------------------------------------------------------

    def new_state(self, *, seats: int, options: Options) -> BoxState:
        self.check_seats(seats)
        return {
            "round": 1,
            "current": 0,
            "dice": None,
            "held": [False] * self.dice,
            "rolls_used": 0,
            "holds": 0,
            "saved": [0] * seats,
            "cards": [{box.id: None for box in self.boxes} for _ in range(seats)],
            "bonus": [0] * seats,
            "left": [False] * seats,
            "finished": False,
            "winners": [],
        }

    def rolls_left(self, state: BoxState) -> int:
        return self.rolls_per_turn + state["saved"][state["current"]] - state["rolls_used"]

    def view(self, state: BoxState, *, options: Options) -> View:
        players = [
            self.seat_view(card, bonus)
            for card, bonus in zip(state["cards"], state["bonus"], strict=True)
        ]
        totals = [player["total"] for player in players]
        finished = state["finished"]
        dice = state["dice"]
        choices = {} if finished or dice is None else self.legal(
            state["cards"][state["current"]], dice, options
        )
        return View(
            round=state["round"],
            current_seat=None if finished else state["current"],
            turn={
                "dice": None if dice is None else list(dice),
                "held": list(state["held"]),
                "rolls_used": state["rolls_used"],
                "rolls_left": 0 if finished else self.rolls_left(state),
            },
            choices=choices,
            players=players,
            totals=totals,
            finished=finished,
            winners=list(state["winners"]),
            left=list(state["left"]),
        )

    # -- moves -------------------------------------------------------------------------

    def play(
        self,
        outcome: Outcome[BoxState],
        *,
        command: Command,
        options: Options,
        dice: DiceSource,
    ) -> None:
        match command:
            case Roll(set_aside=set_aside) if set_aside is not None:
                raise RuleError(
                    ProblemCode.INVALID,
                    gettext_noop("{game} holds dice: send hold, not set_aside"),
                    field="set_aside",
                    game=self.name,
                )
            case Roll(hold=hold):
                self._roll(outcome, hold, dice)
            case Hold(hold=hold):
                self._hold(outcome, hold)
            case Score(category=category) | Scratch(category=category):
                self._fill(outcome, category, options, scratch=isinstance(command, Scratch))

    def _set_held(self, state: BoxState, hold: object) -> list[int]:
        indices = check_indices(hold, self.dice)
        if indices and state["dice"] is None:
            raise RuleError(
                ProblemCode.ROLL_FIRST,
                gettext_noop("there are no dice to hold before the first roll"),
            )
        state["held"] = [i in indices for i in range(self.dice)]
        return indices

    def _roll(self, outcome: Outcome[BoxState], hold: object, dice: DiceSource) -> None:
        state = outcome.state
        seat = state["current"]
        if self.rolls_left(state) <= 0:
            raise RuleError(
                ProblemCode.NO_ROLLS_LEFT, gettext_noop("no rolls are left this turn: fill a box")
            )
        if hold is not None:
            self._set_held(state, hold)
        shown = state["dice"]
        if shown is None:
            shown = state["dice"] = [0] * self.dice
            state["held"] = [False] * self.dice
        thrown = [i for i, held in enumerate(state["held"]) if not held]
        faces = dice.throw(seat, self.turn_index(state), state["rolls_used"], thrown)
        for i, face in zip(thrown, faces, strict=True):
            shown[i] = face
        state["rolls_used"] += 1
        outcome.events.append(
            Event("rolled", seat, {"dice": list(shown), "thrown": thrown})
        )

    def _hold(self, outcome: Outcome[BoxState], hold: object) -> None:
        state = outcome.state
        indices = check_indices(hold, self.dice)
        if state["dice"] is None:
            raise RuleError(
                ProblemCode.ROLL_FIRST,
                gettext_noop("there are no dice to hold before the first roll"),
            )
        # States saved before the count was kept have none: their turn counts from here.
        holds = state.get("holds", 0)
        if holds >= MOST_HOLDS:
            raise RuleError(
                ProblemCode.TOO_MANY_HOLDS,
                gettext_noop("a turn takes at most {most} hold moves: roll or fill a box"),
                most=MOST_HOLDS,
            )
        self._set_held(state, indices)
        state["holds"] = holds + 1
        outcome.events.append(Event("held", state["current"], {"held": indices}))

    def check_category(self, category: object) -> str:
        if not isinstance(category, str) or category not in {box.id for box in self.boxes}:
            raise RuleError(
                ProblemCode.UNKNOWN_CATEGORY,
                gettext_noop("{game} has no box {category!r}"), field="category",
                game=self.name, category=category,
            )
        return category

    def _fill(
        self, outcome: Outcome[BoxState], category: object, options: Options, *, scratch: bool
    ) -> None:
        state = outcome.state
        category = self.check_category(category)
        seat = state["current"]
        card = state["cards"][seat]
        dice = state["dice"]
        if dice is None:
            raise RuleError(
                ProblemCode.ROLL_FIRST, gettext_noop("roll the dice before filling a box")
            )
        if card[category] is not None:
            raise RuleError(
                ProblemCode.CATEGORY_FILLED, gettext_noop("the {category} box is already filled"),
                category=category,
            )
        legal = self.legal(card, dice, options)
        if category not in legal:
            allowed = ", ".join(legal)
            raise RuleError(
                ProblemCode.CATEGORY_NOT_ALLOWED,
                gettext_noop("with these dice only these boxes may be filled: {allowed}"),
                allowed=allowed,
            )
        points = 0 if scratch else legal[category]
        bonus = self.fill_bonus(card, dice, options, state["bonus"][seat])
        card[category] = points
        state["bonus"][seat] += bonus
        outcome.entries.append(Entry(seat, category, points, state["round"]))
        outcome.events.append(
            Event(
                "scratched" if scratch else "scored",
                seat,
                {
                    "category": category,
                    "points": points,
                    "dice": list(dice),
                    "yahtzee_bonus": bonus,
                },
            )
        )
        self.end_turn(outcome, options)

    def end_turn(self, outcome: Outcome[BoxState], options: Options) -> None:
        state = outcome.state
        if self.saves_rolls:
            state["saved"][state["current"]] = self.rolls_left(state)
        state.update({"dice": None, "held": [False] * self.dice, "rolls_used": 0, "holds": 0})
        cards = [card for card, left in zip(state["cards"], state["left"], strict=True) if not left]
        done = all(value is not None for card in cards for value in card.values())
        if done or not self.advance(state):
            self.finish(outcome, options)

    def finish(self, outcome: Outcome[BoxState], options: Options) -> None:
        state = outcome.state
        state.update({
            "dice": None, "held": [False] * self.dice, "rolls_used": 0, "holds": 0,
            "finished": True,
        })
        totals = self.view(state, options=options).totals
        state["winners"] = best_seats(totals, state["left"])
        outcome.events.append(
            Event("finished", None, {"winners": state["winners"], "totals": totals})
        )

    # -- calculator --------------------------------------------------------------------

    def calculate(self, body: JsonObject, *, options: Options) -> dict[str, Json]:
        dice = check_dice(body.get("dice"), self.dice)
        card = self.check_card(body.get("scorecard"))
        return {"scores": self.legal(card, dice, options)}

    def check_card(self, given: object) -> Card:
        """A caller's scorecard: known boxes, each a whole number of points or null (open)."""
        card: Card = {box.id: None for box in self.boxes}
        if given is None:
            return card
        if not isinstance(given, Mapping):
            raise RuleError(
                ProblemCode.INVALID, gettext_noop("scorecard must map boxes to points or null"),
                field="scorecard",
            )
        for key, value in given.items():
            if key not in card:
                raise RuleError(
                    ProblemCode.UNKNOWN_CATEGORY,
                    gettext_noop("{game} has no box {category!r}"), field=f"scorecard.{key}",
                    game=self.name, category=key,
                )
            if value is not None and (type(value) is not int or value < 0):
                raise RuleError(
                    ProblemCode.INVALID,
                    gettext_noop("scorecard.{category} must be a whole number of points or null"),
                    field=f"scorecard.{key}", category=key,
                )
            if value is not None and not self.possible_points(key, value):
                raise RuleError(
                    ProblemCode.INVALID,
                    gettext_noop(
                        "no game of {game} puts {points} in {category}: it holds {allowed}"
                    ),
                    field=f"scorecard.{key}", game=self.name, points=value, category=key,
                    allowed=spelled_points(self.box_points(key)),
                )
            card[key] = value
        return card

    def bonus_ceiling(self, options: Options) -> int:
        """The most points besides its boxes (:meth:`fill_bonus`) a seat can earn in a game
        with these options, its bonus box holding its top points: none here."""
        return 0

    def most_bonus(self, card: Card, options: Options) -> int:
        """The most bonus points a seat with this card can have earned: a bonus needs the
        bonus box at its top points. How many boxes the card has filled is not counted (a
        schema cannot count them, and the schema says what is taken)."""
        if self.bonus_box is None or card[self.bonus_box] != self.box_points(self.bonus_box)[-1]:
            return 0
        return self.bonus_ceiling(options)

    def check_bonus(self, bonus: object, card: Card, options: Options) -> int:
        """A caller's bonus points beside a card: what some game reaching it has earned."""
        most = self.most_bonus(card, options)
        if type(bonus) is not int or not 0 <= bonus <= most or bonus % self.bonus_step:
            message = gettext_noop(
                "no game of {game} with this card and options has earned a bonus of {bonus!r}: "
                "it is a multiple of {step} from 0 to {most}"
            )
            if not most:
                message = gettext_noop(
                    "no game of {game} with this card and options has earned a bonus of "
                    "{bonus!r}: it is 0"
                )
            raise RuleError(
                ProblemCode.INVALID, message, field="yahtzee_bonus",
                game=self.name, bonus=bonus, step=self.bonus_step, most=most,
            )
        return bonus

    def box_points(self, box_id: str) -> tuple[int, ...]:
        """Every number of points the box ``box_id`` can hold, whatever the options."""
        return box_points(next(box for box in self.boxes if box.id == box_id), self.dice)

    def possible_points(self, box_id: str, points: int) -> bool:
        """Whether some game of this ruleset ends a turn with ``points`` in ``box_id``: a
        card holding anything else was made up, and no answer about it means anything."""
        return points in self.box_points(box_id)
