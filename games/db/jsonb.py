"""A game's JSON columns written and read by orjson on PostgreSQL (``games.db.rows``).

Every move writes the game's state and its events' data and reads the state back: through
the standard library's ``json`` (Django's ``JSONField``) that was about 3 % of a move's
processor time. PostgreSQL keeps ``jsonb`` parsed, so how the text was spelled is never
seen again. Where orjson and ``json`` could disagree, ``json`` is used, as the field would:
a value orjson cannot write (an integer beyond 64 bits, a key that is not text) and text
holding an integer of 19 digits or more (which orjson would read as a float).
"""

import json
import re
from typing import Any, TypeGuard

import orjson
from django.db import models

_LONG_NUMBER = re.compile(r"\d{19}")


def dumps(value: Any) -> bytes | str:
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError among them
        return json.dumps(value)


def from_db_value(value: Any, expression: Any, connection: Any) -> Any:
    """``JSONField.from_db_value`` for a column read whole (the text PostgreSQL gives)."""
    if not isinstance(value, str):
        return value  # NULL, or a value the backend has already read
    if _LONG_NUMBER.search(value) is None:
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value  # as the field gives back what it cannot read


def plain(field: "models.Field[Any, Any]") -> "TypeGuard[models.JSONField[Any]]":
    """Whether ``field`` is a JSON field with the standard library's encoder and decoder,
    which these functions stand in for."""
    return (
        isinstance(field, models.JSONField)
        and field.encoder is None
        and field.decoder is None
    )
