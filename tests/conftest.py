import os

import pytest


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql"))


postgres_only = pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (DATABASE_URL)")
