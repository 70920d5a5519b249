import os
import secrets
from pathlib import Path

import pytest


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql"))


postgres_only = pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (DATABASE_URL)")


def by_database(*, sqlite: int, postgresql: int) -> int:
    """The figure for the database the tests run on: a query count, where PostgreSQL sends
    several statements in one round trip (``games.db.rows.run``) and SQLite cannot."""
    return postgresql if on_postgres() else sqlite


# -- the shared cache of the rate limits ----------------------------------------------------
# Tests count in the Redis server on 127.0.0.1:6379 when there is one (database 1, or
# TEST_REDIS_URL), as a deployment does; else in the database cache, the default. Each test
# gets keys of its own, so counters never leak from one test into the next.
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/1")


def redis_available() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=0.5).ping())
    except Exception:  # no server, or no client library: use the database cache
        return False


REDIS = redis_available()


def caches_for(prefix: str) -> dict:
    if REDIS:
        backend = {
            "BACKEND": "games.db.cache.RedisCache",
            "LOCATION": TEST_REDIS_URL,
        }
    else:
        backend = {
            "BACKEND": "games.db.cache.DatabaseCache",
            "LOCATION": "dice_cache",
            "OPTIONS": {"MAX_ENTRIES": 10_000_000},
        }
    return {"default": {**backend, "KEY_PREFIX": prefix, "TIMEOUT": 600}}


@pytest.fixture(scope="session")
def strategy_tables() -> Path:
    """The folder of solved strategy tables every test that needs one reads it from: the
    service's own STRATEGY_DIR, where `make run` and the live servers keep them too. Each
    table is built once (a stale one again), however many processes want it at the same
    time (file locks: see scoring.strategy.api); the tests of building use folders of their
    own."""
    from django.conf import settings

    return Path(settings.STRATEGY_DIR)


@pytest.fixture(autouse=True)
def isolated_cache(settings) -> None:  # noqa: ANN001
    settings.CACHES = caches_for(f"test-{secrets.token_hex(6)}")
