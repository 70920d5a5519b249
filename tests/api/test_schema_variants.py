"""The schema states each ruleset's request bodies exactly: a body it calls valid is taken,
and one it calls invalid is refused, for the create body, the calculator and advice."""

from typing import Any

import pytest
from jsonschema import Draft7Validator

from scoring import RULESETS
from scoring.boxgames.strategy import prepare_table

RULESET_IDS = ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy", "ten-thousand"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strategy-tables")
    prepare_table("forced-yatzy", {}, folder)
    return folder


@pytest.fixture(scope="module")
def served(tables, django_db_setup, django_db_blocker) -> dict[str, Any]:
    """The schema as the service serves it with these tables: the same for every test here,
    so it is generated once."""
    from django.test import override_settings
    from rest_framework.test import APIClient

    with django_db_blocker.unblock(), override_settings(STRATEGY_DIR=tables):
        return APIClient().get("/api/v1/schema/?format=json").json()


@pytest.fixture
def document(settings, tables, served) -> dict[str, Any]:
    settings.STRATEGY_DIR = tables
    return served


def body_schema(document: dict[str, Any], path: str) -> dict[str, Any]:
    """The operation's body schema as JSON Schema: OpenAPI's ``nullable`` admits null."""
    content = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return {**_with_null(content["schema"]), "components": _with_null(document["components"])}


def _with_null(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_with_null(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: _with_null(value) for key, value in schema.items()}
    if converted.pop("nullable", False) and "type" in converted:
        converted["type"] = [converted["type"], "null"]
    return converted


def seats(count: int, computer: str | None = None) -> list[dict[str, Any]]:
    level = {"computer": computer} if computer else {}
    return [{"name": f"Seat {n}", **level} for n in range(count)]


FULL_FORCED_CARD = {box.id: 0 for box in RULESETS["forced-yatzy"].categories}
CREATE, TEN = "/api/v1/games/", "ten-thousand"

CASES = [
    (CREATE, {"ruleset": "yahtzee", "players": seats(8)}, 201),
    (CREATE, {"ruleset": "yahtzee", "players": seats(3), "open_seats": 5}, 201),
    (CREATE, {"ruleset": "yahtzee", "players": seats(3), "open_seats": 6}, 400),
    (CREATE, {"ruleset": "yahtzee", "players": seats(1, "classic")}, 400),
    (CREATE, {"ruleset": TEN, "players": seats(1, "classic")}, 201),
    (CREATE, {"ruleset": "yatzy", "players": seats(1), "options": {"joker": "free"}}, 400),
    (CREATE, {"ruleset": "yahtzee", "players": seats(1), "options": {"joker": "free"}}, 201),
    (CREATE, {"ruleset": "yahtzee", "players": [{"name": " \u3000 "}]}, 400),
    # A game of computers only is played at once: a short one only.
    (CREATE, {"ruleset": TEN, "players": seats(2, "greedy"), "options": {"target": 1000}}, 201),
    (CREATE, {"ruleset": TEN, "players": seats(2, "greedy"), "options": {"target": 10050}}, 400),
    (CREATE, {"ruleset": TEN, "players": seats(2), "options": {"target": 10050}}, 201),
    (
        CREATE,
        {"ruleset": TEN, "players": seats(1, "greedy"), "open_seats": 1,
         "options": {"bank_minimum": 400}},
        201,
    ),
    ("/api/v1/rulesets/ten-thousand/score/", {"dice": [1]}, 200),
    ("/api/v1/rulesets/ten-thousand/score/", {"dice": [5, 5], "scorecard": {"any": 3}}, 200),
    ("/api/v1/rulesets/maxi-yatzy/score/", {"dice": [6] * 6}, 200),
    ("/api/v1/rulesets/maxi-yatzy/score/", {"dice": [6] * 5}, 400),
    ("/api/v1/rulesets/maxi-yatzy/score/", {"dice": [6] * 6, "scorecard": {"yahtzee": 5}}, 400),
    ("/api/v1/rulesets/yahtzee/score/", {"dice": [6] * 5, "options": {"target": 50}}, 400),
    ("/api/v1/rulesets/forced-yatzy/advice/", {"scorecard": {"ones": 3, "twos": 4}}, 200),
    ("/api/v1/rulesets/forced-yatzy/advice/", {"scorecard": {"ones": 3, "threes": 9}}, 400),
    ("/api/v1/rulesets/forced-yatzy/advice/", {"dice": [1, 2, 3, 4, 5], "rolls_left": 0}, 200),
    ("/api/v1/rulesets/forced-yatzy/advice/", {"scorecard": {"ones": 4, "twos": 5}}, 400),
    ("/api/v1/rulesets/yatzy/score/", {"dice": [1] * 5, "scorecard": {"yatzy": 4232}}, 400),
    ("/api/v1/rulesets/yatzy/score/", {"dice": [1] * 5, "scorecard": {"small_straight": 15}}, 200),
    ("/api/v1/rulesets/forced-yatzy/advice/", {"yahtzee_bonus": 100}, 400),
    ("/api/v1/rulesets/forced-yatzy/advice/", {"dice": [1, 2, 3, 4, 5]}, 400),
    (
        "/api/v1/rulesets/forced-yatzy/advice/",
        {"dice": [1, 2, 3, 4, 5], "scorecard": FULL_FORCED_CARD},
        200,
    ),
]


@pytest.mark.parametrize(("path", "body", "status"), CASES)
def test_the_schema_and_the_service_agree_on_a_body(api, document, path, body, status):
    valid = Draft7Validator(body_schema(document, path)).is_valid(body)
    response = api.client.post(path, body, format="json")
    assert response.status_code == status, response.json()
    assert valid == (status != 400)


def test_the_create_body_is_one_variant_per_ruleset(document):
    schemas = document["components"]["schemas"]
    create = schemas["GameCreateInRequest"]
    assert create["discriminator"]["propertyName"] == "ruleset"
    mapping = create["discriminator"]["mapping"]
    assert list(mapping) == RULESET_IDS
    assert create["oneOf"] == [{"$ref": ref} for ref in mapping.values()]
    variants = {ruleset: schemas[ref.rsplit("/", 1)[1]] for ruleset, ref in mapping.items()}
    options = {r: set(v["properties"]["options"]["properties"]) for r, v in variants.items()}
    assert options == {
        "yahtzee": {"yahtzee_bonus", "joker"},
        "yatzy": set(),
        "forced-yatzy": set(),
        "maxi-yatzy": set(),
        "ten-thousand": {"target", "bank_minimum", "final_round"},
    }
    levels = {
        # A seat is a person's or computer's (the first branch) or a bot's (the second).
        r: v["properties"]["players"]["items"]["oneOf"][0]["properties"]["computer"]["enum"]
        for r, v in variants.items()
    }
    assert levels["yahtzee"] == ["random", "greedy", "optimal", None]
    assert levels["ten-thousand"] == ["random", "greedy", "classic", "optimal", None]


def test_the_calculator_and_advice_have_a_path_per_ruleset(document):
    paths = document["paths"]
    assert "/api/v1/rulesets/{id}/score/" not in paths
    assert "/api/v1/rulesets/{id}/advice/" not in paths
    scored = [r for r in RULESET_IDS if f"/api/v1/rulesets/{r}/score/" in paths]
    advised = [r for r in RULESET_IDS if f"/api/v1/rulesets/{r}/advice/" in paths]
    assert scored == RULESET_IDS
    assert advised == ["yahtzee", "yatzy", "forced-yatzy", "ten-thousand"]
    ten = paths["/api/v1/rulesets/ten-thousand/advice/"]["post"]
    answer = ten["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/TenThousandAdviceOut"}
    dice = document["components"]["schemas"]["MaxiYatzyScoreInRequest"]["properties"]["dice"]
    assert (dice["minItems"], dice["maxItems"]) == (6, 6)


def test_the_created_game_links_to_its_first_seat_s_moves(document):
    links = document["paths"]["/api/v1/games/"]["post"]["responses"]["201"]["links"]
    start = links["StartGame"]
    assert start["operationId"] == "games_start_create"
    assert start["parameters"] == {
        "path.id": "$response.body#/id",
        "header.Authorization": "Bearer {$response.body#/players/0/token}",
    }
    assert links["GetGame"]["parameters"] == {"path.id": "$response.body#/id"}
