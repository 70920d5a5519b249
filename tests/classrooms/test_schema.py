"""The OpenAPI schema documents the X-API-Key scheme and every classroom path, with examples."""

import pytest

PATHS = {
    ("/api/v1/classrooms/", "post"): {"201", "400", "429"},
    ("/api/v1/classrooms/join/", "post"): {"201", "404", "409", "429"},
    ("/api/v1/classrooms/{id}/", "get"): {"200", "401", "403", "404"},
    ("/api/v1/classrooms/{id}/", "patch"): {"200", "400", "401", "403", "404"},
    ("/api/v1/classrooms/{id}/games/", "get"): {"200", "401", "403", "404"},
    ("/api/v1/classrooms/{id}/leaderboard/", "get"): {"200", "400", "401", "403", "404"},
    ("/api/v1/classrooms/{id}/students/{student_id}/revoke/", "post"): {"200", "401", "403"},
    ("/api/v1/classrooms/{id}/students/{student_id}/rotate/", "post"): {"200", "401", "403"},
}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        return APIClient().get("/api/v1/schema/?format=json").json()


def test_the_api_key_scheme_is_documented(schema):
    scheme = schema["components"]["securitySchemes"]["apiKey"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "X-API-Key")


@pytest.mark.parametrize(("path", "method"), list(PATHS))
def test_every_classroom_path_is_documented_with_examples(schema, path, method):
    operation = schema["paths"][path][method]
    assert PATHS[path, method] <= set(operation["responses"])
    success = next(code for code in operation["responses"] if code.startswith("2"))
    assert operation["responses"][success]["content"]["application/json"]["examples"]
    if path.startswith("/api/v1/classrooms/{id}"):
        assert operation["security"] == [{"apiKey": []}]


def test_creating_a_game_documents_the_optional_key(schema):
    operation = schema["paths"]["/api/v1/games/"]["post"]
    assert {"apiKey": []} in operation["security"] and {} in operation["security"]
    game = schema["components"]["schemas"]["GameOut"]["properties"]
    assert {"classroom", "student"} <= set(game)
