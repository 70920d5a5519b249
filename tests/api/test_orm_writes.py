"""``DATABASE_WRITES=orm``: the game store (games/db/gamestore.py) reads and writes a game
through Django's ORM the plain way, and a client sees the same game as through the
hand-written SQL: the same answers, the same log and score sheet, the same refusals."""

from typing import Any

import pytest

from games.db import gamestore, rows
from games.models import Event, Game, Player, ScoreEntry

from .conftest import Api, assert_problem

pytestmark = pytest.mark.django_db


def played(api: Api) -> tuple[dict[str, Any], list[Any]]:
    """A seeded game of two (the second joins), a turn played, a refused move, and what a
    client saw: each answer but for the ids and tokens, the log and the score sheet."""
    game = api.create(("Ann",), open_seats=1, seed=11)
    joined = api.client.post(f"/api/v1/games/{game['id']}/join/", {"name": "Ben"}, format="json")
    assert joined.status_code == 201, joined.json()
    seen = [joined.json(), api.ok(game, "roll"), api.ok(game, "roll", {"hold": [0, 1]})]
    seen.append(api.ok(game, "score", {"category": next(iter(seen[-1]["choices"]))}))
    refused = api.move(game, "score", {"category": "chance"})
    assert_problem(refused, 409, "not_your_turn")
    seen.append(api.get(game))
    seen.append([(e["seq"], e["type"], e["seat"], e["data"]) for e in api.events(game)])
    sheet = ScoreEntry.objects.filter(game_id=game["id"]).values_list(
        "player__seat", "category", "points", "round"
    )
    seen.append(list(sheet))
    seen.append(list(Player.objects.filter(game_id=game["id"]).values_list("seat", "total")))
    return game, [without_ids(answer) for answer in seen]


def without_ids(value: Any) -> Any:
    """An answer as any game with the same seed and moves answers it."""
    if isinstance(value, dict):
        return {
            key: without_ids(item) for key, item in value.items()
            if key not in {"id", "token", "created_at", "updated_at", "url", "links", "game"}
        }
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


def test_the_orm_writes_the_same_game_as_the_hand_written_sql(api, settings, monkeypatch):
    _, through_sql = played(api)
    settings.DATABASE_WRITES = "orm"

    def refused(statements: Any) -> Any:
        raise AssertionError(f"the hand-written SQL ran: {statements}")

    monkeypatch.setattr(rows, "run", refused)
    monkeypatch.setattr(rows, "later", refused)
    game, through_orm = played(api)
    assert through_orm == through_sql
    assert Game.objects.get(pk=game["id"]).version == through_sql[4]["version"]


def test_with_the_orm_a_refused_move_writes_nothing(api, settings):
    settings.DATABASE_WRITES = "orm"
    game = api.create(("Ann",))
    version = api.get(game)["version"]
    refused = api.move(game, "score", {"category": "chance"})
    assert refused.status_code in (400, 409)
    assert api.get(game)["version"] == version
    assert Event.objects.filter(game_id=game["id"]).count() == 1


def test_with_the_orm_no_game_is_kept_and_every_move_reads_its_game(api, settings):
    settings.DATABASE_WRITES = "orm"
    game = api.create(("Ann",))
    api.ok(game, "roll")
    assert gamestore.kept_game_take(game["id"]) is None
    assert api.ok(game, "roll")["version"] == 3


@pytest.mark.parametrize("game_id", ["not-a-game", "9b1c3f5e-0d2a-4c7e-8f61-2a4b6c8d0e1f"])
def test_with_the_orm_an_id_that_is_no_games_finds_nothing(settings, game_id):
    settings.DATABASE_WRITES = "orm"
    assert gamestore.game_lock(game_id) is None
    assert gamestore.game_log(game_id, after=0, limit=5) is None


def test_with_the_orm_the_log_reads_after_a_seq_in_order(api, settings):
    settings.DATABASE_WRITES = "orm"
    game = api.create(("Ann",))
    api.ok(game, "roll")
    api.ok(game, "roll")
    status, last_seq, events = gamestore.game_log(game["id"], after=1, limit=1)
    assert (status, last_seq) == ("active", 3)
    assert [(e.seq, e.type) for e in events] == [(2, "rolled")]
