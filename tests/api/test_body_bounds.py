"""A refusal costs little whatever the body holds: a body longer than its request takes is
refused by its length before it is parsed, a body beyond the bounds of any request (names
in one object, values in all, depth) before its fields are checked, and a refusal lists the
first few faults and counts the rest. A body of 100,000 unknown names used to cost seconds
and be answered with 10 MB naming every one."""

import json
import platform

import pytest

from games.http.json_bodies import MOST_BODY_BYTES
from games.http.problems import MOST_ERRORS_SHOWN
from games.http.strict import MOST_DEPTH, MOST_NAMES, MOST_VALUES
from games.models import Game

from .conftest import assert_problem

CREATE = "/api/v1/games/"
VERIFY = "/api/v1/records/verify/"
SEAT = {"name": "Ann"}


def post(api, path: str, body: object):
    return api.client.post(path, json.dumps(body), content_type="application/json")


def nested(depth: int) -> object:
    """Lists ``depth - 1`` deep: in an object, a body ``depth`` deep."""
    value: object = 0
    for _ in range(depth - 1):
        value = [value]
    return value


def test_a_body_longer_than_its_request_takes_is_refused_unread(api):
    body = {f"f{i:05d}": i for i in range(100_000)}  # 1.7 MB
    response = post(api, CREATE, body)
    problem = assert_problem(response, 413, "request_too_large")
    assert str(MOST_BODY_BYTES) in problem["detail"]
    assert len(response.content) < 1000
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        (CREATE, {f"k{i}": i for i in range(65)}, f"at most {MOST_NAMES} names"),
        (
            CREATE,
            {"ruleset": "yahtzee", "players": [SEAT], "options": {f"o{i}": 1 for i in range(65)}},
            f"at most {MOST_NAMES} names",
        ),
        # A record may weigh 1 MB: enough for more values than any record holds.
        (VERIFY, {"events": [[0] * 130_000, [0] * 130_000]}, f"at most {MOST_VALUES} values"),
        (VERIFY, {f"k{i}": i for i in range(30_000)}, f"at most {MOST_NAMES} names"),
        (CREATE, {"players": nested(MOST_DEPTH + 1)}, f"at most {MOST_DEPTH}"),
    ],
)
def test_a_body_beyond_the_bounds_is_refused_before_its_fields_and_briefly(api, path, body, said):
    response = post(api, path, body)
    problem = assert_problem(response, 400, "invalid")
    assert said in problem["detail"]
    assert [e["field"] for e in problem["errors"]] == ["body"]
    assert len(response.content) < 1000
    assert not Game.objects.exists()


def test_a_body_within_the_bounds_is_read():
    from games.http.strict import check_bounds

    check_bounds({"players": nested(MOST_DEPTH), **{f"k{i}": 0 for i in range(MOST_NAMES - 1)}})
    check_bounds([[0] * (MOST_VALUES // 2 - 1)] * 2)


def test_a_refusal_lists_the_first_faults_and_counts_the_others(api):
    body = {"ruleset": "yahtzee", "players": [SEAT], **{f"extra{i}": 1 for i in range(60)}}
    problem = assert_problem(post(api, CREATE, body), 400, "unknown_field")
    assert len(problem["errors"]) == MOST_ERRORS_SHOWN
    assert [e["field"] for e in problem["errors"]] == [f"extra{i}" for i in range(5)]
    assert problem["more_errors"] == 60 - MOST_ERRORS_SHOWN
    assert problem["detail"].endswith(f"and {60 - MOST_ERRORS_SHOWN} more")
    assert not Game.objects.exists()


def test_a_refusal_with_few_faults_lists_them_all_and_counts_nothing(api):
    body = {"ruleset": "yahtzee", "players": [SEAT], "extra": 1}
    problem = assert_problem(post(api, CREATE, body), 400, "unknown_field")
    assert [e["field"] for e in problem["errors"]] == ["extra"]
    assert "more_errors" not in problem


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/v1/rulesets/ten-thousand/advice/", {"totals": ["x"] * 10_000}, "totals"),
        (CREATE, {"ruleset": "yahtzee", "players": [{"nme": "A"}] * 4_000}, "players"),
    ],
)
def test_a_long_list_is_refused_for_its_length_not_item_by_item(api, path, body, field):
    response = post(api, path, body)
    problem = assert_problem(response, 400, "invalid")
    assert [e["field"] for e in problem["errors"]] == [field]
    assert len(response.content) < 1000


def test_memory_is_given_back_after_a_large_refused_body_only(api, monkeypatch):
    from games.http import json_bodies

    calls: list[None] = []
    monkeypatch.setattr(json_bodies, "give_back_memory", lambda: calls.append(None))
    assert_problem(post(api, VERIFY, {f"k{i}": i for i in range(30_000)}), 400, "invalid")
    assert len(calls) == 1
    assert_problem(post(api, VERIFY, {f"k{i}": i for i in range(100)}), 400, "invalid")
    assert len(calls) == 1


def test_the_c_library_s_trim_is_found_where_glibc_runs():
    from games.http import json_bodies

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("not glibc")
    assert json_bodies.give_back_memory is not None
    json_bodies.give_back_memory()


def test_the_schema_bounds_the_objects_whose_names_the_client_chooses(api):
    document = api.client.get("/api/v1/schema/?format=json").json()
    verify = document["paths"]["/api/v1/records/verify/"]["post"]["requestBody"]
    record = verify["content"]["application/json"]["schema"]
    assert record["properties"]["options"]["maxProperties"] == MOST_NAMES
    assert record["properties"]["events"]["items"]["properties"]["data"]["maxProperties"] == (
        MOST_NAMES
    )
    closed = document["components"]["schemas"]["YatzyAdviceInRequest"]["properties"]["scorecard"]
    assert "maxProperties" not in closed  # its names are the boxes: bounded already
