"""Plain SQL built from the models' own fields: the statements ``games.db.gamestore`` runs.

Every move reads its game (locked) and its seats, then updates the game and inserts its
events (and its score entries). Through the ORM most of their cost was building the SQL and
the objects, not running them: about 0.3 ms of the processor's time per statement. Here a
statement is one line of SQL. Each value written goes through its field exactly as the ORM
would send it (``pre_save`` for the ``auto_now`` dates, ``get_db_prep_save`` for JSON, UUIDs
and dates), and each value read through the converters the ORM would apply
(``from_db_value``, and the backend's own), so rows are the same on PostgreSQL and SQLite.

On PostgreSQL the statements of one step go to the server together, in one round trip
(``run``): Django's psycopg backend binds parameters on the client, and then one
``execute`` may carry several statements. The server still runs them one after the other,
each seeing what was committed before it started (a read after a ``FOR UPDATE`` sees the
work of whoever held the lock). SQLite takes one statement per call, so there they go one
by one.
"""

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models


@dataclass(frozen=True)
class Statement:
    sql: str
    params: list[Any]
    reads: bool = False  # whether it answers rows (a ``SELECT``)


def run(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    """Runs the statements in order, in one round trip where the backend allows it; the rows
    each one returned (none for a write)."""
    results: list[list[tuple[Any, ...]]] = []
    if not statements:
        return results
    with connection.cursor() as cursor:
        if _together():
            cursor.execute(
                "; ".join(s.sql for s in statements), [p for s in statements for p in s.params]
            )
            for index, statement in enumerate(statements):
                if index:
                    cursor.nextset()
                results.append(cursor.fetchall() if statement.reads else [])
        else:
            for statement in statements:
                cursor.execute(statement.sql, statement.params)
                results.append(cursor.fetchall() if statement.reads else [])
    return results


def _together() -> bool:
    """Whether one ``execute`` may carry several statements: PostgreSQL, binding on the client
    (Django's default; ``server_side_binding`` turns it off)."""
    return connection.vendor == "postgresql" and not connection.settings_dict.get(
        "OPTIONS", {}
    ).get("server_side_binding")


# -- columns --------------------------------------------------------------------------------


def _field(model: type[models.Model], name: str) -> "models.Field[Any, Any]":
    """The field ``name`` of ``model``; a statement here reads and writes columns, which a
    reverse relation (also found by name) does not have."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} is a reverse relation, not a column")
    return field


def _column(field: "models.Field[Any, Any]") -> str:
    """The quoted name of a concrete field's column."""
    if field.column is None:
        raise TypeError(f"{field.name} has no column")
    return connection.ops.quote_name(field.column)


# -- reads ----------------------------------------------------------------------------------


def select(
    model: type[models.Model],
    where: str,
    params: list[Any],
    *,
    tail: str = "",
    fields: Sequence[str] = (),
    also: Sequence[str] = (),
) -> Statement:
    """``SELECT`` every concrete field of ``model``, in field order, ``WHERE where tail``: rows
    for :func:`instances`. With ``fields``, only those columns, as the database gives them
    (for plain values such as text and integers, which need no converter). ``also``: SQL
    expressions read after the columns, in each row (:func:`instances` leaves them out)."""
    meta, quote = model._meta, connection.ops.quote_name
    chosen = [_field(model, name) for name in fields] or meta.concrete_fields
    columns = ", ".join([*(_column(field) for field in chosen), *also])
    return Statement(
        f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {where}{tail}",  # noqa: S608
        params,
        reads=True,
    )


def instances(model: type[models.Model], rows: Iterable[tuple[Any, ...]]) -> list[Any]:
    """The model objects of rows read by :func:`select`, as the ORM would build them."""
    converters = _converters(model)
    names = [field.attname for field in model._meta.concrete_fields]
    objs = []
    for row in rows:
        values = list(row[: len(names)])
        for index, expression, functions in converters:
            for function in functions:
                values[index] = function(values[index], expression, connection)
        objs.append(model.from_db(connection.alias, names, values))
    return objs


Converter = tuple[int, Any, list[Callable[..., Any]]]
_local = threading.local()  # converters are bound to this thread's connection


def _converters(model: type[models.Model]) -> list[Converter]:
    cache: dict[tuple[type, str], list[Converter]] = _local.__dict__.setdefault("cache", {})
    key = (model, connection.alias)
    if key not in cache:
        found = []
        for index, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(column) + column.get_db_converters(
                connection
            )
            if functions:
                found.append((index, column, functions))
        cache[key] = found
    return cache[key]


# -- writes ---------------------------------------------------------------------------------


def _value(obj: models.Model, field: models.Field, *, add: bool) -> object:
    return field.get_db_prep_save(field.pre_save(obj, add), connection)


def update(obj: models.Model, names: Sequence[str]) -> Statement:
    """``UPDATE`` the named fields of ``obj``'s row (``auto_now`` fields get the time now)."""
    meta, quote = obj._meta, connection.ops.quote_name
    fields = [_field(type(obj), name) for name in names]
    assignments = ", ".join(f"{_column(field)} = %s" for field in fields)
    params = [_value(obj, field, add=False) for field in fields]
    pk = meta.pk
    if pk is None:  # every model here has one; abstract ones have no rows
        raise TypeError(f"{type(obj).__name__} has no primary key")
    params.append(pk.get_db_prep_value(obj.pk, connection))
    return Statement(
        f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {_column(pk)} = %s",  # noqa: S608
        params,
    )


def insert(
    model: type[models.Model],
    objs: Iterable[models.Model],
    *,
    returning: Sequence[str] = (),
    looked_up: Mapping[str, Callable[[Any], Statement]] | None = None,
) -> list[Statement]:
    """``INSERT`` the rows of ``objs`` in one statement, every field but the automatic id
    (no statement at all for no rows).

    ``returning``: fields to read back from the new rows, one row each (in no promised
    order: name one that tells them apart). ``looked_up``: fields whose value each row takes
    from a ``SELECT`` of one value (:func:`select`, given the object), not from the object:
    the id of a row inserted earlier in the same round trip, which is not known yet.
    """
    rows = list(objs)
    if not rows:
        return []
    found = looked_up or {}
    meta, quote = model._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    columns = ", ".join(_column(field) for field in fields)
    values, params = [], []
    for obj in rows:
        cells = []
        for field in fields:
            if field.name in found:
                lookup = found[field.name](obj)
                cells.append(f"({lookup.sql})")
                params.extend(lookup.params)
            else:
                cells.append("%s")
                params.append(_value(obj, field, add=True))
        values.append("(" + ", ".join(cells) + ")")
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {', '.join(values)}"  # noqa: S608
    if returning:
        sql += " RETURNING " + ", ".join(_column(_field(model, name)) for name in returning)
    return [Statement(sql, params, reads=bool(returning))]
