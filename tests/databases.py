"""A throwaway PostgreSQL database, for the live tests and the load benchmark."""

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql


@contextmanager
def postgres_database(server_url: str, *, prefix: str) -> Iterator[str]:
    """A fresh database ``<prefix>_<random>`` on the server of ``server_url`` (its URL),
    dropped afterwards even if connections to it are still open."""
    parts = urlsplit(server_url)
    name = f"{prefix}_{secrets.token_hex(4)}"
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
