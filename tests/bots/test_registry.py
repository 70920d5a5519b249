"""Registering bots, listing them, changing and deleting them."""

from tests.api.conftest import assert_problem
from tests.classrooms.conftest import Class

from .conftest import BotApi


def test_a_student_registers_a_bot_that_is_theirs(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    assert gus["name"] == "Gus" and gus["rulesets"] == ["yahtzee", "ten-thousand"]
    assert gus["owner"] == {
        "classroom": room.id, "student": room.students["Ann"]["student"]["id"],
    }
    assert [b["id"] for b in bots.call("get", "/api/v1/bots/", ann).json()] == [gus["id"]]
    assert bots.call("get", f"/api/v1/bots/{gus['id']}/", ann).json() == gus


def test_a_teachers_bot_has_no_student_and_the_teacher_lists_every_bot(
    bots: BotApi, room: Class
) -> None:
    mine = bots.register(room.teacher_key, "Teach")
    assert mine["owner"]["student"] is None
    anns = bots.register(bots.key_of(room, "Ann"), "Gus")
    listed = bots.call("get", "/api/v1/bots/", room.teacher_key).json()
    assert {b["id"] for b in listed} == {mine["id"], anns["id"]}
    # A student sees their own only, and another's bot is not found.
    ben = bots.key_of(room, "Ben")
    assert bots.call("get", "/api/v1/bots/", ben).json() == []
    assert_problem(bots.call("get", f"/api/v1/bots/{anns['id']}/", ben), 404, "not_found")
    assert_problem(bots.call("delete", f"/api/v1/bots/{anns['id']}/", ben), 404, "not_found")


def test_names_are_unique_in_the_classroom_as_students_names_are(
    bots: BotApi, room: Class
) -> None:
    bots.register(bots.key_of(room, "Ann"), "Gus")
    for taken in ("gus", "\uff27\uff35\uff33", " Gus "):  # the second: fullwidth letters
        response = bots.call("post", "/api/v1/bots/", bots.key_of(room, "Ben"),
                             {"name": taken, "rulesets": ["yatzy"]})
        assert_problem(response, 409, "name_taken")
    other = bots.open("6C")
    bots.join(other, "Cleo")
    bots.register(bots.key_of(other, "Cleo"), "Gus")  # another classroom: free


def test_a_key_registers_at_most_ten_bots(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    made = [bots.register(ann, f"Bot {n}") for n in range(10)]
    response = bots.call("post", "/api/v1/bots/", ann, {"name": "Eleven", "rulesets": ["yatzy"]})
    assert_problem(response, 409, "too_many_bots")
    assert len(bots.call("get", "/api/v1/bots/", ann).json()) == 10
    assert bots.call("delete", f"/api/v1/bots/{made[0]['id']}/", ann).status_code == 204
    bots.register(ann, "Eleven")


def test_the_owner_or_the_teacher_changes_and_deletes_a_bot(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    path = f"/api/v1/bots/{gus['id']}/"
    changed = bots.call("patch", path, ann, {"name": "Gustav", "rulesets": ["yatzy"]}).json()
    assert (changed["name"], changed["rulesets"]) == ("Gustav", ["yatzy"])
    changed = bots.call("patch", path, room.teacher_key, {"rulesets": ["maxi-yatzy"]}).json()
    assert changed["rulesets"] == ["maxi-yatzy"] and changed["name"] == "Gustav"
    assert bots.call("delete", path, room.teacher_key).status_code == 204
    assert_problem(bots.call("get", path, ann), 404, "not_found")
    assert bots.call("get", "/api/v1/bots/", ann).json() == []
    bots.register(bots.key_of(room, "Ben"), "Gustav")  # the name is free again


def test_refusals_change_nothing(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    assert_problem(bots.call("post", "/api/v1/bots/", None, {"name": "X", "rulesets": ["yatzy"]}),
                   401, "not_authenticated")
    for body in ({"name": "X", "rulesets": []}, {"name": "X", "rulesets": ["chess"]},
                 {"name": "", "rulesets": ["yatzy"]}, {"rulesets": ["yatzy"]}):
        assert_problem(bots.call("post", "/api/v1/bots/", ann, body), 400, "invalid")
    assert bots.call("get", "/api/v1/bots/", ann).json() == []
    assert_problem(bots.call("get", "/api/v1/bots/", None), 401, "not_authenticated")
