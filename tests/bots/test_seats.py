"""Bots taking seats: in a new game and by joining; whose answer shows a bot's token."""

from typing import Any

from games.models import Game, Player
from tests.api.conftest import assert_problem
from tests.classrooms.conftest import Class

from .conftest import BotApi


def _counts() -> tuple[int, int]:
    return Game.objects.count(), Player.objects.count()


def test_a_bot_takes_a_seat_named_as_it_is_and_its_owner_gets_its_token(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    response = bots.seat(ann, [{"name": "Ann"}, {"bot": gus["id"]}])
    assert response.status_code == 201, response.json()
    game = response.json()
    seats = game["players"]
    assert [(s["name"], s["bot"], s["computer"]) for s in seats] == [
        ("Ann", None, None), ("Gus", gus["id"], None),
    ]
    assert seats[0]["token"] and seats[1]["token"]  # Ann's own key owns Gus
    # The bot's token moves its seat, and only its seat.
    bots.ok(game, "roll", seat=0)
    bots.ok(game, "score", {"category": "chance"}, seat=0)
    assert bots.ok(game, "roll", seat=1)["current_seat"] == 1
    assert bots.get(game)["players"][1]["bot"] == gus["id"]


def test_a_bots_token_is_not_in_an_answer_to_a_key_that_does_not_own_it(
    bots: BotApi, room: Class
) -> None:
    gus = bots.register(bots.key_of(room, "Ann"), "Gus")
    created = bots.seat(room.teacher_key, [{"name": "Teacher"}, {"bot": gus["id"]}]).json()
    assert "token" in created["players"][0]
    assert "token" not in created["players"][1]
    # A student cannot seat a classmate's bot at all.
    ben = bots.key_of(room, "Ben")
    before = _counts()
    assert_problem(bots.seat(ben, [{"bot": gus["id"]}]), 400, "invalid")
    assert _counts() == before


def test_a_join_with_a_bot_takes_the_seat_for_it(bots: BotApi, room: Class) -> None:
    ann, ben = bots.key_of(room, "Ann"), bots.key_of(room, "Ben")
    gus = bots.register(ann, "Gus", ("yatzy",))
    game = bots.seat(ben, [{"name": "Ben"}], ruleset="yatzy", open_seats=1).json()
    joined = bots.call("post", f"/api/v1/games/{game['id']}/join/", ann, {"bot": gus["id"]})
    assert joined.status_code == 201, joined.json()
    seat = joined.json()["players"][1]
    assert (seat["name"], seat["bot"], bool(seat.get("token"))) == ("Gus", gus["id"], True)
    assert joined.json()["status"] == "active"


def test_a_teacher_seats_any_bot_of_the_classroom_by_joining_without_its_token(
    bots: BotApi, room: Class
) -> None:
    gus = bots.register(bots.key_of(room, "Ann"), "Gus")
    game = bots.seat(room.teacher_key, [{"name": "T"}], open_seats=1).json()
    joined = bots.call("post", f"/api/v1/games/{game['id']}/join/", room.teacher_key,
                       {"bot": gus["id"]}).json()
    assert joined["players"][1]["bot"] == gus["id"]
    assert "token" not in joined["players"][1]


def _refused(bots: BotApi, key: str | None, players: list[dict[str, Any]], status: int,
             code: str, **fields: Any) -> dict[str, Any]:
    before = _counts()
    body = assert_problem(bots.seat(key, players, **fields), status, code)
    assert _counts() == before
    return body


def test_bots_that_cannot_take_the_seat_are_refused_and_nothing_changes(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus", ("yatzy",))
    other = bots.open("6C")
    bots.join(other, "Cleo")
    theirs = bots.register(bots.key_of(other, "Cleo"), "Theirs")
    body = _refused(bots, ann, [{"bot": theirs["id"]}], 400, "invalid", ruleset="yatzy")
    assert body["errors"][0]["field"] == "players.0.bot"
    _refused(bots, ann, [{"bot": gus["id"]}, {"bot": gus["id"]}], 400, "invalid",
             ruleset="yatzy")
    _refused(bots, ann, [{"bot": gus["id"]}], 400, "invalid", ruleset="yahtzee")
    _refused(bots, None, [{"bot": gus["id"]}], 401, "not_authenticated", ruleset="yatzy")
    _refused(bots, ann, [{"bot": gus["id"], "name": "X"}], 400, "invalid", ruleset="yatzy")
    _refused(bots, ann, [{"bot": "not-a-uuid"}], 400, "invalid", ruleset="yatzy")
    bots.call("delete", f"/api/v1/bots/{gus['id']}/", ann)
    _refused(bots, ann, [{"bot": gus["id"]}], 400, "invalid", ruleset="yatzy")


def test_a_bot_joins_a_game_once_and_a_refused_join_changes_nothing(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    game = bots.seat(ann, [{"bot": gus["id"]}], open_seats=2).json()
    path = f"/api/v1/games/{game['id']}/join/"
    before = bots.get(game)
    assert_problem(bots.call("post", path, ann, {"bot": gus["id"]}), 400, "invalid")
    assert_problem(bots.call("post", path, None, {"bot": gus["id"]}), 401, "not_authenticated")
    assert bots.get(game) == before


def test_a_bots_token_moves_only_its_own_seat(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    first = bots.seat(ann, [{"bot": gus["id"]}]).json()
    second = bots.seat(ann, [{"name": "Ann"}, {"bot": gus["id"]}]).json()
    token = first["players"][0]["token"]
    before = bots.get(second)
    assert_problem(bots.move(second, "roll", token=token), 401, "invalid_token")
    assert_problem(bots.move(second, "roll", token=second["players"][1]["token"]), 409,
                   "not_your_turn")
    assert bots.get(second) == before
