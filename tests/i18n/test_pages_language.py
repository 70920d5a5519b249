"""The pages /play/ and /teach/ in the language chosen in their menu (Django's language
cookie), else the browser's (Accept-Language): <html lang>, their own words, the menu with
every language, and the catalogue of their scripts' words in that language."""

import json
import re

import pytest
from django.conf import settings
from django.test import Client


@pytest.mark.parametrize(
    ("header", "cookie", "language", "title"),
    [
        (None, None, "en", "Dice games"),
        ("sv-SE,sv;q=0.9", None, "sv", "Tärningsspel"),
        ("zh-CN", None, "zh-hans", "骰子游戏"),
        ("no", None, "nb", "Terningspill"),
        # A choice made in the menu outweighs the browser's language.
        ("sv-SE", "de", "de", "Würfelspiele"),
    ],
)
def test_the_page_is_in_the_chosen_language(
    client: Client, header: str | None, cookie: str | None, language: str, title: str
) -> None:
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    headers = {"Accept-Language": header} if header else {}
    response = client.get("/play/", headers=headers)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<title>{title}</title>" in page
    assert f'<script src="/pages/words/{language}.js"></script>' in page
    assert response["Content-Language"] == language
    # The menu offers every language, by its own name, the page's chosen.
    options = re.findall(r'<option value="([\w-]+)" lang="[\w-]+"( selected)?>', page)
    assert [code for code, _ in options] == [code for code, _ in settings.LANGUAGES]
    assert [code for code, chosen in options if chosen] == [language]


def test_the_teachers_page_follows_the_same_choice(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    page = client.get("/teach/").content.decode()
    assert '<html lang="da">' in page
    assert "Terningspil for lærere" in page


def test_the_scripts_words_come_in_each_language(client: Client) -> None:
    response = client.get("/pages/words/sv.js", headers={"Accept-Language": "de"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Content-Language"] == "sv"
    # The catalogue is JSON inside the script (non-ASCII letters escaped).
    assert json.dumps("Slå tärningarna")[1:-1] in response.content.decode()
    english = client.get("/pages/words/en.js").content.decode()
    assert "django.gettext" in english


def test_a_language_the_service_does_not_speak_has_no_catalogue(client: Client) -> None:
    assert client.get("/pages/words/fr.js").status_code == 404
