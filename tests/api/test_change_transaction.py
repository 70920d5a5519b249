"""A change to a game in two round trips on PostgreSQL (games/db/rows.py, ``change``): the lock
opens the transaction and the writes commit it, and whatever fails leaves nothing behind. A
move of a game the process kept is one: its guarded writes open and commit it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.db import kept, rows
from games.models import Game, IdempotencyRecord
from tests.conftest import pins_the_fast_path, postgres_only

pytestmark = [postgres_only, pins_the_fast_path, pytest.mark.django_db(transaction=True)]


def idle() -> bool:
    """Whether the connection is back in Django's hands: no transaction left open on the
    server, and the driver opening transactions itself again."""
    raw = connection.connection
    return raw.info.transaction_status == raw.info.transaction_status.IDLE and (
        raw.autocommit is connection.get_autocommit()
    )


def test_a_move_opens_its_transaction_with_its_read_and_commits_it_with_its_writes(api) -> None:
    game = api.create()
    api.ok(game, "roll")  # the strategy question of a game's first move is asked
    kept.clear()  # as in a process that did not write the game last
    with CaptureQueriesContext(connection) as queries:
        api.ok(game, "hold", {"hold": [0]})
    sent = [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(sent) == 2
    assert sent[0].startswith("BEGIN; SELECT") and "FOR UPDATE" in sent[0]
    assert sent[1].startswith("UPDATE") and sent[1].endswith("; COMMIT")
    assert idle()
    assert api.get(game)["version"] == 3


def test_a_move_of_a_kept_game_opens_and_commits_its_transaction_with_its_writes(api) -> None:
    game = api.create()
    api.ok(game, "roll")
    with CaptureQueriesContext(connection) as queries:
        api.ok(game, "hold", {"hold": [0]})
    sent = [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(sent) == 1
    assert sent[0].startswith("BEGIN; WITH changed AS (UPDATE") and "xmin" in sent[0]
    assert sent[0].endswith("; COMMIT")
    assert idle()
    assert api.get(game)["version"] == 3


def test_a_stale_kept_game_leaves_the_connection_as_it_found_it(api) -> None:
    game = api.create()
    api.ok(game, "roll")
    Game.objects.filter(pk=game["id"]).update(figures_kept=False)  # another writer
    assert api.ok(game, "hold", {"hold": [0]})["version"] == 3
    assert idle()


def test_a_refused_move_rolls_back_and_the_next_one_plays(api) -> None:
    game = api.create()
    refused = api.move(game, "score", {"category": "chance"})  # no roll yet
    assert refused.status_code == 409
    assert idle()
    assert api.get(game)["version"] == 1
    api.ok(game, "roll")
    assert api.get(game)["version"] == 2


def test_writes_that_fail_at_the_commit_undo_what_the_change_did_before(api, monkeypatch) -> None:
    """The idempotency record is written through the ORM before the game's writes go; when
    those fail, neither is kept and the game stays as it was."""
    game = api.create()
    later = rows.later

    def failing(statements, then=None):
        later([rows.Statement("SELECT 1/0", []), *statements], then)

    monkeypatch.setattr(rows, "later", failing)
    assert api.move(game, "roll", HTTP_IDEMPOTENCY_KEY="once").status_code == 500
    monkeypatch.undo()
    assert idle()
    assert not IdempotencyRecord.objects.exists()
    assert Game.objects.get(pk=game["id"]).version == 1
    assert api.ok(game, "roll", HTTP_IDEMPOTENCY_KEY="once")["version"] == 2


def test_a_change_whose_first_statement_is_the_orms_opens_the_transaction_first(api) -> None:
    game = api.create()
    with pytest.raises(RuntimeError), rows.change():
        IdempotencyRecord.objects.create(game_id=game["id"], key="k", fingerprint="f")
        raise RuntimeError("the change fails after a write of the ORM")
    assert idle()
    assert not IdempotencyRecord.objects.exists()

