"""Database connections: pooled on PostgreSQL with sizes from the environment; SQLite as is."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def database_settings(**env: str) -> dict:
    """DATABASES["default"] and SERVER_THREADS as a fresh process reads them from ``env``."""
    script = (
        "import json; from config import settings as s;"
        "print(json.dumps({'db': s.DATABASES['default'], 'threads': s.SERVER_THREADS},"
        " default=str))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "SERVER_"))}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=clean | env,
        capture_output=True, text=True, timeout=60,
    )
    if done.returncode:
        return {"error": done.stderr}
    return json.loads(done.stdout)


def test_postgres_connections_come_from_a_pool_sized_by_the_environment() -> None:
    found = database_settings(
        DATABASE_URL="postgres://dice@db:5432/dice",
        DATABASE_POOL_MIN_SIZE="3", DATABASE_POOL_MAX_SIZE="20", DATABASE_POOL_TIMEOUT="7",
        SERVER_THREADS="16",
    )
    db = found["db"]
    assert db["OPTIONS"]["pool"] == {
        "min_size": 3, "max_size": 20, "timeout": 7, "max_idle": 300, "reconnect_timeout": 5
    }
    assert db["CONN_MAX_AGE"] == 0  # the pool keeps them, not Django
    assert db["ENGINE"] == "games.db.postgresql"  # its pool checks each loan (test_pool_check)
    assert found["threads"] == 16


def test_the_pool_has_defaults() -> None:
    db = database_settings(DATABASE_URL="postgres://dice@db:5432/dice")["db"]
    assert db["OPTIONS"]["pool"] == {
        "min_size": 2, "max_size": 16, "timeout": 5, "max_idle": 300, "reconnect_timeout": 5
    }


@pytest.mark.parametrize(
    ("env", "complaint"),
    [
        ({"DATABASE_POOL_MAX_SIZE": "0"}, "DATABASE_POOL_MAX_SIZE must be at least 2"),
        ({"DATABASE_POOL_MIN_SIZE": "5", "DATABASE_POOL_MAX_SIZE": "4"}, "at least 5"),
        ({"DATABASE_POOL_TIMEOUT": "soon"}, "DATABASE_POOL_TIMEOUT must be a whole number"),
    ],
)
def test_a_pool_size_that_makes_no_sense_stops_the_start(env: dict, complaint: str) -> None:
    found = database_settings(DATABASE_URL="postgres://dice@db:5432/dice", **env)
    assert complaint in found["error"]


def test_sqlite_stays_unpooled() -> None:
    db = database_settings(DATABASE_URL="sqlite:////tmp/dice-pool-test.sqlite3")["db"]
    assert "pool" not in db["OPTIONS"]
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
