"""Setting a tournament: what the teacher and a student may enter, and every refusal, which
leaves nothing behind; cancelling one; the schedule's shape."""

from collections import Counter

import pytest

from games.models import Delivery, Game, Tournament, Webhook
from games.tournaments.plan import fixture, games_count, schedule
from tests.tournaments.conftest import (
    assert_problem,
    bot,
    computers,
    run_due_work,
    run_to_the_end,
    time_passes,
)


@pytest.mark.parametrize("entrants", [1, 2, 5, 8])
def test_a_round_robin_meets_every_pair_on_every_board_in_both_seat_orders(entrants):
    games = schedule(seats=2, boards=3, entrants=entrants)
    assert len(games) == games_count(seats=2, boards=3, entrants=entrants) == (
        3 * entrants * (entrants - 1)
    )
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    for board in (1, 2, 3):
        pairs = Counter(g.entrants for g in games if g.board == board)
        assert set(pairs.values()) <= {1}
        assert set(pairs) == {(a, b) for a in range(1, entrants + 1)
                              for b in range(1, entrants + 1) if a != b}
    assert [g.board for g in games] == sorted(g.board for g in games)
    assert all(fixture(number=g.number, seats=2, boards=3, entrants=entrants) == g for g in games)


def test_the_games_of_one_round_are_between_different_entrants():
    games = schedule(seats=2, boards=1, entrants=6)
    for start in range(0, len(games), 3):
        playing = [e for g in games[start:start + 3] for e in g.entrants]
        assert len(playing) == len(set(playing)) == 6


def test_a_field_plays_each_entrant_alone_on_every_board():
    games = schedule(seats=1, boards=2, entrants=3)
    assert [(g.board, g.entrants) for g in games] == [
        (1, (1,)), (1, (2,)), (1, (3,)), (2, (1,)), (2, (2,)), (2, (3,))
    ]


def refused(arena, room, status, code, key=None, **fields):
    before = (Tournament.objects.count(), Game.objects.count())
    response = arena.set(room, key, **fields)
    body = assert_problem(response, status, code)
    assert (Tournament.objects.count(), Game.objects.count()) == before
    return body


def test_refusals_change_nothing(arena, room):
    mine = bot(room, "Mine")
    other = arena.open("6C")
    theirs = bot(other, "Theirs")
    yatzy_only = bot(room, "Yatzy only", rulesets=("yatzy",))
    refused(arena, room, 400, "invalid", entrants=[{"bot": theirs}, *computers("greedy")])
    refused(arena, room, 400, "invalid", entrants=[{"bot": mine}, {"bot": mine}])
    refused(arena, room, 400, "invalid", entrants=[{"bot": yatzy_only}, *computers("greedy")])
    refused(arena, room, 400, "invalid", entrants=[{"bot": mine}])  # one entrant, two seats
    refused(arena, room, 400, "invalid", entrants=[{"bot": mine, "computer": "greedy"}])
    refused(arena, room, 400, "invalid", entrants=computers("genius", "greedy"))
    refused(arena, room, 400, "invalid", entrants=computers(*["random"] * 65), seats=1)
    refused(arena, room, 400, "invalid", entrants=computers("random"), boards=51, seats=1)
    refused(arena, room, 400, "invalid", entrants=computers("random", "random"),
            clock={"turn_seconds": 9})
    refused(arena, room, 400, "invalid", entrants=computers("random", "random"),
            clock={"turn_seconds": 3601})


def test_too_large_is_counted_exactly(arena, room):
    assert games_count(seats=2, boards=3, entrants=58) == 9918
    arena.set_ok(room, boards=3, entrants=computers(*["random"] * 58),
                 starts_at="2999-01-01T00:00:00Z")
    body = refused(arena, room, 400, "tournament_too_large", boards=3,
                   entrants=computers(*["random"] * 59))  # 10,266 games
    assert "10266 games" in body["detail"]



def test_a_field_takes_a_single_entrant(arena, room):
    alone = arena.set_ok(room, seats=1, entrants=computers("greedy"))
    assert alone["progress"]["games"] == 1


def test_a_student_scrimmages_their_own_bots_and_computers_never_rated(arena, room):
    cleo = arena.join(room, "Cleo")["api_key"]
    arena.join(room, "Dan")
    hers, his = bot(room, "Hers", student="Cleo"), bot(room, "His", student="Dan")
    refused(arena, room, 400, "invalid", key=cleo, entrants=[{"bot": his}, {"bot": hers}])
    scrim = arena.set_ok(room, cleo, entrants=[{"bot": hers}, *computers("optimal")],
                         rated=True)
    assert scrim["rated"] is False and scrim["scrimmage"] is True
    run_due_work()
    assert all(row["rating"] is None for row in arena.read(room, scrim["id"]).json()["standings"])
    # The teacher enters any bot of the classroom.
    cup = arena.set_ok(room, entrants=[{"bot": his}, {"bot": hers}])
    assert cup["rated"] is True and cup["scrimmage"] is False
    # Dan may not cancel Cleo's scrimmage; Cleo may; nobody but the teacher cancels the cup.
    dan = room.students["Dan"]["api_key"]
    cancel = arena.path(room, f"{scrim['id']}/cancel/")
    assert_problem(arena.teacher(cancel, dan, "post"), 403, "forbidden")
    assert_problem(arena.teacher(arena.path(room, f"{cup['id']}/cancel/"), cleo, "post"), 403,
                   "forbidden")
    cancelled = arena.teacher(cancel, cleo, "post")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert_problem(arena.teacher(cancel, cleo, "post"), 409, "tournament_over")


def test_cancelling_abandons_its_games_and_shows_every_secret(arena, room):
    first, second = bot(room, "First"), bot(room, "Second")
    cup = arena.set_ok(room, boards=2, entrants=[{"bot": first}, {"bot": second}],
                       clock={"turn_seconds": 10})
    run_due_work()
    time_passes(cup["id"])
    run_due_work()  # a turn of each game, played for its bot
    assert Game.objects.filter(tournament_id=cup["id"], status="active").count() == 4
    cancelled = arena.teacher(arena.path(room, f"{cup['id']}/cancel/"), room.teacher_key,
                              "post").json()
    assert cancelled["status"] == "cancelled" and len(cancelled["secrets"]) == 2
    games = arena.games(room, cup["id"])
    assert {g["status"] for g in games} == {"abandoned"}
    for game in games:
        assert game["dice"]["secret"] == cancelled["secrets"][game["board"] - 1]
        record = arena.client.get(f"/api/v1/games/{game['id']}/record/").json()
        verified = arena.client.post("/api/v1/records/verify/", record, format="json").json()
        assert verified["valid"] is True and verified["checked"]["dice"] > 0
    run_due_work()
    assert Game.objects.filter(tournament_id=cup["id"]).count() == 4  # no game after it


def test_the_teachers_webhook_hears_it_finish(arena, room, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    hook = arena.teacher("/api/v1/webhooks/", room.teacher_key, "post", {
        "url": "http://127.0.0.1:9/hook", "events": ["tournament.finished"],
    })
    assert hook.status_code == 201, hook.json()
    student = arena.join(room, "Cleo")["api_key"]
    refused_hook = arena.teacher("/api/v1/webhooks/", student, "post", {
        "url": "http://127.0.0.1:9/hook", "events": ["tournament.finished"],
    })
    assert_problem(refused_hook, 400, "invalid")
    cup = arena.set_ok(room, entrants=computers("greedy", "random"))
    run_to_the_end(cup["id"])
    webhook = Webhook.objects.get()
    sent = Delivery.objects.filter(webhook=webhook, event="tournament.finished")
    assert [d.payload["data"] for d in sent] == [{"classroom": room.id, "tournament": cup["id"]}]


def test_standings_as_csv_are_formula_safe(arena, room):
    sneaky = bot(room, "=SUM(A1)")
    cup = arena.set_ok(room, entrants=[{"bot": sneaky}, *computers("greedy")])
    run_to_the_end(cup["id"])
    for asked in ({"HTTP_ACCEPT": "text/csv"}, {}):
        path = arena.path(room, f"{cup['id']}/standings/")
        response = arena.client.get(path + ("" if asked else "?format=csv"),
                                    HTTP_X_API_KEY=room.teacher_key, **asked)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        lines = response.content.decode().splitlines()
        assert lines[0].startswith("rank,entrant,name,games,points")
        assert any(",'=SUM(A1)," in line for line in lines[1:])


def test_a_tournament_and_its_standings_cost_a_few_queries_whatever_its_size(
    arena, room, django_assert_max_num_queries
):
    cup = arena.set_ok(room, boards=3, entrants=computers("greedy", "random", "greedy", "random"))
    run_to_the_end(cup["id"])
    for tail in ("", "standings/"):
        with django_assert_max_num_queries(12):
            assert arena.read(room, cup["id"], tail).status_code == 200
    with django_assert_max_num_queries(14):
        assert arena.read(room, cup["id"], "games/?page_size=100").status_code == 200


def test_cancelling_a_tournament_that_is_not_there_is_not_found(arena, room):
    cleo = arena.join(room, "Cleo")["api_key"]
    path = arena.path(room, "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f/cancel/")
    assert_problem(arena.teacher(path, cleo, "post"), 404, "not_found")
    assert_problem(arena.teacher(path, room.teacher_key, "post"), 404, "not_found")


def test_a_bot_deleted_meanwhile_takes_no_new_seat_and_the_tournament_still_ends(arena, room):
    from games.models import Player

    gone = bot(room, "Gone")
    cup = arena.set_ok(room, entrants=[{"bot": gone}, *computers("random", "random", "random",
                                                                  "random", "random")])
    run_due_work()  # its first 8 games start
    deleted = arena.client.delete(f"/api/v1/bots/{gone}/", HTTP_X_API_KEY=room.teacher_key)
    assert deleted.status_code == 204
    run_to_the_end(cup["id"])
    seats = Player.objects.filter(game__tournament_id=cup["id"], computer__isnull=True)
    assert seats.count() == 10
    assert seats.filter(bot_id=gone).count() == 8
    assert arena.read(room, cup["id"]).json()["status"] == "finished"
