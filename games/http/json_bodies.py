"""The API's JSON bodies, read by DRF's own parser and bounded, so that a body costs little
whatever was sent.

A body longer than its view takes (``most_body_bytes``, by default :data:`MOST_BODY_BYTES`:
every body the API takes but a record is a few kilobytes) is refused, 413
``request_too_large``, by its declared length, before it is parsed: the parse is most of
what such a body costs. Any other parsed body is bounded before any view reads it
(``strict.check_bounds``).

A large body refused by those bounds (a record may weigh 1 MB) would leave the process as
large as it was: the C library keeps the memory its many small objects took, for later use.
So after refusing such a body the parser hands the free memory back to the system (glibc's
``malloc_trim``, where the C library has it); ``tests/bench/large_bodies.py`` measures it.
"""

import ctypes
import ctypes.util
from collections.abc import Callable, Mapping
from typing import Any

from rest_framework.exceptions import APIException, ValidationError
from rest_framework.parsers import JSONParser

from games.http.strict import check_bounds

# What a body may weigh unless its view says otherwise (``most_body_bytes``).
MOST_BODY_BYTES = 64 * 1024
# A body this large, refused, is followed by giving free memory back; a move's is a few
# hundred bytes, so this costs nothing to the requests the API expects.
LARGE_BODY = 256 * 1024


def _memory_trimmer() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library has no such function."""
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


give_back_memory = _memory_trimmer()


class BodyTooLarge(APIException):
    """A body longer than its request takes, refused unread (as Django refuses one beyond
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""

    status_code = 413
    default_code = "request_too_large"


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, with the bounds above: a body's declared length first, then what
    it holds (``DEFAULT_PARSER_CLASSES``)."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        declared = getattr(context.get("request"), "META", {}).get("CONTENT_LENGTH") or ""
        length = int(declared) if declared.isdigit() else 0
        most = getattr(context.get("view"), "most_body_bytes", MOST_BODY_BYTES)
        if length > most:
            raise BodyTooLarge(f"this request takes a body of at most {most} bytes")
        data = super().parse(stream, media_type, parser_context)
        try:
            check_bounds(data)
        except ValidationError:
            del data  # before the memory is given back, not when the traceback goes
            if give_back_memory is not None and length >= LARGE_BODY:
                give_back_memory()
            raise
        return data
