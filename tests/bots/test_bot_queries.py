"""A bot in a game costs its moves nothing: the same queries as a person's seat; seating
bots costs a fixed few more than creating the game alone."""

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.classrooms.conftest import Class

from .conftest import BotApi


def _queries(call: Any) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as captured:
        answer = call()
    return len(captured.captured_queries), answer


def test_a_move_in_a_game_with_bots_costs_what_a_move_without_them_costs(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus, max_ = bots.register(ann, "Gus"), bots.register(ann, "Max")
    plain = bots.seat(ann, [{"name": "Ann"}, {"name": "B"}, {"name": "C"}]).json()
    with_bots = bots.seat(ann, [{"name": "Ann"}, {"bot": gus["id"]}, {"bot": max_["id"]}]).json()
    for game in (plain, with_bots):  # each process keeps the game it wrote last: read both
        bots.get(game)
    costs = []
    for game in (plain, with_bots):
        bots.client.get("/api/v1/rulesets/")  # the same state of the process's caches
        count, answer = _queries(lambda g=game: bots.move(g, "roll"))
        assert answer.status_code == 200
        costs.append(count)
    assert costs[0] == costs[1]
    score = [_queries(lambda g=g: bots.move(g, "score", {"category": "chance"}))[0]
             for g in (plain, with_bots)]
    assert score[0] == score[1]


def test_seating_bots_costs_a_few_queries_however_many(bots: BotApi, room: Class) -> None:
    teacher = room.teacher_key
    made = [bots.register(teacher, f"Bot {n}")["id"] for n in range(8)]
    plain, _ = _queries(lambda: bots.seat(teacher, [{"name": f"P{n}"} for n in range(8)]))
    one, _ = _queries(lambda: bots.seat(teacher, [{"bot": made[0]}]))
    eight, answer = _queries(lambda: bots.seat(teacher, [{"bot": b} for b in made]))
    assert answer.status_code == 201
    assert one == eight
    # The bots, locked; on PostgreSQL their owners and one notification for each, and the
    # savepoint the game's own change makes inside the seating's transaction.
    assert eight <= plain + 5
