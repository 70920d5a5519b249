"""drf-spectacular postprocessing hooks: one operation and body per ruleset.

The generator sees one create, score and advice operation with generic bodies; clients
need each ruleset's own (its options, its dice, its scorecard or selection). Where the
shapes differ by family of rules, :data:`FAMILY_SHAPES` holds each family's, by the
family's id: a new family adds its entry there.
"""

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from games.api.schema import variants
from scoring import RULESETS, Ruleset, family_of
from scoring.boxgames.family import BOX_GAMES
from scoring.tenthousand.family import TEN_THOUSAND

SCHEMAS = "#/components/schemas/"
CREATE_PATH = "/api/v1/games/"
# The calculator's and advice's examples in games.api.rulesets.views are positions of this ruleset.
EXAMPLES_RULESET = "yahtzee"


def split_by_ruleset(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The request bodies that depend on the ruleset, exact for each ruleset.

    - The create body is ``oneOf`` its rulesets' variants, told apart by ``ruleset``.
    - The calculator and advice take the ruleset in their path: in the schema each is one
      operation per ruleset, on that ruleset's concrete path (the URLs are the same), with
      that ruleset's body. Advice is listed for the rulesets it is given for (those whose
      strategy is solved); for another its path answers 400.
    """
    schemas = result["components"]["schemas"]
    create = result["paths"][CREATE_PATH]["post"]
    generic = _body_name(create)
    seat = schemas[generic]["properties"]["players"]["items"]["$ref"].removeprefix(SCHEMAS)
    mapping = {}
    for ruleset in RULESETS.values():
        name = variants.prefix(ruleset) + generic
        schemas[name] = variants.create_body(schemas[generic], schemas[seat], ruleset)
        mapping[ruleset.id] = SCHEMAS + name
    schemas[generic] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "ruleset", "mapping": mapping},
        "description": "A new game: the body of its ruleset (`ruleset` tells which).",
    }
    del schemas[seat]
    advised = [
        ruleset for ruleset in RULESETS.values()
        if family_of(ruleset).solved(ruleset)
    ]
    _per_ruleset(result, "score", RULESETS.values(), variants.score_body)
    _per_ruleset(result, "advice", advised, _advice_body)
    result["paths"] = dict(sorted(result["paths"].items()))
    return result


def tell_answers_apart(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The analysis answers ``oneOf`` a box game's and Ten Thousand's: a box game's is
    closed (it has exactly its keys), so that one with no decisions yet, which Ten
    Thousand's ``objective`` alone tells apart, matches one branch only."""
    result["components"]["schemas"]["AnalysisOut"]["additionalProperties"] = False
    return result


def _advice_body(generic: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    return _shapes(ruleset).advice_body(generic, ruleset)


def _body_name(operation: dict[str, Any]) -> str:
    """The name of the component an operation's JSON body refers to."""
    reference = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return reference.removeprefix(SCHEMAS)


def _per_ruleset(
    result: dict[str, Any],
    action: str,
    rulesets: Iterable[Ruleset],
    body: Callable[[dict[str, Any], Any], dict[str, Any]],
) -> None:
    """Replaces ``/api/v1/rulesets/{id}/<action>/`` by one operation per ruleset."""
    schemas = result["components"]["schemas"]
    operation = result["paths"].pop(f"/api/v1/rulesets/{{id}}/{action}/")["post"]
    generic = _body_name(operation)
    shared = [generic]
    for ruleset in rulesets:
        request = _own_shape(schemas, generic, ruleset, shared)
        prefix = variants.prefix(ruleset)
        name = request if request.startswith(prefix) else prefix + request
        if request != name and request not in shared:
            shared.append(request)  # each ruleset gets its own copy: drop the shared one
        schemas[name] = body(schemas[request], ruleset)
        own = copy.deepcopy(operation)
        answer = own["responses"]["200"]["content"]["application/json"]
        answer["schema"] = {
            "$ref": SCHEMAS + _own_shape(schemas, _reference(answer["schema"]), ruleset, shared)
        }
        own["operationId"] = f"rulesets_{ruleset.id.replace('-', '_')}_{action}_create"
        own["summary"] = f"{operation['summary']}: {ruleset.name}"
        own["parameters"] = [p for p in own["parameters"] if p["in"] != "path"]
        if not own["parameters"]:
            del own["parameters"]
        for content in own["requestBody"]["content"].values():
            content["schema"] = {"$ref": SCHEMAS + name}
        if schemas[name].get("required"):
            own["requestBody"]["required"] = True  # a body without them is refused
        _keep_examples(own, ruleset)
        if not _shapes(ruleset).position_ends:
            own["responses"].pop("409", None)  # only some families' positions can be over
        result["paths"][f"/api/v1/rulesets/{ruleset.id}/{action}/"] = {"post": own}
    for name in shared:
        del schemas[name]


def _reference(schema: dict[str, Any]) -> str:
    return schema["$ref"].removeprefix(SCHEMAS)


def _own_shape(
    schemas: dict[str, Any], name: str, ruleset: Ruleset, shared: list[str]
) -> str:
    """The component of ``name`` that is ``ruleset``'s: ``name`` itself, or, where it is a
    oneOf of the box games' shape and Ten Thousand's, the member that is the ruleset's
    (the oneOf is then noted in ``shared``, to be dropped once every operation has its own)."""
    members = [_reference(member) for member in schemas[name].get("oneOf", [])]
    if not members:
        return name
    if name not in shared:
        shared.append(name)
    return next(member for member in members if _shapes(ruleset).owns(member))


def _keep_examples(operation: dict[str, Any], ruleset: Ruleset) -> None:
    """Keep the examples that are the ruleset's: Ten Thousand's are named after it, the
    others are positions of :data:`EXAMPLES_RULESET`."""
    contents = list(operation["requestBody"]["content"].values())
    for response in operation["responses"].values():
        contents += response.get("content", {}).values()
    for content in contents:
        examples = content.pop("examples", {})
        own = {
            key: example for key, example in examples.items()
            if _example_of(example, ruleset)
        }
        if own:
            content["examples"] = own


def _example_of(example: dict[str, Any], ruleset: Ruleset) -> bool:
    return _shapes(ruleset).example_of(example.get("summary", ""), ruleset)


# -- each family's shapes -----------------------------------------------------------------

# The advice's request and answer are oneOf the box games' and Ten Thousand's: each
# ruleset's operation takes the one that is its own (told apart by these names).
TEN_THOUSAND_SHAPES = ("TenThousandAdviceInRequest", "TenThousandAdviceOut")


@dataclass(frozen=True)
class FamilyShapes:
    """How a family's operations differ in the schema: its advice body, which members of
    a oneOf of the families' shapes are its own, whether a position it is advised on can
    be over (409), and which of an operation's examples are its own (by their summary)."""

    advice_body: Callable[[dict[str, Any], Any], dict[str, Any]]
    owns: Callable[[str], bool]
    position_ends: bool
    example_of: Callable[[str, Ruleset], bool]


FAMILY_SHAPES = {
    BOX_GAMES.id: FamilyShapes(
        advice_body=variants.advice_body,
        owns=lambda member: member not in TEN_THOUSAND_SHAPES,
        position_ends=False,
        example_of=lambda summary, ruleset: (
            not summary.startswith(TEN_THOUSAND.name) and ruleset.id == EXAMPLES_RULESET
        ),
    ),
    TEN_THOUSAND.id: FamilyShapes(
        advice_body=variants.ten_thousand_advice_body,
        owns=lambda member: member in TEN_THOUSAND_SHAPES,
        position_ends=True,
        example_of=lambda summary, ruleset: summary.startswith(TEN_THOUSAND.name),
    ),
}


def _shapes(ruleset: Ruleset) -> FamilyShapes:
    return FAMILY_SHAPES[family_of(ruleset).id]
