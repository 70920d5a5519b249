"""The OpenAPI schema and its documentation pages."""

import re

from django.core.management import call_command


def test_the_schema_generates_without_warnings(tmp_path):
    # --fail-on-warn turns every warning and error of the generator into a failure.
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    assert "/api/v1/games/{id}/roll/" in (tmp_path / "schema.yml").read_text()


def test_every_operation_documents_its_errors_as_problems(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            errors = {
                code: r for code, r in operation["responses"].items() if code.startswith(("4", "5"))
            }
            assert errors, f"{method} {path} documents no error"
            for code, response in errors.items():
                assert "application/problem+json" in response["content"], f"{method} {path} {code}"


def test_the_docs_are_served_by_the_service_itself(client):
    swagger = client.get("/api/v1/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/" in swagger
    redoc = client.get("/api/v1/redoc/").content.decode()
    assert "/api/v1/redoc/redoc.standalone.js" in redoc
    for html in (swagger, redoc):
        assert "cdn" not in html.lower()
        assert "https://" not in html
    asset = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert asset.status_code == 200


def test_the_redoc_bundle_draws_its_logo_from_the_service(client):
    bundle = client.get("/api/v1/redoc/redoc.standalone.js")
    assert bundle.status_code == 200
    assert bundle["Content-Type"].startswith("text/javascript")
    code = b"".join(bundle.streaming_content) if bundle.streaming else bundle.content
    assert b"cdn.redoc.ly" not in code
    assert b'src:"/static/docs/redoc-logo.svg"' in code
    assert client.get("/static/docs/redoc-logo.svg").status_code == 200


def schema(client) -> dict:
    return client.get("/api/v1/schema/?format=json").json()


def enum_of(field: dict) -> str:
    """The enum component a property refers to (directly, or through allOf with a text)."""
    return (field.get("allOf") or [field])[0]["$ref"].rsplit("/", 1)[1]


def test_closed_sets_of_ids_are_enums(client):
    components = schema(client)["components"]["schemas"]
    rulesets = ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy", "ten-thousand"]
    assert components["RulesetIdEnum"]["enum"] == rulesets
    game = components["GameOut"]["properties"]
    assert enum_of(game["ruleset"]) == "RulesetIdEnum"
    event_types = components["EventTypeEnum"]["enum"]
    assert {"created", "rolled", "scored", "busted", "banked", "finished"} <= set(event_types)
    event = components["EventOut"]["properties"]["type"]
    assert enum_of(event) == "EventTypeEnum"


def test_response_headers_are_declared(client):
    paths = schema(client)["paths"]
    created = paths["/api/v1/games/"]["post"]["responses"]
    assert set(created["201"]["headers"]) == {"ETag", "Location"}
    assert "Retry-After" in created["429"]["headers"]
    rolled = paths["/api/v1/games/{id}/roll/"]["post"]["responses"]["200"]["headers"]
    assert set(rolled) == {"ETag", "Idempotent-Replayed"}
    read = paths["/api/v1/games/{id}/"]["get"]["responses"]
    assert "ETag" in read["200"]["headers"] and "ETag" in read["304"]["headers"]


def test_request_fields_with_a_default_are_optional_and_say_their_default(client):
    components = schema(client)["components"]["schemas"]
    create = components["YahtzeeGameCreateInRequest"]
    assert "default" not in create["properties"]["open_seats"]
    assert "Default: `0`." in create["properties"]["open_seats"]["description"]
    assert "open_seats" not in create["required"]
    joker = create["properties"]["options"]["properties"]["joker"]
    assert "default" not in joker and "Default: `\"forced\"`." in joker["description"]
    assert "default" not in components["YahtzeeAdviceInRequest"]["properties"]["yahtzee_bonus"]


def test_every_operation_declares_its_security_and_the_description_names_every_ruleset(client):
    document = schema(client)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "security" in operation, f"{method} {path}"
    # Anyone may create a game; a classroom key is optional (it ties the game to a student).
    assert {} in document["paths"]["/api/v1/games/"]["post"]["security"]
    assert document["paths"]["/api/v1/games/"]["get"]["security"] == []
    for name in ("Yahtzee", "Yatzy", "Forced Yatzy", "Maxi Yatzy", "Ten Thousand"):
        assert name in document["info"]["description"]


def test_trimmed_texts_need_a_character_the_service_keeps(client):
    document = schema(client)
    person = document["components"]["schemas"]["JoinInRequest"]["oneOf"][0]  # else a bot's seat
    name = person["properties"]["name"]
    query = document["paths"]["/api/v1/games/"]["get"]["parameters"]
    player = next(parameter for parameter in query if parameter["name"] == "player")
    for pattern in (name["pattern"], player["schema"]["pattern"]):
        kept = re.compile(pattern)
        assert kept.search("Ann") and kept.search(" Ann\u00e9 ")
        assert not kept.search(" \t\u3000\x1c") and not kept.search("A\x00nn")


def test_pages_on_other_origins_may_read_the_replay_header(settings):
    assert "Idempotent-Replayed" in settings.CORS_EXPOSE_HEADERS
