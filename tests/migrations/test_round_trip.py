"""An upgrade and a rollback keep the data: a database of the release that ran its work as
queued tasks (its last migration ``0010_webhooks``), holding a bit of everything, is
migrated to the latest migration and back, and every row is still there both ways; going
back, the previous release's task table is made again with the work that is due queued in it
(docs/operations.md, "Upgrading and rolling back"). Runs on the database the suite runs on:
SQLite, or PostgreSQL with DATABASE_URL."""

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

PREVIOUS = [("games", "0010_webhooks")]
TASKS = importlib.import_module("games.migrations.0011_work_outside_requests")

# What both releases know of each kind of row, compared before and after.
KEPT = {
    "Game": ["ruleset", "status", "version", "state", "deadline", "classroom_id", "student_id"],
    "Player": ["game_id", "seat", "name", "computer", "total"],
    "ScoreEntry": ["player_id", "category", "points", "round"],
    "Event": ["game_id", "seq", "type", "data"],
    "Classroom": ["name", "join_code", "quota"],
    "Student": ["classroom_id", "joined_at"],
    "ApiKey": ["prefix", "digest", "role", "student_id"],
    "Assignment": ["classroom_id", "title", "due_at", "closed_at", "secrets"],
    "Webhook": ["api_key_id", "url", "events"],
    "Delivery": ["webhook_id", "event", "payload", "status", "next_attempt_at"],
}


def _rows(apps) -> dict[str, dict[Any, tuple]]:
    return {
        model: {
            row[0]: tuple(row[1:])
            for row in apps.get_model("games", model).objects.values_list("pk", *fields)
        }
        for model, fields in KEPT.items()
    }


def _fill(apps) -> dict[str, Any]:
    """A bit of everything the previous release stored, through its own models."""
    model = lambda name: apps.get_model("games", name)  # noqa: E731
    now = timezone.now()
    room = model("Classroom").objects.create(name="5B", join_code="ABCDEFGH", quota={})
    ann = model("Student").objects.create(classroom=room, name="Ann", name_key="ann")
    # Look-alikes the previous rule let in: the migration keeps both students, told apart.
    wide = model("Student").objects.create(
        classroom=room, name="\uff21\uff2e\uff2e", name_key="\uff41\uff4e\uff4e"
    )
    hidden = model("Student").objects.create(classroom=room, name="Bo\u200b", name_key="bo\u200b")
    key = model("ApiKey").objects.create(
        prefix="p1", digest="d" * 64, role="student", classroom=room, student=ann
    )
    game = model("Game").objects.create(
        ruleset="yahtzee", state={"finished": False}, classroom=room, student=ann, version=3,
        clock_seconds=60, clock_max_timeouts=3, deadline=now + timedelta(minutes=1),
    )
    seat = model("Player").objects.create(game=game, seat=0, name="Ann", token_hash="t" * 64)
    model("Player").objects.create(game=game, seat=1, name="Bot", computer="greedy",
                                   token_hash="u" * 64)
    model("ScoreEntry").objects.create(game=game, player=seat, category="chance", points=21,
                                       round=1)
    for seq, kind in enumerate(["created", "rolled", "scored"], start=1):
        model("Event").objects.create(game=game, seq=seq, type=kind, seat=0, data={"n": seq})
    assignment = model("Assignment").objects.create(
        classroom=room, title="Week 1", ruleset="yahtzee", games=2, opens_at=now,
        due_at=now + timedelta(days=7), secrets=["00" * 32, "11" * 32],
    )
    hook = model("Webhook").objects.create(
        api_key=key, url="https://example.org/hook", events=["game.finished"], secret="s"
    )
    delivery = model("Delivery").objects.create(
        webhook=hook, event="game.finished", payload={"game": str(game.id)}, status="retrying",
        next_attempt_at=now + timedelta(seconds=30),
    )
    return {"game": game, "assignment": assignment, "delivery": delivery,
            "students": (ann.pk, wide.pk, hidden.pk)}


def _previous_task_engine(executor) -> None:
    """The previous release's task table as its task app made it, with one finished task."""
    MigrationRecorder(connection).record_applied(
        TASKS.TASK_APP, "0021_conditional_partial_index_ordering"
    )
    with connection.schema_editor() as editor:
        task = TASKS._task_model(editor)
        editor.create_model(task)
    task.objects.create(
        task_path="games.hooks.sending.send", args_kwargs={"args": ["x"], "kwargs": {}},
        run_after=timezone.now(), backend_name="default", status="SUCCESSFUL",
        exception_class_path="", traceback="",
    )


def _queued() -> set[tuple[str, tuple, Any]]:
    task = TASKS._task_model(None)
    return {
        (path, tuple(args_kwargs["args"]), run_after)
        for path, args_kwargs, run_after in task.objects.filter(status="READY").values_list(
            "task_path", "args_kwargs", "run_after"
        )
    }


@pytest.fixture
def executor(transactional_db):
    executor = MigrationExecutor(connection)
    yield executor
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    MigrationRecorder(connection).migration_qs.filter(app=TASKS.TASK_APP).delete()
    with connection.schema_editor() as editor:
        editor.execute(f"DROP TABLE IF EXISTS {TASKS.TASK_TABLE}")


def test_an_upgrade_and_a_rollback_keep_every_row(executor):
    executor.migrate(PREVIOUS)
    _previous_task_engine(executor)
    stored = _fill(executor.loader.project_state(PREVIOUS).apps)
    before = _rows(executor.loader.project_state(PREVIOUS).apps)

    executor.loader.build_graph()
    latest = [node for node in executor.loader.graph.leaf_nodes() if node[0] == "games"]
    executor.migrate(latest)
    upgraded = executor.loader.project_state(latest).apps
    assert TASKS.TASK_TABLE not in connection.introspection.table_names()
    assert _rows(upgraded) == before
    Student = upgraded.get_model("games", "Student")
    assert [Student.objects.get(pk=pk).name for pk in stored["students"]] == [
        "Ann", "ANN (2)", "Bo"
    ]
    assert Student.objects.get(pk=stored["students"][1]).name_key == "ann (2)"

    executor.loader.build_graph()
    executor.migrate(PREVIOUS)
    assert _rows(executor.loader.project_state(PREVIOUS).apps) == before
    game, assignment, delivery = stored["game"], stored["assignment"], stored["delivery"]
    assert _queued() == {
        ("games.play.services.clock_fires", (str(game.id), 3), game.deadline),
        ("games.classrooms.assignments.close_at_deadline", (str(assignment.id),),
         assignment.due_at),
        ("games.hooks.sending.send", (str(delivery.id),), delivery.next_attempt_at),
    }
    Student = executor.loader.project_state(PREVIOUS).apps.get_model("games", "Student")
    assert sorted(Student.objects.values_list("name_key", flat=True)) == ["ann", "ann (2)", "bo"]


def test_a_database_that_never_had_the_task_engine_gets_no_task_table(executor):
    executor.migrate(PREVIOUS)
    executor.loader.build_graph()
    executor.migrate([node for node in executor.loader.graph.leaf_nodes() if node[0] == "games"])
    executor.loader.build_graph()
    executor.migrate(PREVIOUS)
    assert TASKS.TASK_TABLE not in connection.introspection.table_names()


def test_every_migration_runs_backwards_to_the_first_with_a_game_stored(executor):
    executor.loader.build_graph()
    latest = [node for node in executor.loader.graph.leaf_nodes() if node[0] == "games"]
    executor.migrate(latest)
    apps = executor.loader.project_state(latest).apps
    game = apps.get_model("games", "Game").objects.create(ruleset="yahtzee", state={})
    apps.get_model("games", "IdempotencyRecord").objects.create(
        game=game, key="k", fingerprint="f", snapshot=[]
    )
    first = [("games", "0001_initial")]
    executor.loader.build_graph()
    executor.migrate(first)
    old = executor.loader.project_state(first).apps
    assert list(old.get_model("games", "Game").objects.values_list("pk", flat=True)) == [game.pk]
    assert not old.get_model("games", "IdempotencyRecord").objects.exists()
