"""GET /rulesets/ in each language: the rulesets', boxes' and options' names and
descriptions as that country's players call them; ids, sections and option values (and the
OpenAPI schema) stay as they are in English."""

from typing import Any

import pytest
from django.test import Client

from .conftest import LANGUAGES


def _rulesets(client: Client, language: str | None = None) -> dict[str, dict[str, Any]]:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = client.get("/api/v1/rulesets/", **headers)
    assert response.status_code == 200
    assert response["Content-Language"] == (language or "en")
    return {ruleset["id"]: ruleset for ruleset in response.json()}


def _boxes(ruleset: dict[str, Any]) -> dict[str, str]:
    return {box["id"]: box["name"] for box in ruleset["categories"]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_everything_but_the_words_is_the_english(client: Client, language: str) -> None:
    english, other = _rulesets(client), _rulesets(client, language)
    assert other.keys() == english.keys()
    for ruleset_id, ruleset in other.items():
        theirs = english[ruleset_id]
        assert ruleset["description"] != theirs["description"]
        assert [(c["id"], c["section"]) for c in ruleset["categories"]] == [
            (c["id"], c["section"]) for c in theirs["categories"]
        ]
        for mine, its in zip(ruleset["categories"], theirs["categories"], strict=True):
            # "21 for 1-2-3-4-5-6." reads the same in Danish and Norwegian.
            assert mine["description"] != its["description"] or len(its["description"]) < 20
        for option_id, option in ruleset["options"].items():
            unworded = {"description": ""}
            assert option | unworded == theirs["options"][option_id] | unworded
            assert option["description"] != theirs["options"][option_id]["description"]
        drop = {"name", "description", "categories", "options"}
        assert {k: v for k, v in ruleset.items() if k not in drop} == {
            k: v for k, v in theirs.items() if k not in drop
        }


@pytest.mark.parametrize("language", LANGUAGES)
def test_most_box_names_are_the_language_s_own(client: Client, language: str) -> None:
    """Brand names (Yatzy, Maxi Yatzy, Yahtzee) and words a language uses as they are
    (German "Full House", "Chance") may stay; the rest of the card is translated."""
    english, other = _rulesets(client), _rulesets(client, language)
    for ruleset_id in ("yahtzee", "yatzy", "maxi-yatzy"):
        mine, theirs = _boxes(other[ruleset_id]), _boxes(english[ruleset_id])
        same = {box for box, name in mine.items() if name == theirs[box]}
        assert same <= {
            "yahtzee", "yatzy", "maxi_yatzy", "full_house", "full_straight", "chance", "villa"
        }


@pytest.mark.parametrize(
    ("language", "ruleset", "box", "name"),
    [
        ("sv", "yatzy", "full_house", "Kåk"),
        ("sv-SE", "yatzy", "small_straight", "Liten stege"),
        ("sv", "maxi-yatzy", "villa", "Hus"),
        ("da", "yatzy", "three_of_a_kind", "Tre ens"),
        ("no", "yatzy", "full_house", "Hus"),
        ("nb", "yatzy", "chance", "Sjanse"),
        ("de", "yahtzee", "full_house", "Full House"),
        ("de", "yahtzee", "three_of_a_kind", "Dreierpasch"),
        ("de", "yahtzee", "small_straight", "Kleine Straße"),
        ("zh-CN", "yahtzee", "full_house", "满堂红"),
        ("zh-Hans", "yatzy", "full_house", "满堂红"),
        ("zh", "yahtzee", "large_straight", "大顺"),
        ("fr", "yatzy", "full_house", "Full house"),
    ],
)
def test_a_box_as_its_players_call_it(
    client: Client, language: str, ruleset: str, box: str, name: str
) -> None:
    response = client.get(f"/api/v1/rulesets/{ruleset}/", HTTP_ACCEPT_LANGUAGE=language)
    assert _boxes(response.json())[box] == name


def test_a_ruleset_name_and_an_option_s_bounds_in_the_language(client: Client) -> None:
    ten_thousand = _rulesets(client, "de")["ten-thousand"]
    assert ten_thousand["name"] == "Zehntausend"
    assert ten_thousand["options"]["target"]["description"].endswith(
        "eine ganze Zahl von 50 bis 100000, ein Vielfaches von 50."
    )
    assert _rulesets(client, "sv")["forced-yatzy"]["name"] == "Tvångsyatzy"


@pytest.mark.slow  # the schema is made three times
def test_the_schema_stays_english_whatever_the_language(client: Client) -> None:
    english = client.get("/api/v1/schema/").content
    assert b"Three of a kind" in english or b"three_of_a_kind" in english
    for language in ("de", "zh-CN"):
        assert client.get("/api/v1/schema/", HTTP_ACCEPT_LANGUAGE=language).content == english
