"""Names that cannot pass for one another: a student, a seat or a classroom named with
invisible characters, direction overrides or other forms of the same letters is refused, or
stored as the one plain name it reads as (docs/contract.md, "Names")."""

import re

import pytest

from tests.classrooms.conftest import assert_problem

# Each reads as some plain name, or as nothing, and is refused wherever a name is taken.
REFUSED = {
    "zero-width space": "Ann\u200b",
    "right-to-left override": "\u202eAnn",
    "left-to-right mark": "Ann\u200e",
    "bidi isolate": "\u2066Ann\u2069",
    "zero-width joiner": "An\u200dn",
    "byte order mark": "\ufeffAnn",
    "soft hyphen": "An\u00adn",
    "word joiner": "Ann\u2060",
    "tag characters": "Ann\U000e0041\U000e007f",
    "hangul filler": "\u3164",
    "hangul choseong filler": "Ann\u115f",
    "halfwidth hangul filler": "\uffa0Ann",
    "braille blank": "\u2800",
    "variation selector": "Ann\ufe0f",
    "combining grapheme joiner": "An\u034fn",
    "mongolian vowel separator": "Ann\u180e",
    "private use": "Ann\ue000",
    "unassigned": "Ann\u0378",
    "tab inside": "Ann\tLee",
    "newline inside": "Ann\nLee",
    "line separator": "Ann\u2028Lee",
    "paragraph separator": "Ann\u2029Lee",
    "escape": "Ann\x1b[31m",
    "a combining accent first": "\u0301Ann",
    "accents stacked high": "A" + "\u0301\u0300\u0302\u0303\u0308\u030b",
    "only spaces of other kinds": "\u00a0\u3000\u2003",
    "mathematical letters": "\U0001d400\U0001d427\U0001d427",
    "emoji": "Ann \U0001f600",
}

# Each reads as the first name; the second is refused as taken.
SAME_NAME = {
    "fullwidth": ("Ann", "\uff21\uff4e\uff4e"),
    "other case": ("Ann", "aNN"),
    "spaces around and inside": ("Ann Lee", "  Ann \u00a0 Lee "),
    "accent composed or combining": ("\u00c5sa", "A\u030asa"),
    "sharp s": ("Stra\u00dfe", "STRASSE"),
    "ligature": ("\ufb01fi", "FIFI"),
    "superscript digit": ("Ann2", "Ann\u00b2"),
}


def _join(classes, room, name: str):
    return classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": name}, format="json"
    )


def _roster(classes, room) -> list[str]:
    response = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key)
    assert response.status_code == 200
    return [student["name"] for student in response.json()["students"]]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_a_student_name_that_shows_something_else_is_refused_and_nobody_joins(classes, name):
    room = classes.open()
    classes.join(room, "Ann")
    problem = assert_problem(_join(classes, room, name), 400, "invalid")
    assert [error["field"] for error in problem["errors"]] == ["name"]
    assert _roster(classes, room) == ["Ann"]


@pytest.mark.parametrize(("first", "second"), SAME_NAME.values(), ids=SAME_NAME.keys())
def test_a_look_alike_of_a_student_name_is_taken(classes, first, second):
    room = classes.open()
    classes.join(room, first)
    assert_problem(_join(classes, room, second), 409, "name_taken")
    assert len(_roster(classes, room)) == 1


def test_the_roster_shows_one_ann_however_she_is_typed(classes):
    room = classes.open()
    joined = classes.join(room, "\uff21\uff4e\uff4e")
    assert joined["student"]["name"] == "Ann"
    for name in ("Ann\u200b", "\u202eAnn", "ANN", " Ann "):
        assert _join(classes, room, name).status_code in (400, 409)
    assert _roster(classes, room) == ["Ann"]


def test_a_name_is_stored_in_its_plain_form(classes):
    room = classes.open()
    assert classes.join(room, "  A\u030asa \u3000 Lind ")["student"]["name"] == "\u00c5sa Lind"


def test_the_length_bound_is_that_of_the_stored_name(classes):
    room = classes.open()
    assert classes.join(room, "x" * 50)["student"]["name"] == "x" * 50
    # The schema's maxLength counts what is sent: white space that would be trimmed too.
    problem = assert_problem(_join(classes, room, "y" + "\u0085" * 50), 400, "invalid")
    assert [error["field"] for error in problem["errors"]] == ["name"]
    # One character that NFKC writes as eighteen: three are 54 characters as stored.
    problem = assert_problem(_join(classes, room, "\ufdfa" * 3), 400, "invalid")
    assert [error["field"] for error in problem["errors"]] == ["name"]


def test_the_same_name_in_another_classroom_is_another_student(classes):
    classes.join(classes.open("5B"), "Ann")
    assert classes.join(classes.open("6A"), "\uff21nn")["student"]["name"] == "Ann"


def test_a_student_is_found_by_any_form_of_the_name(classes):
    room = classes.open()
    key = classes.join(room, "\u00c5sa")["api_key"]
    assert classes.create_with(key, ("\u00c5sa",)).status_code == 201
    path = f"/api/v1/classrooms/{room.id}/games/?student=A%CC%8ASA"
    response = classes.teacher(path, room.teacher_key)
    assert response.status_code == 200
    assert response.json()["count"] == 1


def test_a_classroom_name_is_normalised_and_may_repeat(classes):
    for name in ("\uff15\uff22", "5B"):
        response = classes.client.post("/api/v1/classrooms/", {"name": name}, format="json")
        assert response.status_code == 201
        assert response.json()["name"] == "5B"
    response = classes.client.post("/api/v1/classrooms/", {"name": "5B\u202e"}, format="json")
    problem = assert_problem(response, 400, "invalid")
    assert [error["field"] for error in problem["errors"]] == ["name"]


@pytest.mark.parametrize("name", ["Ann\u200b", "\u202eAnn", "\u3164", "Ann\U000e0041"])
def test_a_seat_name_that_shows_something_else_is_refused(classes, name):
    body = {"ruleset": "yahtzee", "players": [{"name": "Ben"}, {"name": name}]}
    problem = assert_problem(classes.client.post("/api/v1/games/", body, format="json"), 400,
                             "invalid")
    assert [error["field"] for error in problem["errors"]] == ["players.1.name"]
    assert classes.client.get("/api/v1/games/").json()["count"] == 0


def test_a_seat_name_is_stored_plain_and_found_in_any_form(classes):
    game = classes.create(("\uff21\uff4e\uff4e", "Ben"), open_seats=1)
    assert [seat["name"] for seat in game["players"]] == ["Ann", "Ben"]
    listed = classes.client.get("/api/v1/games/", {"player": "\uff41nn"}).json()
    assert [found["id"] for found in listed["results"]] == [game["id"]]


def test_joining_a_game_takes_a_name_by_the_same_rule(classes):
    game = classes.create(("Ann",), open_seats=1)
    path = f"/api/v1/games/{game['id']}/join/"
    refused = classes.client.post(path, {"name": "Cleo\u200b"}, format="json")
    problem = assert_problem(refused, 400, "invalid")
    assert [error["field"] for error in problem["errors"]] == ["name"]
    joined = classes.client.post(path, {"name": "\uff23leo"}, format="json")
    assert joined.status_code == 201
    assert joined.json()["players"][1]["name"] == "Cleo"


@pytest.mark.slow
def test_the_schema_pattern_of_a_name_is_the_rule(classes):
    """A name the schema's pattern allows is taken; one it refuses is refused. Python's
    re reads the pattern here; ECMAScript reads it alike (it names no character beyond the
    Basic Multilingual Plane)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from games.api.fields import name_text
    from games.names import NameRefused, name_clean

    pattern = re.compile(name_text())
    schema = classes.client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    join = schema["components"]["schemas"]["ClassroomJoinInRequest"]["properties"]["name"]
    assert join["pattern"] == pattern.pattern

    @settings(max_examples=500, database=None, suppress_health_check=list(HealthCheck))
    @given(st.from_regex(pattern, fullmatch=True), st.text(min_size=1, max_size=20))
    def agree(allowed: str, other: str) -> None:
        name_clean(allowed)
        if not pattern.fullmatch(other):
            with pytest.raises(NameRefused):
                name_clean(other)

    agree()
