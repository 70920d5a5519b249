"""Django's PostgreSQL backend, with a pool whose check before each loan costs no round trip.

Django gives its connection pool either no check or psycopg's, which sends a query and waits
for the answer on every request (``CONN_HEALTH_CHECKS``). This backend gives the pool
``games.db.pool_check.idle_connection_check`` instead, when the pool is made. Everything else is
Django's own. ``DATABASES["default"]["ENGINE"]`` names it for PostgreSQL (config/settings.py).
"""

from typing import Any, ClassVar

from django.db.backends.postgresql import base

from games.db.pool_check import idle_connection_check


class DatabaseWrapper(base.DatabaseWrapper):
    _connection_pools: ClassVar[dict[str, Any]]  # Django's pools by alias (not in the stubs)

    @property
    def pool(self) -> Any:
        made = self.alias in self._connection_pools
        pool = super().pool
        if pool is not None and not made:
            # psycopg_pool keeps the check in ``_check``; Django offers no way to pass it.
            # tests/test_pool_check.py pins that this one is the check in use.
            pool._check = idle_connection_check
        return pool
