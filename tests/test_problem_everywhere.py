"""Every error the service sends, on every kind of path, is a problem document whose content
type says so: the API, the docs and the schema, static files, unknown paths, the admin
(except the HTML pages Django renders there for a person)."""

import json

import pytest
from django.test import Client

from scoring.boxgames.strategy import prepare_table

PROBLEM = "application/problem+json"
GAME = "3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10"
PATHS = [
    "/",
    "/api/v1/docs/",
    "/api/v1/redoc/",
    "/api/v1/schema/",
    "/api/v1/schema/?format=json",
    "/api/v1/schema/?format=nope",
    "/api/v1/docs/?format=nope",
    "/api/v1/games/",
    "/api/v1/games/?format=nope",
    f"/api/v1/games/{GAME}/",
    f"/api/v1/games/{GAME}/roll/",
    f"/api/v1/games/{GAME}/events/",
    f"/api/v1/games/{GAME}/hint/",
    f"/api/v1/games/{GAME}/stream/",
    "/api/v1/rulesets/",
    "/api/v1/rulesets/yahtzee/",
    "/api/v1/rulesets/yahtzee/score/",
    "/api/v1/rulesets/forced-yatzy/advice/",
    "/api/v1/health/",
    "/api/v1/leaderboard/",
    "/api/v1/nothing/",
    "/api/v1/games",
    "/nothing/",
    "/admin/",
    "/admin/login/",
    "/admin/logout/",
    "/admin/nothing/",
    "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
    "/static/nothing.js",
]
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"]
ACCEPTS = [None, "text/html", "application/xml", "application/json"]


def problem_of(response) -> dict | None:
    """The problem document the response is, or None."""
    if not response["Content-Type"].startswith(PROBLEM):
        return None
    try:
        body = json.loads(b"".join(response) if response.streaming else response.content)
    except ValueError:
        return None
    ok = body.get("status") == response.status_code and body.get("code") and body.get("title")
    return body if ok else None


@pytest.fixture
def client(db: None, settings, tmp_path) -> Client:
    settings.STRATEGY_DIR = tmp_path
    prepare_table("forced-yatzy", {}, tmp_path)
    return Client(raise_request_exception=False)


def test_every_refusal_on_every_path_is_a_problem_document(client):
    wrong = []
    for path in PATHS:
        for method in METHODS:
            for accept in ACCEPTS:
                headers = {"HTTP_ACCEPT": accept} if accept else {}
                response = client.generic(method, path, **headers)
                failed = response.status_code >= 500
                if failed or (response.status_code >= 400 and problem_of(response) is None):
                    wrong.append((method, path, accept, response.status_code,
                                  response.get("Content-Type"), response.content[:60]))
    assert wrong == []


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/", "/api/v1/schema/"])
@pytest.mark.parametrize("accept", [None, "*/*"])
def test_a_refused_method_on_the_docs_and_the_schema_is_a_json_problem(client, path, accept):
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    response = client.post(path, **headers)
    assert response.status_code == 405 and response["Content-Type"] == PROBLEM
    assert problem_of(response)["code"] == "method_not_allowed"
    assert json.loads(response.content)["detail"]


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/", "/api/v1/schema/"])
def test_options_on_the_docs_lists_the_methods_and_fails_nowhere(client, path):
    response = client.options(path)
    assert response.status_code == 200 and response.content == b""
    assert "GET" in response["Allow"]


def test_a_page_that_cannot_be_json_refuses_a_json_only_client_with_a_problem(client):
    response = client.get("/api/v1/docs/", HTTP_ACCEPT="application/json")
    assert response.status_code == 406 and problem_of(response)["code"] == "not_acceptable"
    response = client.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406 and problem_of(response)["code"] == "not_acceptable"


def test_static_files_refuse_other_methods_with_a_problem(client):
    asset = "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"
    assert client.get(asset).status_code == 200
    response = client.post(asset)
    assert response.status_code == 405 and problem_of(response)["code"] == "method_not_allowed"
    assert response["Allow"] == "GET, HEAD"


def test_a_plain_django_view_refuses_a_method_with_a_problem_and_keeps_allow(client):
    response = client.delete("/admin/login/")
    assert response.status_code == 405 and problem_of(response)["code"] == "method_not_allowed"
    assert "GET" in response["Allow"] and "POST" in response["Allow"]


JSON, FORM = "application/json", "application/x-www-form-urlencoded"


@pytest.mark.parametrize(
    ("path", "content_type"),
    [("/api/v1/games/", JSON), ("/api/v1/schema/", JSON), ("/api/v1/docs/", JSON),
     ("/admin/login/", FORM), ("/nothing/", JSON), (f"/api/v1/games/{GAME}/stream/", JSON)],
)
def test_oversized_and_malformed_bodies_are_problems_everywhere(
    client, settings, path, content_type
):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    big = client.post(path, "x=" + "x" * 5000, content_type=content_type)
    assert big.status_code in (405, 413, 404) and problem_of(big) is not None
    malformed = client.post(path, "{nope", content_type=content_type)
    assert 400 <= malformed.status_code < 500 or malformed.status_code == 200
    if malformed.status_code != 200:  # the admin's login form shows itself again
        assert problem_of(malformed) is not None


def test_an_oversized_body_on_the_api_is_413(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/api/v1/games/", "x" * 5000, content_type="application/json")
    assert response.status_code == 413 and problem_of(response)["code"] == "request_too_large"


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/docs/", "/admin/", "/nothing/"])
def test_an_unknown_host_is_a_problem(client, path):
    response = client.get(path, HTTP_HOST="evil.example")
    assert response.status_code == 400 and problem_of(response)["code"] == "invalid"


def test_an_unknown_host_is_logged_in_one_line(client, caplog):
    client.get("/api/v1/games/", HTTP_HOST="evil.example")
    (record,) = [r for r in caplog.records if r.name.startswith("django")]
    assert "evil.example" in record.getMessage()
    assert record.exc_info is None and record.levelname == "WARNING"


def test_the_admin_csrf_page_is_html_for_a_person_and_says_so(db):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert response.content.lstrip().lower().startswith(b"<!doctype html")


def test_the_root_redirect_sends_any_method_on(db):
    response = Client(enforce_csrf_checks=True).post("/")
    assert response.status_code == 302 and response["Location"] == "/api/v1/docs/"
