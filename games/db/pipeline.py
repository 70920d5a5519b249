"""A game's statements sent to PostgreSQL prepared, all at once, in libpq's pipeline mode.

A move is two round trips (``games.db.rows.change``): the lock and read, then the writes and
the commit. Sent as one string of SQL with the values quoted in it (Django's client-side
binding), PostgreSQL parsed and planned every statement again on every move: about a
quarter of its processor time a move. Here each statement is prepared once per connection
and then only executed, its values sent as parameters. psycopg's own pipeline
(``Connection.pipeline()``) does the same, but its bookkeeping in Python cost the client
more than the quoted string did, where this module costs it less
(``python -m tests.bench.pipeline``; docs/benchmark.md). It speaks to libpq through
psycopg's ``pq`` layer and adapts values with psycopg's own ``Transformer`` (the
connection's adapters, Django's among them), so values go and come back exactly as through
a cursor.

Only this module's statements are prepared (under names of its own, per connection); the
ORM's queries still bind on the client. A connection prepares at most ``PREPARED_MAX``
statements; any others run unnamed, and so do all of them on a connection whose
``prepare_threshold`` is None (``DATABASE_PREPARE=false``: for a pooler in front of the
database that does not keep a session's prepared statements).
"""

import select
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import abc, errors, pq
from psycopg.adapt import PyFormat, Transformer

PREPARED_MAX = 200

Rows = list[tuple[Any, ...]]
Key = tuple[bytes, tuple[int, ...]]  # a statement's SQL and its parameters' types
Statement = tuple[str, Sequence[Any], bool]  # SQL with %s placeholders, values, reads rows


@dataclass
class _Session:
    """What this module knows of one connection: the statements it prepared there (by their
    SQL and parameter types, as psycopg keys its own) and its adapter for values."""

    transformer: abc.Transformer
    names: dict[Key, bytes] = field(default_factory=dict)
    sent: dict[Key, bytes] = field(default_factory=dict)  # being prepared, not known yet
    made: int = 0  # names given so far (each one once, whether it was prepared or not)


_sessions: "weakref.WeakKeyDictionary[psycopg.Connection[Any], _Session]" = (
    weakref.WeakKeyDictionary()
)


def run(raw: psycopg.Connection[Any], statements: Sequence[Statement]) -> list[Rows]:
    """Runs ``(sql, params, reads)`` statements in order, in one round trip; the rows of each
    (none for one that does not read). A transaction is begun first where the driver would
    begin one (autocommit off, none open). The first error raises, as psycopg would raise
    it, once every answer is in: the statements after it did not run."""
    session = _sessions.get(raw)
    if session is None:
        session = _sessions[raw] = _Session(Transformer(raw))
    if not raw.autocommit and raw.info.transaction_status == pq.TransactionStatus.IDLE:
        statements = [("BEGIN", (), False), *statements]
        opened = 1
    else:
        opened = 0
    pg = raw.pgconn
    fresh: list[Key | None] = []
    prepare = raw.prepare_threshold is not None  # psycopg's own switch: None, never prepare
    pg.enter_pipeline_mode()
    try:
        for sql, params, _ in statements:
            fresh.append(_send(pg, session, sql, params, prepare=prepare))
        pg.pipeline_sync()
        results = _receive(pg)
    finally:
        _leave(raw)
        sent, session.sent = session.sent, {}
    answers = _answers(raw, session, statements, fresh, sent, results)
    return answers[opened:]


def _send(
    pg: pq.abc.PGconn, session: _Session, sql: str, params: Sequence[Any], *, prepare: bool
) -> Key | None:
    """Sends one statement, preparing it first if this connection has not (and may); the key
    of a statement prepared now (None otherwise)."""
    query = _numbered(sql)
    transformer = session.transformer
    values = transformer.dump_sequence(params, [PyFormat.AUTO] * len(params))
    types, formats = transformer.types or (), transformer.formats
    key = (query, types)
    name = session.names.get(key) or session.sent.get(key)
    if name is None and prepare and session.made < PREPARED_MAX:
        name = session.sent[key] = b"games_%d" % session.made
        session.made += 1
        pg.send_prepare(name, query, param_types=types)
        pg.send_query_prepared(name, values, param_formats=formats)
        return key
    if name is None:
        pg.send_query_params(query, values, param_types=types, param_formats=formats)
    else:
        pg.send_query_prepared(name, values, param_formats=formats)
    return None


@lru_cache(maxsize=512)
def _numbered(sql: str) -> bytes:
    """Django's ``%s`` placeholders as PostgreSQL's ``$1``, ``$2``...; ``%%`` is a ``%``."""
    parts = sql.split("%%")
    count = 0
    out = []
    for part in parts:
        pieces = part.split("%s")
        for index, piece in enumerate(pieces):
            if "%" in piece:
                raise ValueError(f"only %s and %% may follow a % in {sql!r}")
            if index:
                count += 1
                out.append(f"${count}")
            out.append(piece)
        out.append("%")
    return "".join(out[:-1]).encode()


def _receive(pg: pq.abc.PGconn) -> list[pq.abc.PGresult]:
    """Every result up to the pipeline's sync, in order (libpq's separators left out)."""
    while pg.flush():  # what is left to send, reading meanwhile so the server never waits on us
        if _wait(pg, select.POLLIN | select.POLLOUT) & select.POLLIN:
            pg.consume_input()
    results: list[pq.abc.PGresult] = []
    while True:
        pg.consume_input()
        while not pg.is_busy():
            result = pg.get_result()
            if result is None:
                continue
            if result.status == pq.ExecStatus.PIPELINE_SYNC:
                return results
            results.append(result)
        _wait(pg, select.POLLIN)


def _wait(pg: pq.abc.PGconn, events: int) -> int:
    """Waits until the connection's socket is ready for ``events``; what it is ready for.
    ``poll``, not ``select``: a worker with many streams open has descriptors above 1024."""
    poller = select.poll()
    poller.register(pg.socket, events | select.POLLERR | select.POLLHUP)
    ready = 0
    while not ready:
        ready = sum(mask for _, mask in poller.poll())
    return ready


def _leave(raw: psycopg.Connection[Any]) -> None:
    """Takes the connection out of pipeline mode; one that cannot leave it (lost halfway,
    answers still unread) is closed, so that no one is lent it again."""
    try:
        raw.pgconn.exit_pipeline_mode()
    except psycopg.Error:
        raw.close()


def _answers(
    raw: psycopg.Connection[Any],
    session: _Session,
    statements: Sequence[Statement],
    fresh: list[Key | None],
    sent: dict[Key, bytes],
    results: list[pq.abc.PGresult],
) -> list[Rows]:
    """The rows of each statement from the results, in order; the statements prepared now
    remembered; the first error raised."""
    answers: list[Rows] = []
    failure: psycopg.Error | None = None
    found = iter(results)
    transformer = session.transformer
    for (_, _, reads), key in zip(statements, fresh, strict=True):
        if key is not None:
            prepared = next(found)
            if prepared.status == pq.ExecStatus.COMMAND_OK:
                session.names[key] = sent[key]
            elif failure is None and prepared.status == pq.ExecStatus.FATAL_ERROR:
                failure = errors.error_from_result(prepared, encoding=raw.info.encoding)
        result = next(found)
        if result.status == pq.ExecStatus.TUPLES_OK and reads:
            transformer.set_pgresult(result)
            answers.append(transformer.load_rows(0, result.ntuples, tuple))
        elif result.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
            answers.append([])
        elif failure is None and result.status == pq.ExecStatus.FATAL_ERROR:
            failure = errors.error_from_result(result, encoding=raw.info.encoding)
    if failure is not None:
        raise failure
    return answers
