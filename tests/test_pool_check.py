"""The pool's check before lending a connection: no round trip, yet a dropped one is refused."""

import time

import psycopg
import pytest
from django.db import connection

from games.db.notify import listen_parameters
from games.db.pool_check import idle_connection_check
from tests.conftest import postgres_only

pytestmark = [postgres_only, pytest.mark.django_db]


@pytest.fixture
def idle():
    with psycopg.connect(**listen_parameters(connection.settings_dict), autocommit=True) as conn:
        yield conn


def test_an_idle_connection_is_lent_without_a_round_trip(idle) -> None:
    idle.add_notice_handler(lambda notice: None)
    before = idle.pgconn.transaction_status
    idle_connection_check(idle)
    idle_connection_check(idle)
    assert idle.pgconn.transaction_status == before  # nothing was sent: still idle
    assert idle.execute("SELECT 1").fetchone() == (1,)


def test_a_connection_the_server_dropped_is_refused(idle) -> None:
    pid = idle.info.backend_pid
    with psycopg.connect(**listen_parameters(connection.settings_dict), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    with pytest.raises(psycopg.OperationalError):
        while time.monotonic() < deadline:  # the server's goodbye arrives within moments
            idle_connection_check(idle)
            time.sleep(0.05)


def test_a_closed_connection_is_refused(idle) -> None:
    idle.close()
    with pytest.raises(psycopg.OperationalError):
        idle_connection_check(idle)


def test_the_pool_checks_each_loan_this_way_and_a_dropped_connection_never_reaches_a_request(
) -> None:
    pool = connection.pool
    assert pool is not None and pool._check is idle_connection_check
    with pool.connection() as conn:
        pid = conn.info.backend_pid
    with psycopg.connect(**listen_parameters(connection.settings_dict), autocommit=True) as admin:
        # With a timeout, it answers once the server process has ended: its goodbye sent.
        assert admin.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()[0]
    for _ in range(pool.get_stats()["pool_size"] + 1):  # every connection it has, and one more
        with pool.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
