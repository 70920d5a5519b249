"""The writes every move makes, as plain SQL statements built from the models' own fields.

A move updates its game and inserts its events (and its score entries): three statements or
so, on every request of a game. Through the ORM most of their cost was building the SQL,
not running it: about 0.3 ms of the processor's time each. Here a statement is one line of
SQL, and each value goes through its field exactly as the ORM would send it (``pre_save``
for the ``auto_now`` dates, ``get_db_prep_save`` for JSON, UUIDs and dates), so the rows
written are the same on PostgreSQL and on SQLite. Nothing is read back: the caller keeps
its objects, and new rows' ids are not needed.
"""

from collections.abc import Iterable, Sequence

from django.db import connection, models


def _value(obj: models.Model, field: models.Field, *, add: bool) -> object:
    return field.get_db_prep_save(field.pre_save(obj, add), connection)


def update_row(obj: models.Model, names: Sequence[str]) -> None:
    """``UPDATE`` the named fields of ``obj``'s row (``auto_now`` fields get the time now)."""
    meta, quote = obj._meta, connection.ops.quote_name
    fields = [meta.get_field(name) for name in names]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    params = [_value(obj, field, add=False) for field in fields]
    params.append(meta.pk.get_db_prep_value(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s",  # noqa: S608
            params,
        )


def insert_rows(model: type[models.Model], objs: Iterable[models.Model]) -> None:
    """``INSERT`` the rows of ``objs`` in one statement, every field but the automatic id."""
    rows = list(objs)
    if not rows:
        return
    meta, quote = model._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    columns = ", ".join(quote(field.column) for field in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    params = [_value(obj, field, add=True) for obj in rows for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {', '.join([one] * len(rows))}",  # noqa: S608
            params,
        )
