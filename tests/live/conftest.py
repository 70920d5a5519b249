"""The live service the live tests share (see ``service.py`` for how a server is started).

One server for the whole session, started by the first test that needs it; under
pytest-xdist every test that uses it runs in one worker (see ``tests/conftest.py``), so it
starts once.
"""

from collections.abc import Iterator

import pytest

from tests.conftest import on_postgres

from .service import LiveService, manage, service_env, serving, throwaway_database, working

__all__ = ["LiveService"]

@pytest.fixture(scope="session")
def live_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    folder = tmp_path_factory.mktemp("live")
    with throwaway_database(folder) as database_url:
        # Every test of the session calls from 127.0.0.1: a per-address rate limit would
        # make each test depend on how many games the ones before it created.
        env = service_env(
            folder, database_url, THROTTLE_CREATE="", THROTTLE_MOVES="", THROTTLE_ADVICE="",
            THROTTLE_CLASSROOMS="", THROTTLE_FAILURES="", THROTTLE_RECORDS="",
        )
        manage(env, "migrate", "--noinput")
        # As `make run` does: the strategy tables are ready before the service serves (the
        # first time minutes, then kept in STRATEGY_DIR), so no answer is a 503 for them.
        manage(env, "build_strategy", timeout=1800)
        # As `make run` does: a task worker beside the server.
        with serving(folder, env) as service, working(folder, env):
            yield service


@pytest.fixture
def sqlite_live_service(request: pytest.FixtureRequest) -> LiveService:
    """The live service, for tests of SQLite's own behaviour: skipped on PostgreSQL."""
    if on_postgres():
        pytest.skip("SQLite only; DATABASE_URL names PostgreSQL")
    return request.getfixturevalue("live_service")
