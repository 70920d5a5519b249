"""The caches that hold the rate-limit counters: Django's, with two changes.

The database cache gets an ``incr`` that concurrent processes cannot lose. The stock
``incr`` reads, adds and writes the value back: two workers raising one rate counter at once
would both write the same number. Here the row is locked while it is
raised (``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite every write transaction holds
the database's one write lock), and only the value changes: the counter keeps its expiry.
It is the default cache when no ``REDIS_URL`` is set: it needs nothing installed and still
holds across every process that shares the database.

The Redis cache (when ``REDIS_URL`` is set) keeps its client instead of making one per
operation.
"""

import base64
import pickle
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.db import DatabaseCache as StockDatabaseCache
from django.core.cache.backends.redis import RedisCache as StockRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.db import connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone


class DatabaseCache(StockDatabaseCache):
    _table: str  # the stock cache's, set by its __init__ (the stubs leave it out)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        table = connection.ops.quote_name(self._table)
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT value, expires FROM {table} WHERE cache_key = %s{lock}",  # noqa: S608
                [key],
            )
            row = cursor.fetchone()
            if row is None or self._expired(connection, row[1]):
                raise ValueError(f"Key '{key}' not found.")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode()))
            value += delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET value = %s WHERE cache_key = %s", [encoded, key])  # noqa: S608
        return value

    @staticmethod
    def _expired(connection: BaseDatabaseWrapper, expires: Any) -> bool:
        expression = models.Expression(output_field=models.DateTimeField())
        for converter in connection.ops.get_db_converters(
            expression
        ) + expression.get_db_converters(connection):
            expires = converter(expires, expression, connection)
        return expires < timezone.now()


class _ReusedRedisClient(RedisCacheClient):
    """Django's Redis client, keeping one ``redis.Redis`` per connection pool.

    The stock client makes a new ``redis.Redis`` for every operation, and each one builds
    its table of reply handlers (about 170 entries): a third of a millisecond of work per
    rate-limit check, on every request that carries credentials. A ``redis.Redis`` is safe
    to share between threads (each command borrows a connection from the pool).
    """

    # The stock client's own, which the stubs leave out.
    _client: Callable[..., Any]
    _get_connection_pool: Callable[[bool], Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(
        self, key: str | bytes | memoryview | None = None, *, write: bool = False
    ) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(StockRedisCache):
    """Django's Redis cache with ``_ReusedRedisClient``: the cache when REDIS_URL is set."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusedRedisClient
