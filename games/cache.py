"""Django's database cache, with an ``incr`` that concurrent processes cannot lose.

The stock ``incr`` reads, adds and writes the value back: two workers raising one rate
counter at once would both write the same number. Here the row is locked while it is
raised (``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite every write transaction holds
the database's one write lock), and only the value changes: the counter keeps its expiry.
It is the default cache when no ``REDIS_URL`` is set: it needs nothing installed and still
holds across every process that shares the database.
"""

import base64
import pickle

from django.core.cache.backends.db import DatabaseCache as StockDatabaseCache
from django.db import connections, models, router, transaction
from django.utils import timezone


class DatabaseCache(StockDatabaseCache):
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
    def _expired(connection, expires) -> bool:  # noqa: ANN001
        expression = models.Expression(output_field=models.DateTimeField())
        for converter in connection.ops.get_db_converters(
            expression
        ) + expression.get_db_converters(connection):
            expires = converter(expires, expression, connection)
        return expires < timezone.now()
