"""Which language an answer is in: the best of Accept-Language the service speaks, else
English, said in Content-Language, with Vary: Accept-Language on every answer."""

import pytest
from django.test import Client

SPOKEN = ("en", "sv", "da", "nb", "de", "zh-hans")


@pytest.mark.parametrize(
    ("asked", "answered"),
    [
        (None, "en"),
        ("en", "en"),
        ("en-GB", "en"),
        ("sv", "sv"),
        ("sv-SE", "sv"),
        ("da-DK", "da"),
        ("nb", "nb"),
        ("nb-NO", "nb"),
        ("no", "nb"),
        ("no-NO", "nb"),
        ("NO;q=0.9, en;q=0.5", "nb"),
        ("de-DE", "de"),
        ("de-AT,de;q=0.9", "de"),
        ("zh", "zh-hans"),
        ("zh-CN", "zh-hans"),
        ("zh-Hans", "zh-hans"),
        ("zh-Hans-CN", "zh-hans"),
        ("zh-TW", "zh-hans"),
        ("fr", "en"),
        ("fr-FR, de;q=0.8", "de"),
        ("en;q=0.4, sv;q=0.8", "sv"),
        ("xx-invalid-!!", "en"),
        ("*", "en"),
    ],
)
def test_the_best_spoken_language_of_the_request_answers(
    client: Client, asked: str | None, answered: str
) -> None:
    headers = {} if asked is None else {"HTTP_ACCEPT_LANGUAGE": asked}
    response = client.get("/api/v1/rulesets/", **headers)
    assert response.status_code == 200
    assert response["Content-Language"] == answered
    assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize("language", SPOKEN)
def test_refusals_say_their_language_too(client: Client, language: str) -> None:
    for response in (
        client.get("/api/v1/nowhere/", HTTP_ACCEPT_LANGUAGE=language),  # Django's 404
        client.get("/api/v1/games/not-a-game/", HTTP_ACCEPT_LANGUAGE=language),  # a view's
        client.put("/api/v1/rulesets/", HTTP_ACCEPT_LANGUAGE=language),  # DRF's 405
    ):
        assert response.status_code >= 400
        assert response["Content-Type"] == "application/problem+json"
        assert response["Content-Language"] == language
        assert "Accept-Language" in response["Vary"]


def test_the_api_answers_by_accept_language_alone(client: Client) -> None:
    """A language a page remembered in Django's cookie does not change the API's answers."""
    client.cookies["django_language"] = "de"
    assert client.get("/api/v1/rulesets/")["Content-Language"] == "en"
    assert client.get("/api/v1/rulesets/", HTTP_ACCEPT_LANGUAGE="sv")["Content-Language"] == "sv"
