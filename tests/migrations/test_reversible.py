"""Every migration can be undone, or says why not: an operation with no reverse, or whose
reverse does nothing, fails this test unless it is listed below with the reason, and the
list is the one docs/operations.md gives operators ("Rolling back")."""

from pathlib import Path

from django.db import migrations
from django.db.migrations.loader import MigrationLoader

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"

# (migration, index of the operation in it): why going back without undoing it is right.
# Add to this only with the same reason written in docs/operations.md.
NOT_UNDONE = {
    ("0004_idempotency_snapshot", 0): "forgotten replay records cannot come back; a retry "
    "with such a key moves again",
    ("0004_idempotency_snapshot", 5): "the state keys it adds copy the status column, which "
    "is kept; earlier releases do not read them",
    ("0005_classroom", 7): "the cache table (rate-limit counters) is left; earlier releases "
    "do not use it, and migrating forward again finds it made",
    ("0011_work_outside_requests", 0): "a due time set on retried deliveries; the previous "
    "release only shows it, and the reverse of the next step queues their tasks",
    ("0012_limits", 3): "a quota raised above the deployment's default was lowered to it; "
    "the raise is not kept (an operator raises it again in the admin)",
}


def _not_undone() -> dict[tuple[str, int], str]:
    """Each operation of the games app's migrations that has no reverse, or a no-op one."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found = {}
    for (app, name), migration in sorted(loader.disk_migrations.items()):
        if app != "games":
            continue
        for index, operation in enumerate(migration.operations):
            if not operation.reversible:
                found[name, index] = f"{operation.describe()}: no reverse"
            elif isinstance(operation, migrations.RunPython) and (
                operation.reverse_code is migrations.RunPython.noop
            ):
                found[name, index] = f"{operation.describe()}: its reverse does nothing"
            elif isinstance(operation, migrations.RunSQL) and (
                operation.reverse_sql == migrations.RunSQL.noop
            ):
                found[name, index] = f"{operation.describe()}: its reverse does nothing"
    return found


def test_every_migration_step_is_undone_going_back_or_listed_with_its_reason():
    found = _not_undone()
    unexplained = {place: what for place, what in found.items() if place not in NOT_UNDONE}
    assert not unexplained, (
        "give these a reverse, or list them in NOT_UNDONE and docs/operations.md with why: "
        f"{unexplained}"
    )
    assert set(NOT_UNDONE) <= set(found), "listed but now undone: drop them from the list"


def test_the_operators_rollback_section_names_each_step_not_undone():
    text = OPERATIONS.read_text()
    for name, _ in NOT_UNDONE:
        assert f"`{name}`" in text, f"docs/operations.md does not explain {name}"
