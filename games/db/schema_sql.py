"""SQL that only PostgreSQL runs, for the migrations that add what only it has (the event
log's trigger, the stale-move function): on any other database the step does nothing."""

from collections.abc import Callable
from typing import Any


def on_postgresql(sql: str) -> Callable[[Any, Any], None]:
    """A ``RunPython`` step that runs ``sql`` on PostgreSQL only."""

    def apply(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return apply
