"""The migration that brings verifiable dice keeps every stored game on its old dice: games
created before it are marked "legacy" and go on playing, with no secret to show."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0006_event_notify_trigger")]
AFTER = [("games", "0007_verifiable_dice")]


@pytest.mark.django_db(transaction=True)
def test_games_stored_before_the_migration_keep_their_drawn_dice():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("games", "Game")
    stored = old.objects.create(ruleset="yahtzee", options={}, state={"finished": False})
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("games", "Game")
    game = new.objects.get(pk=stored.pk)
    assert (game.dice_algorithm, game.dice_secret, game.client_seed) == ("legacy", "", "")
    created = new.objects.create(ruleset="yahtzee", options={}, state={"finished": False})
    assert created.dice_algorithm == "hmac-sha256-v1"
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
