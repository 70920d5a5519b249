"""Plain SQL built from the models' own fields: the statements ``games.db.gamestore`` runs.

Every move reads its game (locked) and its seats, then updates the game and inserts its
events (and its score entries). Through the ORM most of their cost was building the SQL and
the objects, not running them: about 0.3 ms of the processor's time per statement. Here a
statement is one line of SQL. Each value written goes through its field exactly as the ORM
would send it (``pre_save`` for the ``auto_now`` dates, ``get_db_prep_save`` for JSON, UUIDs
and dates), and each value read through the converters the ORM would apply
(``from_db_value``, and the backend's own), so rows are the same on PostgreSQL and SQLite.

On PostgreSQL the statements of one step go to the server together, in one round trip
(``run``), each prepared once per connection (``games.db.pipeline``). The server still
runs them one after the other, each seeing what was committed before it started (a read
after a ``FOR UPDATE`` sees the work of whoever held the lock). SQLite takes one statement
per call, so there they go one by one.
"""

import dataclasses
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.types.json import Jsonb

from games.db import jsonb, pipeline


@dataclass(frozen=True)
class Statement:
    sql: str
    params: list[Any]
    reads: bool = False  # whether it answers rows (a ``SELECT``)


def run(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    """Runs the statements in order, in one round trip where the backend allows it; the rows
    each one returned (none for a write). The first statements run in a :func:`change`
    open its transaction in the same round trip."""
    batch: _Batch | None = getattr(_local, "batch", None)
    if batch is not None and batch.opening:
        batch.opening = False
        return _run([BEGIN, *statements])[1:]
    return _run(statements)


def _run(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    if not statements:
        return []
    if _together():
        return _pipelined(statements)
    results: list[list[tuple[Any, ...]]] = []
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement.sql, statement.params)
            results.append(cursor.fetchall() if statement.reads else [])
    return results


def _pipelined(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    """The statements sent at once, each prepared on the server (``games.db.pipeline``),
    with Django's own account kept: its errors (``DatabaseError`` and the rest, which the API
    answers), its refusal to run anything in a transaction that failed, and, where queries
    are logged, one entry a round trip (their SQL joined by ``;``)."""
    db = _database()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()
    started = time.monotonic()
    with db.wrap_database_errors:
        db.ensure_connection()
        results = pipeline.run(db.connection, [(s.sql, s.params, s.reads) for s in statements])
    if db.queries_logged:
        db.queries_log.append({
            "sql": "; ".join(statement.sql for statement in statements),
            "time": f"{time.monotonic() - started:.3f}",
        })
    return results


def _together() -> bool:
    """Whether several statements may go to the server in one round trip: PostgreSQL, unless
    ``settings.DATABASE_PIPELINE`` is off (then they go one by one, as on SQLite)."""
    return _database().vendor == "postgresql" and settings.DATABASE_PIPELINE


# -- a change in two round trips ------------------------------------------------------------

BEGIN = Statement("BEGIN", [])
COMMIT = Statement("COMMIT", [])


@dataclass
class _Batch:
    opening: bool  # the transaction is still to be opened, with the next statement
    pending: list[tuple[list[Statement], Callable[[list[list[tuple[Any, ...]]]], None] | None]] = (
        dataclasses.field(default_factory=list)
    )


@contextmanager
def change() -> Iterator[None]:
    """``transaction.atomic()`` for a change to a game, in as few round trips as it needs.

    psycopg opens a transaction with a ``BEGIN`` of its own and ends it with a ``COMMIT`` of
    its own, each a round trip to the server: a move, whose work is one read (the game,
    locked) and one write, took four. Here, on PostgreSQL, the ``BEGIN`` goes to the server
    with the first statement and the writes given to :func:`later` go with the ``COMMIT``,
    so a move takes two and a new game one. Django keeps its own account of the transaction
    (``on_commit``, savepoints and nested blocks work as in any atomic block): only the
    driver is told not to open one itself (its autocommit is on while the server's
    transaction is open, which is then the only one). A statement that another part of the
    change runs first, through the ORM, opens the transaction before it goes; an error
    rolls back whatever was begun. Within an atomic block already open, or on SQLite, it is
    an atomic block whose :func:`later` writes run at its end.
    """
    if getattr(_local, "batch", None) is not None:
        raise RuntimeError("a change within a change")
    with transaction.atomic():
        raw = _idle_connection()
        batch = _Batch(opening=raw is not None)
        _local.batch = batch
        try:
            if raw is None:
                yield
                _flush(batch, [])
                return
            raw.autocommit = True
            try:
                with connection.execute_wrapper(_opening):
                    yield
                    _flush(batch, [COMMIT])
            finally:
                _end(raw)
        finally:
            _local.batch = None


def later(
    statements: Sequence[Statement],
    then: Callable[[list[list[tuple[Any, ...]]]], None] | None = None,
) -> None:
    """Writes that go to the server when the :func:`change` under way ends (with its
    ``COMMIT``); ``then`` gets their rows. Outside a change, they run now."""
    batch: _Batch | None = getattr(_local, "batch", None)
    if batch is None:
        results = run(statements)
        if then is not None:
            then(results)
        return
    batch.pending.append((list(statements), then))


def _idle_connection() -> psycopg.Connection[Any] | None:
    """The driver's connection when a change may open its transaction itself: PostgreSQL,
    no transaction begun yet (an atomic block around this one may have begun one; a test's,
    say), statements sent together (``settings.DATABASE_PIPELINE``)."""
    db = _database()
    # More than one atomic block open: the one just entered sits inside another.
    if not _together() or db.savepoint_ids or len(db.atomic_blocks) > 1:
        return None
    db.ensure_connection()
    raw = db.connection
    if raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        return None
    return raw


def _opening(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    """Opens the change's transaction before a statement that is not one of :func:`run`'s."""
    batch: _Batch | None = getattr(_local, "batch", None)
    if batch is not None and batch.opening:
        batch.opening = False
        context["cursor"].execute("BEGIN")
    return execute(sql, params, many, context)


def _flush(batch: _Batch, ending: list[Statement]) -> None:
    """Runs the pending writes, with ``ending`` after them, in one round trip."""
    statements = [s for group, _ in batch.pending for s in group]
    if not statements and batch.opening:
        return  # nothing was read or written: no transaction was opened
    results = run([*statements, *ending])
    offset = 0
    for group, then in batch.pending:
        if then is not None:
            then(results[offset : offset + len(group)])
        offset += len(group)
    batch.pending.clear()


def _end(raw: psycopg.Connection[Any]) -> None:
    """Rolls back a transaction the change opened and did not commit (an error), and gives
    the driver its transactions back."""
    try:
        if raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            raw.rollback()
        raw.autocommit = False
    except psycopg.Error:
        pass  # a broken connection: Django discards it at the end of the atomic block


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


def _pk(model: type[models.Model]) -> "models.Field[Any, Any]":
    """The primary key of ``model``: every model here has one (abstract ones have no rows)."""
    pk = model._meta.pk
    if pk is None:
        raise TypeError(f"{model.__name__} has no primary key")
    return pk


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
    vendor = _database().vendor
    columns = _columns(model, tuple(fields), vendor)
    if also:
        columns = ", ".join([columns, *also])
    table = _table(model, vendor)
    return Statement(
        f"SELECT {columns} FROM {table} WHERE {where}{tail}",  # noqa: S608
        params,
        reads=True,
    )


# The SQL of a model's columns, written once per process: a move's statements name the same
# columns every time, and quoting each name again was a tenth of the work of building them.


@lru_cache(maxsize=256)
def _columns(model: type[models.Model], fields: tuple[str, ...], vendor: str) -> str:
    """The quoted columns of ``fields`` (every concrete field's, without), comma-separated."""
    chosen = [_field(model, name) for name in fields] or model._meta.concrete_fields
    return ", ".join(_column(field) for field in chosen)


@lru_cache(maxsize=64)
def _table(model: type[models.Model], vendor: str) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def instances(model: type[models.Model], rows: Iterable[tuple[Any, ...]]) -> list[Any]:
    """The model objects of rows read by :func:`select`, as the ORM would build them."""
    db = _database()
    converters = _converters(model)
    names = [field.attname for field in model._meta.concrete_fields]
    objs = []
    for row in rows:
        values = list(row[: len(names)])
        for index, expression, functions in converters:
            for function in functions:
                values[index] = function(values[index], expression, db)
        objs.append(model.from_db(db.alias, names, values))
    return objs


Converter = tuple[int, Any, list[Callable[..., Any]]]
_local = threading.local()  # converters are bound to this thread's connection


def _converters(model: type[models.Model]) -> list[Converter]:
    cache: dict[tuple[type, str], list[Converter]] = _local.__dict__.setdefault("cache", {})
    key = (model, _database().alias)
    if key not in cache:
        found = []
        for index, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(column) + column.get_db_converters(
                connection
            )
            if connection.vendor == "postgresql" and jsonb.plain(field):
                functions = [
                    jsonb.from_db_value if function == field.from_db_value else function
                    for function in functions
                ]
            if functions:
                found.append((index, column, functions))
        cache[key] = found
    return cache[key]


# -- writes ---------------------------------------------------------------------------------


def _database() -> BaseDatabaseWrapper:
    """This thread's connection itself, not the ``connection`` proxy: a statement's values
    are prepared with it once looked up, instead of looking it up again for each of them
    (and again inside each field's own preparation)."""
    return connections[DEFAULT_DB_ALIAS]


def _value(obj: models.Model, field: models.Field, db: BaseDatabaseWrapper, *, add: bool) -> object:
    value = field.pre_save(obj, add)
    if value is not None and db.vendor == "postgresql" and jsonb.plain(field):
        return Jsonb(value, dumps=jsonb.dumps)  # as the field would, by orjson
    return field.get_db_prep_save(value, db)


def update(obj: models.Model, names: Sequence[str]) -> Statement:
    """``UPDATE`` the named fields of ``obj``'s row (``auto_now`` fields get the time now)."""
    db, model = _database(), type(obj)
    params = [_value(obj, field, db, add=False) for field in _fields(model, tuple(names))]
    params.append(_pk(model).get_db_prep_value(obj.pk, db))
    return Statement(_update_sql(model, tuple(names), db.vendor), params)


@lru_cache(maxsize=64)
def _fields(
    model: type[models.Model], names: tuple[str, ...]
) -> "tuple[models.Field[Any, Any], ...]":
    return tuple(_field(model, name) for name in names)


@lru_cache(maxsize=64)
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    assignments = ", ".join(f"{_column(_field(model, name))} = %s" for name in names)
    return f"UPDATE {_table(model, vendor)} SET {assignments} WHERE {_column(_pk(model))} = %s"  # noqa: S608


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
    db = _database()
    meta, vendor = model._meta, db.vendor
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    columns = _columns(model, tuple(field.name for field in fields), vendor)
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
                params.append(_value(obj, field, db, add=True))
        values.append("(" + ", ".join(cells) + ")")
    sql = f"INSERT INTO {_table(model, vendor)} ({columns}) VALUES {', '.join(values)}"  # noqa: S608
    if returning:
        sql += " RETURNING " + _columns(model, tuple(returning), vendor)
    return [Statement(sql, params, reads=bool(returning))]
