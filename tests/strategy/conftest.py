"""Strategy tests run without Django: ``pytest tests/strategy -p no:django``.

Tests that need whole solved tables (seconds to a minute each) carry the ``slow`` marker;
deselect them with ``-m "not slow"``. The marker is registered here too, so that
``--strict-markers`` accepts it wherever the suite is run from.
"""

from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds whole strategy tables (tens of seconds)")


@pytest.fixture(scope="session")
def folder(strategy_tables: Path) -> Path:
    """Where the solved tables these tests play and analyse with are read from (built there
    if missing): the folder every test shares (``tests/conftest.py``)."""
    return strategy_tables
