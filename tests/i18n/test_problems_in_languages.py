"""A refusal in each language: its title, detail and each field error's detail follow
Accept-Language; its type, code, status and field names are those of the English."""

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from .conftest import LANGUAGES

PROBLEM = "application/problem+json"


def _refused(client: Client, language: str | None, method: str, path: str, body: Any = None):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    if method == "get":
        response = client.get(path, **headers)
    else:
        response = client.post(path, body, content_type="application/json", **headers)
    assert response.status_code >= 400 and response["Content-Type"] == PROBLEM
    assert response["Content-Language"] == (language or "en")
    assert "Accept-Language" in response["Vary"]
    return response.json()


def _game(client: Client) -> dict[str, Any]:
    body = {"ruleset": "yatzy", "players": [{"name": "Ann"}]}
    response = client.post("/api/v1/games/", body, content_type="application/json")
    assert response.status_code == 201
    return response.json()


def _same_but_the_words(english: dict[str, Any], other: dict[str, Any]) -> None:
    assert other.keys() == english.keys()
    for key in ("type", "code", "status", "more_errors"):
        assert other.get(key) == english.get(key)
    assert [(e["field"], e["code"]) for e in other.get("errors", [])] == [
        (e["field"], e["code"]) for e in english.get("errors", [])
    ]
    assert other["title"] != english["title"]
    assert other["detail"] != english["detail"]
    for mine, theirs in zip(other.get("errors", []), english.get("errors", []), strict=True):
        assert mine["detail"] != theirs["detail"]


REFUSALS = {
    # A rule's refusal with a field (the engine's words, marked where they are written).
    "invalid_dice": ("post", "/api/v1/rulesets/yahtzee/score/", {"dice": [1, 2, 3]}),
    # A URL the API does not have (Django's 404, the HTTP layer's words).
    "not_found": ("get", "/api/v1/nothing/", None),
    # Seven unknown fields: five shown, "and 2 more".
    "unknown_field": (
        "post", "/api/v1/games/", {f"extra_{n}": n for n in range(7)} | {"ruleset": "yatzy"}
    ),
    # DRF's own field messages, from DRF's catalogues or the service's where they lack one.
    "invalid": ("post", "/api/v1/games/", {"ruleset": "yatzy", "players": "Ann"}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("refusal", REFUSALS)
def test_a_refusal_is_worded_in_the_language(client: Client, language: str, refusal: str):
    method, path, body = REFUSALS[refusal]
    english = _refused(client, None, method, path, body)
    other = _refused(client, language, method, path, body)
    assert english["code"] == refusal
    _same_but_the_words(english, other)
    with translation.override(language):
        assert other["title"] == translation.gettext(english["title"])


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_move_is_worded_in_the_language(client: Client, language: str) -> None:
    game = _game(client)
    token = game["players"][0]["token"]
    path = f"/api/v1/games/{game['id']}/score/"
    english = client.post(
        path, {"category": "chance"}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    ).json()
    other = client.post(
        path, {"category": "chance"}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_ACCEPT_LANGUAGE=language,
    ).json()
    assert english["code"] == other["code"] == "roll_first"
    _same_but_the_words(english, other)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title", "detail"),
    [
        ("sv", "Draget är inte tillåtet", "kasta tärningarna innan du fyller i en ruta"),
        ("no", "Trekket er ikke tillatt", "kast terningene før du fyller ut en rute"),
        ("da", "Trækket er ikke tilladt", "slå med terningerne, før du udfylder et felt"),
        ("de-DE", "Zug nicht erlaubt", "würfle, bevor du ein Feld einträgst"),
        ("zh-CN", "不允许此操作", "请先掷骰再填写格子"),
        ("fr", "Move not allowed", "roll the dice before filling a box"),
    ],
)
def test_what_a_player_reads(client: Client, language: str, title: str, detail: str) -> None:
    game = _game(client)
    refused = client.post(
        f"/api/v1/games/{game['id']}/score/", {"category": "chance"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game['players'][0]['token']}",
        HTTP_ACCEPT_LANGUAGE=language,
    ).json()
    assert (refused["title"], refused["detail"]) == (title, detail)


@pytest.mark.django_db
def test_a_field_of_the_message_is_filled_in_and_the_game_named_in_the_language(
    client: Client,
) -> None:
    body = {"ruleset": "ten-thousand", "players": [{"name": "Ann"}]}
    game = client.post("/api/v1/games/", body, content_type="application/json").json()
    refused = client.post(
        f"/api/v1/games/{game['id']}/roll/", {"hold": [0]}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game['players'][0]['token']}", HTTP_ACCEPT_LANGUAGE="sv",
    ).json()
    assert refused["code"] == "invalid"
    assert refused["detail"] == "i Tiotusen lägger man undan tärningar: skicka set_aside, inte hold"
    assert refused["errors"][0]["field"] == "hold"


@pytest.mark.django_db
def test_the_count_of_faults_left_out_is_worded_in_the_language(client: Client) -> None:
    method, path, body = REFUSALS["unknown_field"]
    assert _refused(client, "de", method, path, body)["detail"].endswith("; und 2 weitere")
    chinese = _refused(client, "zh-hans", method, path, body)["detail"]
    assert chinese.endswith("\uff1b另有 2 处")  # a full-width semicolon
    assert _refused(client, None, method, path, body)["detail"].endswith("; and 2 more")


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_document_that_is_no_record_is_refused_in_the_language(
    client: Client, language: str
) -> None:
    path, body = "/api/v1/records/verify/", {"format": "a shopping list"}
    english = _refused(client, None, "post", path, body)
    other = _refused(client, language, "post", path, body)
    assert english["code"] == "invalid"
    _same_but_the_words(english, other)
