"""The schema's examples and descriptions of advice and analysis: a position's advice
(``/rulesets/{id}/advice/``), a game's hint and its analysis, for the box games and for Ten
Thousand. Apart from ``docs`` (the errors and the game every operation shares) because
they are long and document two operations only; the figures are the service's own
answers, and the analysis's thresholds are read from the engine, so they cannot drift."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.schema.responses import ProblemOut
from scoring.boxgames.strategy.analysis import (
    BEST_TOLERANCE,
    DECIMALS,
    INACCURACY_BELOW,
    MISTAKE_BELOW,
)
from scoring.tenthousand.strategy.analysis import BEST_TOLERANCE as TEN_THOUSAND_BEST
from scoring.tenthousand.strategy.analysis import THRESHOLDS as TEN_THOUSAND_THRESHOLDS

ADVICE_REQUEST = OpenApiExample(
    "Two rolls left with three 3s",
    request_only=True,
    value={
        "scorecard": {"threes": None, "chance": 22},
        "yahtzee_bonus": 0,
        "dice": [3, 3, 5, 1, 3],
        "rolls_left": 2,
        "options": {},
    },
)
ADVICE = {
    "method": "optimal",
    "expected_final": 243.4106,
    "best": {"action": "roll", "hold": [0, 1, 4], "expected_final": 243.4106},
    "options": [
        {"action": "roll", "hold": [0, 1, 4], "expected_final": 243.4106},
        {"action": "score", "category": "threes", "points": 9, "expected_final": 236.0712},
    ],
}
ADVICE_EXAMPLE = OpenApiExample("The advice", value=ADVICE, response_only=True)
HINT_EXAMPLE = OpenApiExample("A hint", value={"seat": 0, **ADVICE}, response_only=True)

# Ten Thousand, default options: 6,500 against 8,000, 300 points set aside, and a throw of
# 1-5-5-2-3-3 (the values as the service gives them).
TEN_THOUSAND_OPTIONS = [
    ({"keep": [1], "then": "roll"}, 0.25184140892636303),
    ({"keep": [5], "then": "roll"}, 0.24467954956102628),
    ({"keep": [1, 5], "then": "roll"}, 0.23292449996820355),
    ({"keep": [5, 5], "then": "roll"}, 0.22649688301842102),
    ({"keep": [1, 5, 5], "then": "roll"}, 0.22272749119307167),
    ({"keep": [1, 5, 5], "then": "bank"}, 0.22195297171703954),
    ({"keep": [1, 5], "then": "bank"}, 0.21414289701526323),
    ({"keep": [1], "then": "bank"}, 0.20648772965147855),
    ({"keep": [5, 5], "then": "bank"}, 0.20648772965147855),
    ({"keep": [5], "then": "bank"}, 0.1988789514240965),
    ("pass", 0.1537528359465672),
]
TEN_THOUSAND_ADVICE = {
    "method": "optimal",
    "objective": "win_probability",
    "best": {"keep": [1], "then": "roll"},
    "options": [{"option": option, "value": value} for option, value in TEN_THOUSAND_OPTIONS],
}
TEN_THOUSAND_GAME_OVER = {
    (409, "application/problem+json"): OpenApiResponse(
        ProblemOut,
        description="Ten Thousand: the position is of a game already over "
        "(`game_not_active`): the seat's total has reached the target, or, without a final "
        "round, the other's has.",
    )
}
TEN_THOUSAND_ADVICE_REQUEST = OpenApiExample(
    "Ten Thousand: two seats, a throw of six dice",
    value={"totals": [6500, 8000], "turn_points": 300, "dice": [1, 5, 5, 2, 3, 3]},
    request_only=True,
)
TEN_THOUSAND_ADVICE_EXAMPLE = OpenApiExample(
    "Ten Thousand: the chance of winning after each option", value=TEN_THOUSAND_ADVICE,
    response_only=True,
)
TEN_THOUSAND_HINT_EXAMPLE = OpenApiExample(
    "Ten Thousand: a hint", value={"seat": 1, **TEN_THOUSAND_ADVICE}, response_only=True
)

# -- analysis ------------------------------------------------------------------------------

ANALYSIS_DESCRIPTION = f"""\
Every decision of the game so far, scored against optimal play: solitaire play for Yahtzee
(any options), Yatzy and Forced Yatzy (`AnalysisOut`), and the game's own objective for Ten
Thousand games of one or two seats (`TenThousandAnalysisOut`, below); other games answer
409 `analysis_unavailable`. By default the seats of people only; `?seats=all` adds the
computer seats.

**Decisions.** A decision is made on a roll. With rolls left its options are every keep
(the dice held for the next roll, as sorted faces) and every legal box; with none left,
every legal box. `chosen` is read from the log: the dice not thrown by the next roll (a
`hold` alone decides nothing), or the box filled (a scratch is that box at 0 points). `seq`
is the event that records it. `best` may be of the other kind (scoring early when rolling
on was better, or the reverse); when the chosen option is among the best, `best` is the
chosen option itself.

**Values** (`method: optimal`). `chosen_value` and `best_value` are the seat's expected
final score (its total at the end, bonuses included) after that option, playing optimally
from then on: exact expectations from the solved strategy tables, identical to `hint` and
`advice` in the same position, points already on the card included. `loss` =
`best_value - chosen_value`. Values and losses are given to {DECIMALS} decimals.

**Labels**, by the points of expected score a decision gives away:
- `best`: nothing (`loss` at most {BEST_TOLERANCE:g}, float rounding);
- `inaccuracy`: less than {INACCURACY_BELOW:g} points: a slightly worse keep or box, often
  hard to see at the table;
- `mistake`: {INACCURACY_BELOW:g} to {MISTAKE_BELOW:g} points: a clearly worse box or keep;
- `blunder`: {MISTAKE_BELOW:g} points or more: giving up a big box, a straight or the
  upper bonus without need.

**Per seat.** `expected_start` is the expected final score of optimal play from the empty
card; `expected_loss` the sum of the losses; `luck` = `total - expected_start +
expected_loss`: what the dice gave above or below expectation (the values chain exactly:
expected start, plus the luck of each roll, minus each loss, is the final total).
`accuracy` = `100 * (1 - expected_loss / expected_start)` (at least 0, two decimals): the
share of the expected score the seat's decisions kept; null before its first decision.

What the figures mean (Yahtzee with the default rules, 1000 games each, measured by
`python -m scoring.boxgames.strategy.evidence --levels random greedy optimal`): optimal play has
accuracy 100, every decision `best`, and on average the expected start as its score; a
player who gives away 25 points a game has accuracy about 90; the `greedy` computer (the
box with the most points now, rolling for it while it is weak) scores 196 with accuracy 77
and 58% of its decisions `best` (8% blunders); the `random` computer scores 46 with
accuracy 18 and 6% `best`. Forced Yatzy leaves less to decide: there `greedy` has accuracy
89 (80% `best`) and `random` 40. Luck averages 0 for every player.

The analysis is solitaire: in a game of several seats it judges each seat's decisions by
its own expected score, not by its chance to win. Three queries, a few milliseconds.

**Ten Thousand.** A decision is made on every throw that can score (a bust decides
nothing); its options are those of the hint (every distinct selection of the throw, then
`roll` or, where the bank minimum is reached, `bank`; and `pass`), read from the log: the
`set_aside` and the move after it, or the `passed`, whose `seq` records the decision. The
answer's `objective` is `win_probability` in a game of two seats (the values are the seat's
chance of winning) and `expected_turns` alone (its expected turns still to play, this one
included); `method` is `optimal`, or `approximate` for a final round or a target above
10,000. `loss` is the distance from the best option, never negative. Labels, by objective:
- chance of winning: `best` at most {TEN_THOUSAND_BEST:g} lost; `inaccuracy` under
  {TEN_THOUSAND_THRESHOLDS["win_probability"][0]:g} (one percentage point: a close call);
  `mistake` under {TEN_THOUSAND_THRESHOLDS["win_probability"][1]:g}; `blunder` from there;
- expected turns: `best` at most {TEN_THOUSAND_BEST:g}; `inaccuracy` under
  {TEN_THOUSAND_THRESHOLDS["expected_turns"][0]:g} turn; `mistake` under
  {TEN_THOUSAND_THRESHOLDS["expected_turns"][1]:g}; `blunder` from there.

`accuracy`: chance of winning, `100 * (1 - expected_loss / expected_start)` (at least 0);
expected turns, `100 * expected_start / (expected_start + expected_loss)`. `expected_start`
is the seat's value when the game begins (the second seat's chance is one minus the
first's). `luck` is null until the game is finished; then `outcome - expected_start +
expected_loss` (outcome 1 for a win, 0 otherwise) for a chance of winning, and
`expected_start + expected_loss - turns played` for expected turns. A seat that left still
counts as the other seat."""

# A real answer (a finished solitaire Yahtzee game, three of its 39 decisions).
ANALYSIS = {
    "method": "optimal",
    "seats": [
        {
            "seat": 0,
            "name": "Ann",
            "computer": None,
            "total": 183,
            "expected_start": 254.587723,
            "expected_loss": 44.30127,
            "accuracy": 82.6,
            "luck": -27.286453,
            "counts": {"best": 26, "inaccuracy": 7, "mistake": 5, "blunder": 1},
        }
    ],
    "decisions": [
        {
            "seq": 3, "seat": 0, "round": 1, "kind": "keep", "dice": [1, 2, 4, 4, 5],
            "rolls_left": 2, "chosen": [4, 4], "best": [4, 4], "chosen_value": 252.243927,
            "best_value": 252.243927, "loss": 0.0, "label": "best",
        },
        {
            "seq": 21, "seat": 0, "round": 5, "kind": "box", "dice": [3, 6, 6, 6, 6],
            "rolls_left": 0, "chosen": "three_of_a_kind", "best": "four_of_a_kind",
            "chosen_value": 212.488907, "best_value": 222.5382, "loss": 10.049293,
            "label": "blunder",
        },
        {
            "seq": 51, "seat": 0, "round": 13, "kind": "keep", "dice": [1, 2, 3, 5, 6],
            "rolls_left": 2, "chosen": [6], "best": [1, 2, 3, 5], "chosen_value": 187.850537,
            "best_value": 195.222222, "loss": 7.371685, "label": "mistake",
        },
    ],
}
ANALYSIS_EXAMPLE = OpenApiExample(
    "A finished solitaire game (three of its decisions)", value=ANALYSIS, response_only=True
)
# A real answer: the `greedy` computer's seat of a Ten Thousand game against `optimal`
# (two of its 25 decisions).
TEN_THOUSAND_ANALYSIS = {
    "method": "optimal",
    "objective": "win_probability",
    "seats": [
        {
            "seat": 0,
            "name": "Bot",
            "computer": "greedy",
            "total": 5150,
            "expected_start": 0.5317152131326656,
            "expected_loss": 0.24863837313397247,
            "accuracy": 53.24,
            "luck": -0.2830768399986931,
            "counts": {"best": 12, "inaccuracy": 4, "mistake": 7, "blunder": 2},
        }
    ],
    "decisions": [
        {
            "seq": 2, "seat": 0, "round": 1, "dice": [1, 1, 2, 3, 4, 6], "turn_points": 0,
            "totals": [0, 0], "chosen": {"keep": [1, 1], "then": "roll"},
            "best": {"keep": [1], "then": "roll"}, "chosen_value": 0.509816808360208,
            "best_value": 0.5166977646135248, "loss": 0.00688095625331675,
            "label": "inaccuracy",
        },
        {
            "seq": 12, "seat": 0, "round": 2, "dice": [1, 1, 5], "turn_points": 250,
            "totals": [400, 1050], "chosen": {"keep": [1, 1, 5], "then": "bank"},
            "best": {"keep": [1, 1, 5], "then": "roll"}, "chosen_value": 0.44747819418032087,
            "best_value": 0.5050360311876232, "loss": 0.057557837007302326,
            "label": "blunder",
        },
    ],
}
TEN_THOUSAND_ANALYSIS_EXAMPLE = OpenApiExample(
    "Ten Thousand: a finished game of two seats (two decisions of one seat)",
    value=TEN_THOUSAND_ANALYSIS,
    response_only=True,
)
ANALYSIS_QUERY_REFUSED = {
    (400, "application/problem+json"): OpenApiResponse(
        ProblemOut,
        description="`seats` is neither `persons` nor `all`, or given twice (`invalid`), or "
        "the query names another parameter (`unknown_field`).",
    )
}
ANALYSIS_UNAVAILABLE = {
    (409, "application/problem+json"): OpenApiResponse(
        ProblemOut,
        description="The game's ruleset has no solved strategy (`analysis_unavailable`): "
        "Maxi Yatzy, and Ten Thousand games of three seats or more.",
    )
}
