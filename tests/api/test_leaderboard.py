"""The high-score table: which seats count, their order and ranks, periods, limits, errors."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, Player
from games.play import services
from scoring.match import GameStatus, Seat

from .conftest import assert_problem

URL = "/api/v1/leaderboard/"


def finished_game(
    totals: dict[str, int],
    *,
    ruleset: str = "yahtzee",
    ago: timedelta = timedelta(hours=1),
    seed: int | None = None,
) -> Game:
    """A game made by the service, then put straight at its end with these exact totals.

    Playing to chosen totals would take thousands of moves; the table reads only the
    game's status, rank, finish time and the seats' totals, which is what this sets.
    """
    created = services.game_create(
        ruleset_id=ruleset,
        options=None,
        players=[Seat(name) for name in totals],
        seed=seed,
    )
    Game.objects.filter(pk=created.game.pk).update(
        status=GameStatus.FINISHED, finished_at=timezone.now() - ago
    )
    for player in created.players:
        Player.objects.filter(pk=player.pk).update(total=totals[player.name])
    return Game.objects.get(pk=created.game.pk)


def table(api: Any, **query: Any) -> list[dict[str, Any]]:
    response = api.client.get(URL, {"ruleset": "yahtzee", **query})
    assert response.status_code == 200, response.json()
    return response.json()


def scores(api: Any, **query: Any) -> list[tuple[int, str, int]]:
    return [(row["rank"], row["name"], row["score"]) for row in table(api, **query)]


def test_a_game_played_to_the_end_enters_the_table(api):
    game = api.create(("Ann",))
    for _ in range(13):
        game_now = api.play_turn(game)
    assert game_now["status"] == "finished"
    assert table(api) == [
        {
            "rank": 1,
            "name": "Ann",
            "score": game_now["players"][0]["total"],
            "game": game["id"],
            "finished_at": game_now["finished_at"],
        }
    ]


def test_highest_first_and_equal_scores_share_a_rank_earlier_finish_first(api):
    finished_game({"Ann": 250}, ago=timedelta(hours=3))
    finished_game({"Ben": 280}, ago=timedelta(hours=1))
    finished_game({"Cid": 280, "Dee": 200}, ago=timedelta(hours=2))
    finished_game({"Eve": 250}, ago=timedelta(hours=5))
    assert scores(api) == [
        (1, "Cid", 280),
        (1, "Ben", 280),
        (3, "Eve", 250),
        (3, "Ann", 250),
        (5, "Dee", 200),
    ]


def test_every_game_of_a_person_is_a_row_of_its_own(api):
    first = finished_game({"Ann": 240}, ago=timedelta(hours=2))
    second = finished_game({"Ann": 260})
    rows = table(api)
    assert [(row["name"], row["score"], row["game"]) for row in rows] == [
        ("Ann", 260, str(second.pk)),
        ("Ann", 240, str(first.pk)),
    ]


def test_seeded_games_are_unranked_and_never_listed(api):
    finished_game({"Ann": 200})
    finished_game({"Lucky": 400}, seed=7)
    assert scores(api) == [(1, "Ann", 200)]


def test_games_that_are_not_finished_are_not_listed(api):
    finished_game({"Ann": 200})
    active = api.create(("Ben",))
    api.play_turn(active)
    waiting = api.create(("Cid",))
    Game.objects.filter(pk=waiting["id"]).update(status=GameStatus.WAITING)
    abandoned = api.create(("Dee",))
    services.game_abandon(game_id=abandoned["id"], by="test")
    Player.objects.exclude(name="Ann").update(total=500)
    assert scores(api) == [(1, "Ann", 200)]


def test_each_ruleset_has_a_table_of_its_own(api):
    finished_game({"Ann": 200})
    finished_game({"Ben": 300}, ruleset="yatzy")
    finished_game({"Cid": 10000}, ruleset="ten-thousand")
    assert scores(api) == [(1, "Ann", 200)]
    assert scores(api, ruleset="yatzy") == [(1, "Ben", 300)]
    assert scores(api, ruleset="ten-thousand") == [(1, "Cid", 10000)]
    assert table(api, ruleset="maxi-yatzy") == []


def test_computer_seats_are_not_listed(api):
    game = finished_game({"Ann": 200})
    Player.objects.create(game=game, seat=1, name="Bot", computer="optimal", total=350)
    assert scores(api) == [(1, "Ann", 200)]


@pytest.mark.parametrize(
    ("period", "names"),
    [
        ("day", ["Hour", "Nearly a day"]),
        ("week", ["Hour", "Nearly a day", "Over a day", "Nearly a week"]),
        ("all", ["Hour", "Nearly a day", "Over a day", "Nearly a week", "Over a week"]),
    ],
)
def test_the_period_keeps_games_finished_within_it(api, period, names):
    finished_game({"Hour": 300}, ago=timedelta(hours=1))
    finished_game({"Nearly a day": 290}, ago=timedelta(hours=23))
    finished_game({"Over a day": 280}, ago=timedelta(hours=25))
    finished_game({"Nearly a week": 270}, ago=timedelta(days=6, hours=23))
    finished_game({"Over a week": 260}, ago=timedelta(days=7, hours=1))
    assert [row["name"] for row in table(api, period=period)] == names


def test_the_period_is_all_time_by_default(api):
    finished_game({"Old": 300}, ago=timedelta(days=400))
    assert scores(api) == [(1, "Old", 300)]


def test_the_table_has_twenty_rows_unless_a_limit_is_given(api):
    for game in range(5):
        finished_game({f"P{game}.{seat}": 100 + game * 5 + seat for seat in range(5)})
    assert len(table(api)) == 20
    assert len(table(api, limit=100)) == 25
    assert scores(api, limit=3) == [(1, "P4.4", 124), (2, "P4.3", 123), (3, "P4.2", 122)]


def test_a_cut_table_still_ranks_ties_right(api):
    finished_game({"Ann": 300, "Ben": 280, "Cid": 280, "Dee": 280})
    assert scores(api, limit=3) == [(1, "Ann", 300), (2, "Ben", 280), (2, "Cid", 280)]


@pytest.mark.parametrize("games", [1, 12])
def test_the_table_costs_one_query(api, django_assert_num_queries, games):
    for game in range(games):
        finished_game({f"A{game}": 100 + game, f"B{game}": 50 + game})
    with django_assert_num_queries(1):
        assert len(table(api, limit=100)) == 2 * games


@pytest.mark.parametrize(
    ("query", "code", "field"),
    [
        ({}, "invalid", "ruleset"),
        ({"ruleset": ""}, "invalid", "ruleset"),
        ({"ruleset": "chess"}, "unknown_ruleset", "ruleset"),
        ({"ruleset": "yahtzee", "period": "month"}, "invalid", "period"),
        ({"ruleset": "yahtzee", "limit": "0"}, "invalid", "limit"),
        ({"ruleset": "yahtzee", "limit": "101"}, "invalid", "limit"),
        ({"ruleset": "yahtzee", "limit": "ten"}, "invalid", "limit"),
    ],
)
def test_bad_parameters_are_refused_with_a_problem(api, query, code, field):
    body = assert_problem(api.client.get(URL, query), 400, code)
    assert [error["field"] for error in body["errors"]] == [field]


def test_the_schema_documents_the_table(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/leaderboard/"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    assert parameters["ruleset"]["required"] is True
    assert parameters["period"]["schema"]["enum"] == ["day", "week", "all"]
    assert parameters["limit"]["schema"]["maximum"] == 100
    assert "application/problem+json" in operation["responses"]["400"]["content"]


def test_games_played_with_house_rules_are_not_ranked(api):
    from django.utils import timezone

    from games.models import Game, Player
    from games.play import services

    for name, options in [("Fair", {}), ("Cheat", {"target": 50, "bank_minimum": 0})]:
        created = services.game_create(
            ruleset_id="ten-thousand", options=options, players=[Seat(name)]
        )
        Game.objects.filter(pk=created.game.pk).update(
            status="finished", finished_at=timezone.now()
        )
        Player.objects.filter(game=created.game).update(total=10_000 if name == "Fair" else 99_999)
    table = api.client.get("/api/v1/leaderboard/?ruleset=ten-thousand").json()
    assert [row["name"] for row in table] == ["Fair"]
