"""The scorecards of the box games' request bodies in the schema: which points each box may
hold, which bonus a card and the options allow, and in which order a fixed-order game fills
its boxes; and every value an option takes. The engine's own functions
(``possible_points``, ``check_bonus``, ``legal``) decide each, so the schema and the service
refuse the same cards."""

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from scoring import Option, RuleError
from scoring.boxgames.boxgame import BoxGame

Schema = dict[str, Any]
FILLED = {"type": "integer"}  # a box that holds points: not null
OPEN = {"type": "integer", "nullable": True, "enum": [None]}  # a box that is open: null or absent


def option_values(option: Option) -> list[Any]:
    """Every value an option takes (a whole number's, within its bounds)."""
    if option.values:
        return list(option.values)
    if option.kind is not int or option.minimum is None or option.maximum is None:
        raise ValueError(f"option {option.id!r} takes values without end: none can be listed")
    return [v for v in range(option.minimum, option.maximum + 1) if _takes(option, v)]


def _takes(option: Option, value: Any) -> bool:
    try:
        option.check(value)
    except RuleError:
        return False
    return True


def scorecard_schema(ruleset: BoxGame) -> Schema:
    """The ruleset's boxes, each to the points some game puts in it (the engine's
    ``possible_points``) or null: the upper total is then one that dice make too."""
    boxes = {
        box.id: {"type": "integer", "nullable": True, "enum": [*ruleset.box_points(box.id), None]}
        for box in ruleset.boxes
    }
    return {
        "type": "object",
        "properties": boxes,
        "additionalProperties": False,
        "description": "Box id to points, or null for an open box; missing boxes are open. "
        "A box holds only points some game puts in it (a scratch's 0 included).",
    }


def bonus_schema(ruleset: BoxGame) -> Schema:
    """What a seat's bonus beside its boxes may be under any options (the engine's
    ``check_bonus``; :func:`bonus_refused` states what the card and options add)."""
    most = _most_bonus(ruleset)
    if not most:
        return {"enum": [0], "maximum": 0}
    return {"maximum": most, "multipleOf": ruleset.bonus_step}


def bonus_refused(ruleset: BoxGame) -> Iterator[Schema]:
    """A bonus above what an option's value allows, or without the bonus box at its top
    points (no card, or another value in that box)."""
    ceilings = _bonus_ceilings(ruleset)
    most = _most_bonus(ruleset)
    if not most or ruleset.bonus_box is None:
        return
    for (option_id, value), ceiling in ceilings.items():
        if ceiling < most:
            chosen = {"required": [option_id], "properties": {option_id: {"enum": [value]}}}
            yield {
                "required": ["yahtzee_bonus", "options"],
                "properties": {
                    "yahtzee_bonus": {"minimum": ceiling + ruleset.bonus_step},
                    "options": chosen,
                },
            }
    earned = {"yahtzee_bonus": {"minimum": ruleset.bonus_step}}
    top = ruleset.box_points(ruleset.bonus_box)[-1]
    at_top = {"required": [ruleset.bonus_box], "properties": {ruleset.bonus_box: {"enum": [top]}}}
    yield {"required": ["yahtzee_bonus"], "properties": earned, "not": {"required": ["scorecard"]}}
    yield {
        "required": ["yahtzee_bonus", "scorecard"],
        "properties": {**earned, "scorecard": {"not": at_top}},
    }


def _most_bonus(ruleset: BoxGame) -> int:
    defaults = ruleset.validate_options({})
    return max([ruleset.bonus_ceiling(defaults), *_bonus_ceilings(ruleset).values()])


def _bonus_ceilings(ruleset: BoxGame) -> dict[tuple[str, Any], int]:
    """The most bonus under each value of each option (the others at their defaults)."""
    defaults = ruleset.validate_options({})
    ceilings = {}
    for option in ruleset.options:
        for value in option_values(option):
            ceilings[option.id, value] = ruleset.bonus_ceiling({**defaults, option.id: value})
    return ceilings


def fill_order(ruleset: BoxGame) -> list[str] | None:
    """The order the ruleset fills its boxes in, if it offers one box at a time (Forced
    Yatzy); None if any open box may be filled."""
    card: dict[str, int | None] = {box.id: None for box in ruleset.boxes}
    options = ruleset.validate_options({})
    dice = [1] * ruleset.dice
    order: list[str] = []
    while legal := ruleset.legal(card, dice, options):
        if len(legal) > 1:
            return None
        (box_id,) = legal
        order.append(box_id)
        card[box_id] = 0
    return order


def filled_after_open(order: list[str]) -> Iterator[Schema]:
    """A card of a fixed-order game that fills a box after one still open."""
    for earlier, later in pairwise(order):
        yield {"required": [later], "properties": {earlier: OPEN, later: FILLED}}
