"""Each ruleset's own variant of the request bodies that depend on the ruleset.

One serializer checks the shape of such a body for every ruleset (``games.api.fields``);
the engine then refuses, with 400, what the ruleset does not take: another ruleset's
options, boxes or computer levels, the wrong number of dice, more seats than it has, a
scorecard no game reaches. So that the schema says exactly what is accepted (a generated
client gets exact types, and a request the schema calls valid is not refused), each such
body has one variant per ruleset: the serializer's own schema, narrowed with what scoring's
rulesets say of themselves. Nothing here is copied from a ruleset; it is all read from it.
``games.api.schema.per_ruleset.split_by_ruleset`` puts the variants into the schema.

A rule between fields is stated as what it forbids: ``not`` ``anyOf`` the combinations the
engine refuses, each spelled out (OpenAPI 3.0 has no ``contains`` and no arithmetic between
fields, so a sum is spelled out by cases). Generated types, which cannot say such rules,
then keep the plain shape of the body.
"""

import copy
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from scoring import Option, RuleError, Ruleset, family_of
from scoring.boxgames.boxgame import BoxGame
from scoring.boxgames.family import BOX_GAMES
from scoring.errors import worded
from scoring.strategy.players import levels_for
from scoring.tenthousand.family import TEN_THOUSAND

from .scorecards import (
    FILLED,
    bonus_refused,
    bonus_schema,
    fill_order,
    filled_after_open,
    option_values,
    scorecard_schema,
)

Schema = dict[str, Any]

JSON_TYPES = {str: "string", int: "integer", bool: "boolean"}


def prefix(ruleset: Ruleset) -> str:
    """``ten-thousand`` -> ``TenThousand``: how the ruleset's component names begin."""
    return "".join(word.capitalize() for word in ruleset.id.split("-"))


def option_schema(option: Option) -> Schema:
    schema: Schema = {
        "type": JSON_TYPES[option.kind],
        "description": worded(option.description, option.described()),
        "default": option.default,
    }
    if option.values and option.kind is not bool:
        schema["enum"] = list(option.values)
    for key, value in (
        ("minimum", option.minimum), ("maximum", option.maximum), ("multipleOf", option.step)
    ):
        if value is not None:
            schema[key] = value
    return schema


def options_schema(ruleset: Ruleset) -> Schema:
    if ruleset.options:
        said = f"{ruleset.name}'s house rules, each by its id; missing ones take their defaults."
    else:
        said = f"{ruleset.name} has no house rules: only `{{}}`."
    return {
        "type": "object",
        "properties": {option.id: option_schema(option) for option in ruleset.options},
        "additionalProperties": False,
        "description": said,
    }


# -- creating a game -------------------------------------------------------------------------


def create_body(generic: Schema, seat: Schema, ruleset: Ruleset) -> Schema:
    """A new game of this ruleset: its options, its computer levels and its number of seats
    (players and open seats together); for a game of computers only, what it may last."""
    body = copy.deepcopy(generic)
    fields = body["properties"]
    fields["ruleset"] = {
        "type": "string",
        "enum": [ruleset.id],
        "description": fields["ruleset"].get("description", ""),
    }
    fields["options"] = options_schema(ruleset)
    seats = min(fields["players"]["maxItems"], ruleset.max_players)
    fields["players"].update(items=seat_schema(seat, ruleset), maxItems=seats)
    fields["open_seats"]["maximum"] = min(
        fields["open_seats"]["maximum"], ruleset.max_players - 1
    )
    refused = list(seat_counts_refused(ruleset, seats))
    said = [
        (
            f"A game of {ruleset.name}: {ruleset.min_players} to {ruleset.max_players} seats, "
            "`players` and `open_seats` together."
        )
    ]
    limits = unattended_limits(ruleset)
    if limits:
        refused += unattended_refused(limits)
        bounds = ", ".join(f"`{name}` {_bound(limit)}" for name, limit in limits.items())
        said.append(
            "A game of computers only (every seat a computer, no open seat) is played to its "
            f"end within this request, so it takes {bounds}."
        )
    body["not"] = {"anyOf": refused}
    body["description"] = " ".join(said)
    return body


def seat_schema(seat: Schema, ruleset: Ruleset) -> Schema:
    levels = levels_for(ruleset.id)
    named = ", ".join(f"`{level}`" for level in levels)
    schema = copy.deepcopy(seat)
    schema["description"] = "A seat: a person, or a computer and its level."
    schema["additionalProperties"] = False
    schema["properties"]["computer"] = {
        "type": "string",
        "nullable": True,
        "enum": [*levels, None],
        "description": f"Null (or absent) for a person; for a computer seat its strategy, one "
        f"of {named}. Computer seats play their turns at once, within the request that ends "
        "the previous seat's turn.",
    }
    return schema


def seat_counts_refused(ruleset: Ruleset, seats: int) -> Iterator[Schema]:
    """For each number of players, the open seats that make too many seats or too few."""
    for players in range(1, seats + 1):
        count = {"minItems": players, "maxItems": players}
        yield {
            "required": ["open_seats"],
            "properties": {
                "players": count,
                "open_seats": {"minimum": ruleset.max_players - players + 1},
            },
        }
        if players < ruleset.min_players:  # an absent open_seats is 0: too few as well
            yield {
                "properties": {
                    "players": count,
                    "open_seats": {"maximum": ruleset.min_players - players - 1},
                }
            }


@cache
def unattended_limits(ruleset: Ruleset) -> dict[str, Schema]:
    """The options a game of computers only may not take every value of, each narrowed to
    the values the ruleset lets such a game have (asked of the ruleset, one option at a
    time, the others at their defaults)."""
    defaults = ruleset.validate_options({})
    limits: dict[str, Schema] = {}
    for option in ruleset.options:
        values = option_values(option)
        allowed = [v for v in values if _plays_unattended(ruleset, {**defaults, option.id: v})]
        if allowed == values:
            continue
        if option.kind is int and allowed == values[: len(allowed)]:
            limits[option.id] = {"maximum": allowed[-1]}
        else:
            limits[option.id] = {"enum": allowed}
    return limits


def _plays_unattended(ruleset: Ruleset, options: dict[str, Any]) -> bool:
    try:
        ruleset.check_unattended(options)
    except RuleError:
        return False
    return True


def unattended_refused(limits: dict[str, Schema]) -> list[Schema]:
    """Every seat a computer, no open seat, and an option beyond its limit."""
    computer = {
        "type": "object", "required": ["computer"], "properties": {"computer": {"type": "string"}}
    }
    return [
        {
            "required": ["options"],
            "properties": {
                "players": {"items": computer},
                "open_seats": {"maximum": 0},
                "options": {"required": [name], "properties": {name: _beyond(limit)}},
            },
        }
        for name, limit in limits.items()
    ]


def _beyond(limit: Schema) -> Schema:
    if "maximum" in limit:  # a whole number's
        return {"minimum": limit["maximum"] + 1}
    return {"not": {"enum": limit["enum"]}}


def _bound(limit: Schema) -> str:
    if "maximum" in limit:
        return f"at most {limit['maximum']}"
    return "one of " + ", ".join(f"`{value}`" for value in limit["enum"])


# -- the score calculator and advice ---------------------------------------------------------


def score_body(generic: Schema, ruleset: Ruleset) -> Schema:
    """The calculator's body: the ruleset's options, and its family's dice and scorecard."""
    body = copy.deepcopy(generic)
    body["description"] = f"Dice of {ruleset.name} to value."
    fields = body["properties"]
    fields["options"] = options_schema(ruleset)
    SCORE_FIELDS[family_of(ruleset).id](fields, ruleset)
    return body


def _box_score_fields(fields: Schema, ruleset: BoxGame) -> None:
    """A box game values all its dice in a box of its scorecard (its own boxes)."""
    fields["dice"].update(
        minItems=ruleset.dice, maxItems=ruleset.dice, description=f"The {ruleset.dice} dice."
    )
    fields["scorecard"] = scorecard_schema(ruleset) | {"nullable": True}


def _selection_score_fields(fields: Schema, ruleset: Ruleset) -> None:
    """Ten Thousand values a selection of dice (a scorecard is taken but not read: it has
    no boxes)."""
    fields["dice"].update(
        minItems=1,
        maxItems=ruleset.dice,
        description=f"A selection of 1 to {ruleset.dice} dice, valued together.",
    )
    fields["scorecard"]["description"] = f"Not read: {ruleset.name} has no boxes."


# The calculator's dice and scorecard, by family id.
SCORE_FIELDS: dict[str, Callable[[Schema, Any], None]] = {
    BOX_GAMES.id: _box_score_fields,
    TEN_THOUSAND.id: _selection_score_fields,
}


def advice_body(generic: Schema, ruleset: BoxGame) -> Schema:
    """Advice's body: the ruleset's dice, and a scorecard that play can reach: each box
    holds points some game puts in it, and in a game of fixed order the filled boxes are the
    first ones; a bonus that such a card and the options allow. ``rolls_left`` is needed
    with dice, unless the card is full."""
    body = copy.deepcopy(generic)
    fields = body["properties"]
    fields["options"] = options_schema(ruleset)
    fields["dice"].update(minItems=ruleset.dice, maxItems=ruleset.dice)
    fields["yahtzee_bonus"].update(bonus_schema(ruleset))
    order = fill_order(ruleset)
    card = scorecard_schema(ruleset)
    if order is not None:
        card["not"] = {"anyOf": list(filled_after_open(order))}
        card["description"] += (
            f" {ruleset.name} fills its boxes in order: the filled ones come first."
        )
    fields["scorecard"] = card
    full = {
        "type": "object",
        "required": [box.id for box in ruleset.boxes],
        "properties": {box.id: FILLED for box in ruleset.boxes},
    }
    told = [
        {"required": ["rolls_left"], "properties": {"rolls_left": {"type": "integer"}}},
        {"required": ["scorecard"], "properties": {"scorecard": full}},
    ]
    # Refused: dice, and neither rolls_left nor a full card; a bonus no game earns.
    refused = [
        {"required": ["dice"], "properties": {"dice": {"type": "array"}}, "not": {"anyOf": told}},
        *bonus_refused(ruleset),
    ]
    body["not"] = {"anyOf": refused}
    body["description"] = (
        f"A position of {ruleset.name}. With `dice`, `rolls_left` is needed too, unless every "
        "box is filled (the answer is then the final score). A `yahtzee_bonus` above 0 needs "
        "the box that earns it at its top points, and options that give one."
        if ruleset.bonus_box
        else f"A position of {ruleset.name}. With `dice`, `rolls_left` is needed too, unless "
        "every box is filled (the answer is then the final score); `yahtzee_bonus` is 0."
    )
    return body


def ten_thousand_advice_body(generic: Schema, ruleset: Ruleset) -> Schema:
    """Ten Thousand's advice body: its options, and what the seats' totals, the turn points
    and the throw may be (whole multiples of 50; a total below the target, which a schema
    cannot compare with an option, is the service's check)."""
    body = copy.deepcopy(generic)
    fields = body["properties"]
    fields["options"] = options_schema(ruleset)
    step = next(option.step for option in ruleset.options if option.id == "target")
    fields["totals"]["items"]["multipleOf"] = step
    fields["turn_points"]["multipleOf"] = step
    body["description"] = (
        f"A position of {ruleset.name}: one total (a seat alone: the answer counts expected "
        "turns) or two (the seat's own, then the other's: the answer is the chance of "
        "winning), each below the target (else the game is over: 409 `game_not_active`; "
        "with a final round, the other's total at the target makes this the seat's last "
        "turn); the turn's points so far; the throw to decide on (null before a throw of "
        "all six dice: the turn's first, or after hot dice). A throw that scores nothing "
        "leaves one option, `pass`: the turn is lost."
    )
    return body
