"""Ten Thousand (``docs/games/ten-thousand.md``): six dice, push your luck, first to the target.

A turn starts with a throw of all six dice.  After every throw the player sets aside a
scoring selection of the dice just thrown and either throws the rest again (all six again
once every die is set aside: "hot dice") or banks the turn score; a throw in which no die
can score busts the turn, which the engine detects within the move that threw it.  There
is no limit on the throws of a turn (``rolls_per_turn`` is 0 for "no limit").

The state is a JSON-ready dict that only this module reads:

``round``
    full cycles of the seats, from 1;
``current``
    the seat whose turn it is (the last seat to move once the game is over);
``dice``
    the six faces after the turn's last throw, or ``None`` before its first throw;
``set_aside``
    six booleans: the dice set aside earlier in the turn, which the last throw did not
    throw (the others are the *free* dice: exactly the dice of the last throw);
``turn_points``
    the value of every selection set aside this turn;
``throws``
    the throws of the turn so far (hot dice do not start again from 0), which the next
    throw's dice are derived from. States saved before this key existed lack it: their
    games' dice are drawn in order and ignore it;
``totals``
    every seat's banked points;
``final_from``
    ``None`` until a player reaches the target under ``final_round``; then that seat,
    whose turn would close the final round (it does not play again);
``left``
    the seats that resigned: their turns are skipped and they cannot win;
``finished`` and ``winners``;
``last_bust``
    absent, or the throw that busted during the last move: ``seat``, ``dice`` (all six
    faces on the table), ``thrown`` (the positions of the throw) and ``lost`` (the turn
    points lost).  The bust clears the turn at once, so without it the answer to the
    busting move could not show the throw; the next move of the game drops it.

What a selection of dice scores is :mod:`.points`, shared with the view, the calculator
and the computer players.
"""

from ..commands import Bank, Command, Pass, Roll
from ..dice import DiceSource, check_indices
from ..errors import ProblemCode, RuleError, gettext_noop
from ..ruleset import Entry, Event, Option, Outcome, Ruleset, View, best_seats
from ..state import (
    Json,
    JsonObject,
    Options,
    TenThousandSeat,
    TenThousandState,
    TenThousandTurn,
    ten_thousand_options,
)
from .points import DICE, POINTS_STEP, best_free_selection, can_score, selection_value

MOST_POINTS = 100_000  # ten times the standard target: a long game, never an endless one
# A game of computers only is played to its end at once, so its length must stay modest:
# at most the standard target and bank minimum. (Eight `random` seats then write at most
# about 2,300 events, in a third of a second.)
UNATTENDED_TARGET = 10_000
UNATTENDED_BANK_MINIMUM = 350


class TenThousand(Ruleset[TenThousandState]):
    """Ten Thousand on the :class:`Ruleset` interface.

    Moves: ``roll`` (args ``{"set_aside": [positions]}``: none on the turn's first throw,
    then a scoring selection of the last throw's free dice), ``bank`` (args
    ``{"set_aside": [...]}``, a scoring selection set aside before banking) and ``pass``.
    ``rolls_per_turn`` is 0: a turn has no limit on its throws.
    """

    id = "ten-thousand"
    name = gettext_noop("Ten Thousand")
    description = gettext_noop(
        "Six dice, push your luck: after each throw set aside scoring dice (1s, 5s, three or "
        "more of a kind, 1-2-3-4-5-6), then throw the rest again or bank the turn score "
        "(at least 350). A throw with nothing to score busts the turn. The first player to "
        "10 000 wins. There is no limit on the throws of a turn (rolls_per_turn 0)."
    )
    dice = DICE
    rolls_per_turn = 0  # no limit: a turn goes on until the player banks, passes or busts
    min_players = 1
    max_players = 8
    categories = ()
    moves = frozenset({Roll, Bank, Pass})
    options = (
        Option(
            "target", (), 10000,
            gettext_noop(
                "The total that ends the game once a player reaches it by banking: a whole "
                "number from {minimum} to {maximum}, a multiple of {step}."
            ),
            int, minimum=POINTS_STEP, maximum=MOST_POINTS, step=POINTS_STEP,
        ),
        Option(
            "bank_minimum", (), 350,
            gettext_noop(
                "The least turn score (the selection set aside with the bank included) that may "
                "be banked: a whole number from {minimum} to {maximum}, a multiple of {step}."
            ),
            int, minimum=0, maximum=MOST_POINTS, step=POINTS_STEP,
        ),
        Option(
            "final_round", (False, True), False,
            gettext_noop(
                "false: the first player whose total reaches the target wins at once; true: "
                "every other player then gets one last turn (the seats after that player, in "
                "turn order) and the highest total wins, equal highest totals drawing."
            ),
            bool,
        ),
    )

    # -- state -------------------------------------------------------------------------

    def check_unattended(self, options: Options) -> None:
        rules = ten_thousand_options(options)
        for name, given, most in (
            ("target", rules["target"], UNATTENDED_TARGET),
            ("bank_minimum", rules["bank_minimum"], UNATTENDED_BANK_MINIMUM),
        ):
            if given > most:
                raise RuleError(
                    ProblemCode.INVALID,
                    gettext_noop(
                        "a game of computers only is played at once: its {option} is at most "
                        "{most}"
                    ),
                    field=f"options.{name}", option=name, most=most,
                )

    def new_state(self, *, seats: int, options: Options) -> TenThousandState:
        self.check_seats(seats)
        return {
            "round": 1,
            "current": 0,
            "dice": None,
            "set_aside": [False] * DICE,
            "turn_points": 0,
            "throws": 0,
            "totals": [0] * seats,
            "final_from": None,
            "left": [False] * seats,
            "finished": False,
            "winners": [],
        }

    def view(self, state: TenThousandState, *, options: Options) -> View:
        """What players see.

        ``turn`` is the API's shape: ``dice`` (``None`` before the turn's first throw),
        ``set_aside``, ``turn_points``, ``throw_points_available`` (the last throw's free
        dice hold a scoring selection, so the player can set some aside now) and
        ``can_bank`` (``throw_points_available`` and the turn score plus the best selection
        of the free dice reaches ``bank_minimum``: a ``bank`` that sets aside every scoring
        die would be accepted).  After a move that busted, ``turn`` also holds ``last_bust``
        (see the state), so that a screen can show the throw that ended the turn.
        ``choices`` is always empty: there are no boxes.
        """
        finished = state["finished"]
        dice = state["dice"]
        turn_points = state["turn_points"]
        available = False
        can_bank = False
        if dice is not None:
            best = best_free_selection(dice, state["set_aside"])
            available = bool(best.positions)
            least = ten_thousand_options(options)["bank_minimum"]
            can_bank = available and turn_points + best.points >= least
        totals = list(state["totals"])
        players: list[TenThousandSeat] = [{"total": total} for total in totals]
        turn: TenThousandTurn = {
            "dice": None if dice is None else list(dice),
            "set_aside": list(state["set_aside"]),
            "turn_points": turn_points,
            "throw_points_available": available,
            "can_bank": can_bank,
        }
        bust = state.get("last_bust")
        if bust:
            turn["last_bust"] = {**bust, "dice": list(bust["dice"]), "thrown": list(bust["thrown"])}
        return View(
            round=state["round"],
            current_seat=None if finished else state["current"],
            turn=turn,
            choices={},
            players=players,
            totals=totals,
            finished=finished,
            winners=list(state["winners"]),
            left=list(state["left"]),
        )

    # -- moves -------------------------------------------------------------------------

    def play(
        self,
        outcome: Outcome[TenThousandState],
        *,
        command: Command,
        options: Options,
        dice: DiceSource,
    ) -> None:
        outcome.state.pop("last_bust", None)
        match command:
            case Pass():
                self._pass(outcome, options)
            case Roll(hold=hold) if hold is not None:
                raise RuleError(
                    ProblemCode.INVALID,
                    gettext_noop("{game} sets dice aside: send set_aside, not hold"),
                    field="hold", game=self.name,
                )
            # Positions are checked before the turn state: a malformed request is always 400.
            case Roll(set_aside=given):
                chosen = [] if given is None else check_indices(given, DICE, field="set_aside")
                self._roll(outcome, chosen, options, dice)
            case Bank(set_aside=given):
                self._bank(outcome, check_indices(given, DICE, field="set_aside"), options)

    def _set_aside(self, outcome: Outcome[TenThousandState], chosen: list[int]) -> None:
        """Set aside the dice at ``chosen`` (a selection of the last throw's free dice)."""
        state = outcome.state
        if not chosen:
            raise RuleError(
                ProblemCode.NOT_SCORING,
                gettext_noop("set aside at least one scoring die of the last throw"),
            )
        earlier = [i for i in chosen if state["set_aside"][i]]
        if earlier:
            raise RuleError(
                ProblemCode.NOT_SCORING,
                gettext_noop("dice {positions} were set aside earlier in the turn"),
                positions=earlier,
            )
        dice = state["dice"]
        assert dice is not None  # the caller checked that the turn has thrown
        points = selection_value([dice[i] for i in chosen])
        if points is None:
            raise RuleError(
                ProblemCode.NOT_SCORING,
                gettext_noop(
                    "every die set aside must belong to a scoring combination "
                    "(a 1, a 5, three or more of a kind, or 1-2-3-4-5-6)"
                ),
            )
        for i in chosen:
            state["set_aside"][i] = True
        state["turn_points"] += points
        outcome.events.append(
            Event("set_aside", state["current"], {"dice": chosen, "points": points})
        )

    def _roll(
        self,
        outcome: Outcome[TenThousandState],
        chosen: list[int],
        options: Options,
        source: DiceSource,
    ) -> None:
        state = outcome.state
        seat = state["current"]
        dice = state["dice"]
        if dice is None:
            if chosen:
                raise RuleError(
                    ProblemCode.ROLL_FIRST,
                    gettext_noop(
                        "the turn's first throw throws all six dice: nothing to set aside"
                    ),
                )
            dice = state["dice"] = [0] * DICE
            state["set_aside"] = [False] * DICE
        else:
            self._set_aside(outcome, chosen)
            if all(state["set_aside"]):  # hot dice: all six are thrown again
                state["set_aside"] = [False] * DICE
        thrown = [i for i, aside in enumerate(state["set_aside"]) if not aside]
        roll = state.get("throws", 0)
        for i, face in zip(
            thrown, source.throw(seat, self.turn_index(state), roll, thrown), strict=True
        ):
            dice[i] = face
        state["throws"] = roll + 1
        outcome.events.append(Event("rolled", seat, {"dice": list(dice), "thrown": thrown}))
        faces = [dice[i] for i in thrown]
        if not can_score(faces):
            outcome.events.append(
                Event("busted", seat, {"dice": faces, "lost": state["turn_points"]})
            )
            state["last_bust"] = {
                "seat": seat, "dice": list(dice), "thrown": thrown, "lost": state["turn_points"]
            }
            self.end_turn(outcome, options)

    def _bank(
        self, outcome: Outcome[TenThousandState], chosen: list[int], options: Options
    ) -> None:
        state = outcome.state
        seat = state["current"]
        rules = ten_thousand_options(options)
        if state["dice"] is None:
            raise RuleError(ProblemCode.ROLL_FIRST, gettext_noop("throw the dice before banking"))
        self._set_aside(outcome, chosen)
        points = state["turn_points"]
        if points < rules["bank_minimum"]:
            raise RuleError(
                ProblemCode.BANK_TOO_LOW,
                gettext_noop(
                    "a turn score of {points} cannot be banked: at least {least} is needed"
                ),
                points=points, least=rules["bank_minimum"],
            )
        state["totals"][seat] += points
        total = state["totals"][seat]
        outcome.entries.append(Entry(seat, "", points, state["round"]))
        outcome.events.append(Event("banked", seat, {"points": points, "total": total}))
        if state["final_from"] is None and total >= rules["target"]:
            if not rules["final_round"]:
                self.finish(outcome, options)
                return
            # Every other seat, from the next one on in turn order, gets one last turn.
            state["final_from"] = seat
        self.end_turn(outcome, options)

    def _pass(self, outcome: Outcome[TenThousandState], options: Options) -> None:
        state = outcome.state
        outcome.events.append(
            Event("passed", state["current"], {"lost": state["turn_points"]})
        )
        self.end_turn(outcome, options)

    def end_turn(self, outcome: Outcome[TenThousandState], options: Options) -> None:
        """Clear the turn, then end the game or hand the dice to the next seat."""
        state = outcome.state
        state.update({"dice": None, "set_aside": [False] * DICE, "turn_points": 0, "throws": 0})
        if not self.advance(state, stop_at=state["final_from"]):
            self.finish(outcome, options)

    def finish(self, outcome: Outcome[TenThousandState], options: Options) -> None:
        state = outcome.state
        winners = best_seats(state["totals"], state["left"])
        state.update({
            "dice": None, "set_aside": [False] * DICE, "turn_points": 0, "throws": 0,
            "finished": True, "winners": winners,
        })
        outcome.events.append(
            Event("finished", None, {"winners": list(winners), "totals": list(state["totals"])})
        )

    # -- calculator --------------------------------------------------------------------

    def calculate(self, body: JsonObject, *, options: Options) -> dict[str, Json]:
        """``{"dice": [faces]}``, a selection of 1 to 6 dice, answers ``{"points", "scoring"}``.

        ``scoring`` tells whether every die belongs to a combination; ``points`` is then the
        selection's best value, and 0 when it does not score (also when some of its dice
        would score on their own: such a selection cannot be set aside).
        """
        faces = body.get("dice")
        if (
            not isinstance(faces, list | tuple)
            or not 1 <= len(faces) <= DICE
            or not all(type(face) is int and 1 <= face <= 6 for face in faces)
        ):
            raise RuleError(
                ProblemCode.INVALID_DICE,
                gettext_noop("dice must be a list of 1 to {most} faces from 1 to 6"),
                field="dice", most=DICE,
            )
        points = selection_value(faces)
        return {"points": 0 if points is None else points, "scoring": points is not None}
