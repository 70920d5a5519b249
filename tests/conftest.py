import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.lms import Platform


def pytest_configure(config: pytest.Config) -> None:
    """The message catalogues compiled before any test (make test does it too; a plain
    pytest run of a fresh clone needs it): only those missing or older than their .po."""
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        from config.catalogues import compile_all

        compile_all()


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql"))


postgres_only = pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (DATABASE_URL)")


def fast_path_switched_off() -> bool:
    """Whether the environment turns off a piece of the fast path (``tests.bench.pieces``):
    the suite then runs the plain way, and the tests that pin that piece's own workings (its
    round trips, its kept games) are skipped."""
    from tests.bench.pieces import ALL_OFF

    return any(os.environ.get(name, "").lower() == off for name, off in ALL_OFF.items())


pins_the_fast_path = pytest.mark.skipif(
    fast_path_switched_off(), reason="pins a piece of the fast path that a setting turned off"
)


def by_database(*, sqlite: int, postgresql: int) -> int:
    """The figure for the database the tests run on: a query count, where PostgreSQL sends
    several statements in one round trip (``games.db.rows.run``) and SQLite cannot."""
    return postgresql if on_postgres() else sqlite


# -- running in parallel (make test: pytest-xdist, --dist loadgroup) -------------------------
# The live tests share one server for the session (tests/live/conftest.py) and the browser
# tests a Chromium, so they go to one worker together, which starts each once; the live
# modules that start servers of their own go to a worker each; every other test goes to
# whichever worker is free. Schemathesis, the longest test by far (minutes of generated
# requests), is one of those with a server of its own: it runs beside the browser tests, on
# another worker, rather than after them on the same one. The collection leads with the
# live tests, which the workers take in order, so that the longest runs start first.
# (Groups are given by path here: pytest 9 ignores the node ids xdist_group marks rename.)
LIVE = "tests/live/"
OWN_SERVERS = (
    LIVE + "test_schemathesis.py", LIVE + "test_limits_live.py",
    LIVE + "test_database_outage.py", LIVE + "test_worker_chaos.py",
    LIVE + "test_http_edges.py", LIVE + "test_make_run.py",
    LIVE + "test_fast_path_switches.py",
    # Both pages in every language: a minute and more of its own, beside the other browser
    # tests rather than after them.
    LIVE + "browser/test_languages.py",
)
FIRST = (LIVE + "browser/", LIVE + "test_schemathesis.py", LIVE)


def server_scope(nodeid: str) -> str:
    """The tests that must run in one worker: those that share a server or a browser."""
    path = nodeid.split("::")[0]
    if not path.startswith(LIVE):
        return nodeid
    return path if path.startswith(OWN_SERVERS) else LIVE


@pytest.hookimpl(trylast=True)  # after pytest-django has ordered the database tests
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, p in enumerate(FIRST) if item.nodeid.startswith(p)), len(FIRST))

    items.sort(key=rank)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ServerScopes(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return server_scope(nodeid)

    config.option.loadscopereorder = False  # the collection's order: longest runs first
    return ServerScopes(config, log)


# -- the shared cache of the rate limits ----------------------------------------------------
# Tests count in the Redis server on 127.0.0.1:6379 when there is one (database 1, or
# TEST_REDIS_URL), as a deployment does; else in the database cache, the default. Each test
# gets keys of its own, so counters never leak from one test into the next.
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/1")


def redis_available() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=0.5).ping())
    except Exception:  # noqa: BLE001 - no server, or no client library: the database cache
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
    time (file locks: see scoring.boxgames.strategy.api); the tests of building use folders of their
    own."""
    from django.conf import settings

    return Path(settings.STRATEGY_DIR)


@pytest.fixture(autouse=True)
def isolated_cache(settings) -> None:
    from games.db import kept
    from games.http.limits import forget_clean

    settings.CACHES = caches_for(f"test-{secrets.token_hex(6)}")
    forget_clean()  # what this process knew of the addresses, from the last test's cache
    kept.clear()  # the games the last test's moves kept


@pytest.fixture(autouse=True)
def no_stream_sender() -> Iterator[None]:
    """In this process the streams are written by the server's side itself, whatever
    importing ``config.asgi`` configured: the fake connections of the unit tests have no
    descriptor to hand over. The stream sender is tested on its own (tests/test_handoff.py)
    and behind the live servers."""
    from games.serving import handoff

    handoff.configure(None)
    yield
    handoff.stop()


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashing() -> Iterator[None]:
    """Passwords hashed in a blink in this process: the admin's tests log in and fail to
    log in hundreds of times, and what they check is who gets in and when the door locks,
    not the cost of a hash. The live servers, in processes of their own, keep the
    service's hasher."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def lms() -> Iterator["Platform"]:
    """An LTI 1.3 platform (tests/lms/) listening on a free port of 127.0.0.1 for the
    test's length: its courses, users and links are the test's to make."""
    from tests.lms import running_platform

    with running_platform() as platform:
        yield platform
