"""Whatever goes wrong, the answer is a problem document, never HTML and never a 500."""

import pytest

from .conftest import PROBLEM, assert_problem


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nothing/",
        "/api/v1/games/not-a-uuid/",
        "/api/v1/games/1/roll/",
        "/api/v1/games",
        "/api/v2/",
        "/api/v1/rulesets/chess/",
        "/nowhere/",
    ],
)
def test_unknown_paths_are_not_found(api, path):
    assert_problem(api.client.get(path), 404, "not_found")


def test_a_wrong_method_is_refused(api):
    assert_problem(api.client.delete("/api/v1/games/"), 405, "method_not_allowed")
    game = api.create()
    assert_problem(api.client.get(f"/api/v1/games/{game['id']}/roll/"), 405, "method_not_allowed")


def test_a_body_that_is_not_json_is_refused(api):
    response = api.client.post(
        "/api/v1/games/", "ruleset=yahtzee", content_type="application/x-www-form-urlencoded"
    )
    assert_problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("raw", ["{bad", '{"ruleset": "yahtzee",}', "\xff", "[1, 2"])
def test_malformed_json_is_a_parse_error(api, raw):
    response = api.client.post("/api/v1/games/", raw, content_type="application/json")
    assert_problem(response, 400, "parse_error")


@pytest.mark.parametrize("raw", ["[]", "3", '"text"', "null"])
def test_a_move_body_must_be_an_object(api, raw):
    game = api.create()
    response = api.client.post(
        f"/api/v1/games/{game['id']}/roll/",
        raw,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game['players'][0]['token']}",
    )
    assert response.status_code == 400 and response["Content-Type"] == PROBLEM


def test_a_create_body_must_be_an_object(api):
    assert_problem(
        api.client.post("/api/v1/games/", "[1]", content_type="application/json"), 400, "invalid"
    )


def test_health_reports_the_database(api):
    assert api.client.get("/api/v1/health/").json() == {"status": "ok", "database": "ok"}


def test_health_is_503_when_the_database_is_down(api, monkeypatch):
    class Down:
        def cursor(self):
            raise ConnectionError("down")

    monkeypatch.setattr("games.api.operations.health.connection", Down())
    body = assert_problem(api.client.get("/api/v1/health/"), 503, "database_unavailable")
    assert body["database"] == "unavailable"


def test_the_root_leads_to_the_docs(api):
    response = api.client.get("/")
    assert response.status_code == 302 and response["Location"] == "/api/v1/docs/"


def test_a_post_to_an_unknown_path_is_not_found_even_with_csrf_checks(db):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/api/v1/games/%C2%84/roll/", {"hold": [0]}, content_type="application/json"
    )
    assert_problem(response, 404, "not_found")


def test_a_body_too_large_is_refused(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}], "options": {"x": "y" * 2000}}
    assert_problem(api.client.post("/api/v1/games/", body, format="json"), 413, "request_too_large")


def test_too_many_query_parameters_are_refused(api):
    query = "&".join(f"x{i}=1" for i in range(1100))
    assert_problem(api.client.get(f"/api/v1/games/?{query}"), 400, "invalid")


def test_deeply_nested_json_is_a_parse_error(api):
    deep = "[" * 30_000 + "]" * 30_000  # beyond any parser's depth, within the body's length
    response = api.client.post(
        "/api/v1/games/", '{"players": ' + deep + "}", content_type="application/json"
    )
    assert_problem(response, 400, "parse_error")
