"""Classrooms: open, join, games tied to students, the teacher's roster and paths."""

import statistics

import pytest

from games.models import ApiKey
from scoring.boxgames.strategy import prepare_table
from tests.api.conftest import run_due_work
from tests.conftest import by_database, pins_the_fast_path

from .conftest import assert_problem

DEFAULT_QUOTA = {
    "games_per_hour": 6000, "advice_per_hour": 10000, "computer_moves_per_hour": 600000
}


def test_opening_a_classroom_answers_a_join_code_and_a_teacher_key_once(classes):
    response = classes.client.post("/api/v1/classrooms/", {"name": "5B"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "id", "name", "join_code", "joining", "teacher_key", "quota", "created_at"
    }
    assert body["joining"] == "open"
    assert body["name"] == "5B"
    assert body["teacher_key"].startswith("dk_")
    assert body["quota"] == DEFAULT_QUOTA
    read = classes.teacher(f"/api/v1/classrooms/{body['id']}/", body["teacher_key"])
    assert read.status_code == 200
    assert body["teacher_key"] not in read.content.decode()


def test_a_student_joins_with_the_code_in_any_case_and_gets_a_key(classes):
    room = classes.open()
    response = classes.client.post(
        "/api/v1/classrooms/join/",
        {"join_code": room.join_code.lower(), "name": "Ann"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["classroom"] == {"id": room.id, "name": "5B"}
    assert body["student"]["name"] == "Ann"
    assert body["api_key"].startswith("dk_") and body["api_key"] != room.teacher_key


def test_a_wrong_join_code_is_not_found(classes):
    response = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": "NOPE1234", "name": "Ann"}, format="json"
    )
    assert_problem(response, 404, "not_found")


def test_a_name_already_in_the_classroom_is_taken_whatever_its_case(classes):
    room = classes.open()
    classes.join(room, "Ann")
    response = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": "ANN"}, format="json"
    )
    assert_problem(response, 409, "name_taken")
    other = classes.open("6A")
    assert classes.join(other, "Ann")["student"]["name"] == "Ann"


def test_join_bodies_are_strict(classes):
    room = classes.open()
    response = classes.client.post(
        "/api/v1/classrooms/join/",
        {"join_code": room.join_code, "name": "Ann", "teacher": True},
        format="json",
    )
    assert_problem(response, 400, "unknown_field")
    response = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": 7}, format="json"
    )
    assert_problem(response, 400, "invalid")


def test_a_game_created_with_a_student_key_belongs_to_the_student(classes):
    room = classes.open()
    classes.join(room, "Ann")
    response = classes.create_with(classes.key_of(room, "Ann"))
    assert response.status_code == 201
    game = response.json()
    assert game["classroom"] == room.id
    assert game["student"] == "Ann"
    again = classes.get(game)
    assert (again["classroom"], again["student"]) == (room.id, "Ann")
    moved = classes.ok(game, "roll")
    assert moved["student"] == "Ann"


def test_a_game_without_a_key_belongs_to_no_one(classes):
    game = classes.create()
    assert game["classroom"] is None and game["student"] is None


def test_a_wrong_key_is_refused_on_any_path(classes):
    response = classes.create_with("dk_nothing")
    assert_problem(response, 401, "invalid_api_key")
    response = classes.client.get("/api/v1/rulesets/", HTTP_X_API_KEY="dk_x")
    assert_problem(response, 401, "invalid_api_key")


def test_teacher_paths_need_the_teacher_key_of_that_classroom(classes):
    room = classes.open()
    other = classes.open("6A")
    classes.join(room, "Ann")
    student_path = f"/api/v1/classrooms/{room.id}/students/{room.students['Ann']['student']['id']}"
    paths = [
        ("get", f"/api/v1/classrooms/{room.id}/"),
        ("get", f"/api/v1/classrooms/{room.id}/games/"),
        ("get", f"/api/v1/classrooms/{room.id}/leaderboard/?ruleset=yahtzee"),
        ("patch", f"/api/v1/classrooms/{room.id}/"),
        ("post", f"{student_path}/revoke/"),
        ("post", f"{student_path}/rotate/"),
    ]
    for method, path in paths:
        body = {"quota": {"games_per_hour": 5}} if method == "patch" else {}
        assert_problem(classes.teacher(path, None, method, body), 401, "not_authenticated")
        assert_problem(classes.teacher(path, "dk_wrong", method, body), 401, "invalid_api_key")
        student = classes.key_of(room, "Ann")
        assert_problem(classes.teacher(path, student, method, body), 403, "forbidden")
        assert_problem(classes.teacher(path, other.teacher_key, method, body), 403, "forbidden")
    # Nothing was changed by the refused calls: Ann's key still works, the quota stands.
    assert classes.create_with(classes.key_of(room, "Ann")).status_code == 201
    read = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()
    assert read["quota"] == DEFAULT_QUOTA


def test_an_unknown_classroom_is_not_found(classes):
    room = classes.open()
    path = "/api/v1/classrooms/00000000-0000-4000-8000-000000000000/"
    assert_problem(classes.teacher(path, room.teacher_key), 404, "not_found")
    assert_problem(classes.teacher("/api/v1/classrooms/nope/", room.teacher_key), 404, "not_found")


def test_the_roster_figures_come_from_the_students_finished_games(classes, settings):
    room = classes.open()
    for name in ("Ann", "Ben", "Cleo"):
        classes.join(room, name)
    for ruleset_id in ("yahtzee", "yatzy"):  # as a served service has them
        prepare_table(ruleset_id, {}, settings.STRATEGY_DIR)
    finals = {"Ann": [], "Ben": []}
    accuracies = []
    for name, games in (("Ann", 2), ("Ben", 1)):
        for _ in range(games):
            created = classes.create_with(classes.key_of(room, name)).json()
            finals[name].append(classes.play_to_the_end(created)["players"][0]["total"])
            analysis = classes.client.get(f"/api/v1/games/{created['id']}/analysis/").json()
            accuracies.append((name, analysis["seats"][0]["accuracy"]))
    # An unfinished game counts as started only; a Yatzy game has figures of its own.
    classes.create_with(classes.key_of(room, "Ann"))
    created = classes.create_with(
        classes.key_of(room, "Ben"),
        ruleset="yatzy",
        players=[{"name": "Ben"}, {"name": "Robot", "computer": "greedy"}],
    ).json()
    yatzy = classes.play_to_the_end(created)
    # A game without a key is no one's.
    classes.play_to_the_end(classes.create())
    # Until a worker has kept a finished game's figures, its accuracy is not counted yet.
    early = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()
    assert early["students"][0]["rulesets"]["yahtzee"]["mean_accuracy"] is None
    run_due_work()

    roster = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()
    students = {s["name"]: s for s in roster["students"]}
    assert list(students) == ["Ann", "Ben", "Cleo"]
    assert (students["Ann"]["games_started"], students["Ann"]["games_finished"]) == (3, 2)
    assert (students["Ben"]["games_started"], students["Ben"]["games_finished"]) == (2, 2)
    assert students["Ann"]["rulesets"] == {
        "yahtzee": {
            "games_finished": 2,
            "mean": statistics.fmean(finals["Ann"]),
            "best": max(finals["Ann"]),
            "mean_accuracy": round(statistics.fmean(a for n, a in accuracies if n == "Ann"), 2),
        }
    }
    assert students["Ben"]["rulesets"]["yahtzee"]["mean_accuracy"] == accuracies[2][1]
    assert students["Ben"]["rulesets"]["yatzy"]["best"] == yatzy["players"][0]["total"]
    assert students["Cleo"] == students["Cleo"] | {
        "games_started": 0,
        "games_finished": 0,
        "rulesets": {},
    }


def test_the_roster_costs_a_fixed_number_of_queries(classes, django_assert_num_queries):
    room = classes.open()
    for name in ("Ann", "Ben", "Cleo", "Dan"):
        classes.join(room, name)
        classes.play_to_the_end(classes.create_with(classes.key_of(room, name)).json())
    run_due_work()
    path = f"/api/v1/classrooms/{room.id}/"
    # The key, the students, their counts, their figures with the accuracies kept when
    # each game finished (a read closes nothing), and the learning platform's course.
    with django_assert_num_queries(5):
        assert classes.teacher(path, room.teacher_key).status_code == 200


def test_the_class_games_are_listed_newest_first_and_filtered(
    classes, django_assert_num_queries
):
    room = classes.open()
    for name in ("Ann", "Ben"):
        classes.join(room, name)
    first = classes.create_with(classes.key_of(room, "Ann")).json()
    second = classes.create_with(classes.key_of(room, "Ben"), ruleset="yatzy").json()
    third = classes.create_with(classes.key_of(room, "Ann"), open_seats=1).json()
    classes.create()  # no one's
    path = f"/api/v1/classrooms/{room.id}/games/"
    # The key, the count, the page, the seats (a read closes nothing).
    with django_assert_num_queries(4):
        page = classes.teacher(path, room.teacher_key).json()
    assert [g["id"] for g in page["results"]] == [third["id"], second["id"], first["id"]]
    assert page["count"] == 3
    ann = classes.teacher(path + "?student=ann", room.teacher_key).json()
    assert [g["id"] for g in ann["results"]] == [third["id"], first["id"]]
    ben_id = room.students["Ben"]["student"]["id"]
    by_id = classes.teacher(path + f"?student={ben_id}", room.teacher_key).json()
    assert [g["id"] for g in by_id["results"]] == [second["id"]]
    yatzy = classes.teacher(path + "?ruleset=yatzy", room.teacher_key).json()
    assert [g["id"] for g in yatzy["results"]] == [second["id"]]
    waiting = classes.teacher(path + "?status=waiting", room.teacher_key).json()
    assert [g["id"] for g in waiting["results"]] == [third["id"]]
    paged = classes.teacher(path + "?page_size=2", room.teacher_key).json()
    assert len(paged["results"]) == 2 and paged["next"]
    assert_problem(classes.teacher(path + "?status=lost", room.teacher_key), 400, "invalid")


def test_the_class_leaderboard_includes_seeded_games_marked_unranked(classes):
    room = classes.open()
    for name in ("Ann", "Ben"):
        classes.join(room, name)
    ranked = classes.play_to_the_end(classes.create_with(classes.key_of(room, "Ann")).json())
    seeded = classes.play_to_the_end(
        classes.create_with(classes.key_of(room, "Ben"), seed=7).json()
    )
    classes.play_to_the_end(classes.create())  # no one's: not on the class table
    path = f"/api/v1/classrooms/{room.id}/leaderboard/?ruleset=yahtzee"
    rows = classes.teacher(path, room.teacher_key).json()
    assert sorted((r["name"], r["score"], r["ranked"]) for r in rows) == sorted(
        [
            ("Ann", ranked["players"][0]["total"], True),
            ("Ben", seeded["players"][0]["total"], False),
        ]
    )
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    public = classes.client.get("/api/v1/leaderboard/?ruleset=yahtzee").json()
    assert seeded["id"] not in {r["game"] for r in public}
    assert_problem(
        classes.teacher(f"/api/v1/classrooms/{room.id}/leaderboard/", room.teacher_key),
        400,
        "invalid",
    )


def test_the_teacher_sets_the_quota_strictly(classes):
    room = classes.open()
    path = f"/api/v1/classrooms/{room.id}/"
    response = classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 20}})
    assert response.status_code == 200
    assert response.json()["quota"] == DEFAULT_QUOTA | {"games_per_hour": 20}
    for body, code in [
        ({"quota": {"games_per_hour": "20"}}, "invalid"),
        ({"quota": {"games_per_hour": 0}}, "invalid"),
        ({"quota": {"moves": 5}}, "unknown_field"),
        ({"name": "6A"}, "unknown_field"),
    ]:
        assert_problem(classes.teacher(path, room.teacher_key, "patch", body), 400, code)
    read = classes.teacher(path, room.teacher_key).json()
    assert read["quota"] == DEFAULT_QUOTA | {"games_per_hour": 20}


def test_a_revoked_key_stops_working_at_once_and_a_rotated_one_replaces_it(classes):
    room = classes.open()
    classes.join(room, "Ann")
    old = classes.key_of(room, "Ann")
    game = classes.create_with(old).json()
    student_id = room.students["Ann"]["student"]["id"]
    base = f"/api/v1/classrooms/{room.id}/students/{student_id}"
    revoked = classes.teacher(f"{base}/revoke/", room.teacher_key, "post")
    assert revoked.status_code == 200
    assert revoked.json() == {"student": {"id": student_id, "name": "Ann"}, "revoked": True}
    assert_problem(classes.create_with(old), 401, "invalid_api_key")
    rotated = classes.teacher(f"{base}/rotate/", room.teacher_key, "post")
    assert rotated.status_code == 200
    new = rotated.json()["api_key"]
    assert new.startswith("dk_") and new != old
    assert_problem(classes.create_with(old), 401, "invalid_api_key")
    assert classes.create_with(new).json()["student"] == "Ann"
    # Rotating again retires the second key as well.
    newest = classes.teacher(f"{base}/rotate/", room.teacher_key, "post").json()["api_key"]
    assert_problem(classes.create_with(new), 401, "invalid_api_key")
    assert classes.create_with(newest).status_code == 201
    roster = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()
    assert roster["students"][0]["games_started"] == 3
    assert classes.get(game)["student"] == "Ann"


def test_revoking_a_student_of_another_classroom_is_not_found(classes):
    room, other = classes.open(), classes.open("6A")
    classes.join(other, "Ann")
    student_id = other.students["Ann"]["student"]["id"]
    path = f"/api/v1/classrooms/{room.id}/students/{student_id}/revoke/"
    assert_problem(classes.teacher(path, room.teacher_key, "post"), 404, "not_found")
    assert classes.create_with(classes.key_of(other, "Ann")).status_code == 201


def test_keys_are_stored_as_digests_and_never_shown_again(classes):
    room = classes.open()
    joined = classes.join(room, "Ann")
    key = joined["api_key"]
    classes.create_with(key)
    stored = list(ApiKey.objects.values_list("prefix", "digest"))
    assert len(stored) == 2
    for prefix, digest in stored:
        assert prefix in key or prefix in room.teacher_key
        assert digest not in (key, room.teacher_key)
        assert len(digest) == 64
    answers = [
        classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key),
        classes.teacher(f"/api/v1/classrooms/{room.id}/games/", room.teacher_key),
        classes.client.get("/api/v1/games/"),
    ]
    for answer in answers:
        assert key not in answer.content.decode()
        assert room.teacher_key not in answer.content.decode()


@pytest.mark.parametrize("body", [[], {"name": ""}, {"name": "x" * 81}, {"name": None}])
def test_a_classroom_needs_a_name(classes, body):
    response = classes.client.post("/api/v1/classrooms/", body, format="json")
    assert_problem(response, 400, "invalid")


@pins_the_fast_path  # a move's queries are those of the hand-written SQL and kept games
def test_a_students_game_costs_no_more_queries_to_read_or_move(
    classes, django_assert_num_queries
):
    room = classes.open()
    classes.join(room, "Ann")
    game = classes.create_with(classes.key_of(room, "Ann")).json()
    with django_assert_num_queries(2):
        assert classes.client.get(f"/api/v1/games/{game['id']}/").json()["student"] == "Ann"
    # On PostgreSQL the writes, between the savepoint's two calls: this process wrote the
    # game last, so it is not read again (games.db.kept).
    with django_assert_num_queries(by_database(sqlite=7, postgresql=3)):
        assert classes.move(game, "roll").json()["student"] == "Ann"
    # The list: the count, the page, the seats.
    with django_assert_num_queries(3):
        assert classes.client.get("/api/v1/games/").json()["results"][0]["student"] == "Ann"


def test_the_teacher_closes_and_reopens_joining(classes):
    room = classes.open()
    classes.join(room, "Ann")
    path = f"/api/v1/classrooms/{room.id}/"
    closed = classes.teacher(path, room.teacher_key, "patch", {"joining": "closed"})
    assert closed.status_code == 200 and closed.json()["joining"] == "closed"
    refused = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": "Ben"}, format="json"
    )
    assert_problem(refused, 409, "joining_closed")
    roster = classes.teacher(path, room.teacher_key).json()
    assert [s["name"] for s in roster["students"]] == ["Ann"]
    # Students who joined before go on playing.
    assert classes.create_with(classes.key_of(room, "Ann")).status_code == 201
    opened = classes.teacher(path, room.teacher_key, "patch", {"joining": "open"})
    assert opened.json()["joining"] == "open"
    assert classes.join(room, "Ben")["student"]["name"] == "Ben"


@pytest.mark.parametrize(
    "body", [{}, {"joining": "shut"}, {"joining": True}, {"joining": None}, {"quota": {}, "x": 1}]
)
def test_a_change_of_the_classroom_is_strict(classes, body):
    room = classes.open()
    response = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key, "patch", body)
    assert response.status_code == 400, response.json()


def test_a_new_join_code_replaces_the_old_one_at_once(classes):
    room = classes.open()
    classes.join(room, "Ann")
    path = f"/api/v1/classrooms/{room.id}/join-code/"
    answer = classes.teacher(path, room.teacher_key, "post", {})
    assert answer.status_code == 200
    new_code = answer.json()["join_code"]
    assert set(answer.json()) == {"join_code"} and new_code != room.join_code
    old = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": "Ben"}, format="json"
    )
    assert_problem(old, 404, "not_found")
    read = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()
    assert read["join_code"] == new_code
    room.join_code = new_code
    assert classes.join(room, "Ben")["student"]["name"] == "Ben"
    # Ann's key still works; only the teacher may replace the code.
    assert classes.create_with(classes.key_of(room, "Ann")).status_code == 201
    assert_problem(classes.teacher(path, classes.key_of(room, "Ann"), "post", {}), 403,
                   "forbidden")
    assert_problem(classes.teacher(path, None, "post", {}), 401, "not_authenticated")
    assert_problem(classes.teacher(path, room.teacher_key, "post", {"code": "MINE1234"}), 400,
                   "unknown_field")
    assert classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()[
        "join_code"
    ] == new_code
