"""The API's JSON in and out through orjson, byte for byte what DRF's own renderer and parser
give: DRF's extension points (``DEFAULT_RENDERER_CLASSES``, ``DEFAULT_PARSER_CLASSES``) with a
faster engine inside.

The standard library's ``json`` spends a move's few kilobytes in Python; orjson writes and
reads them natively. Where the two would differ, the standard library's answer is the one
given, so that nothing a client sees changes:

- writing, orjson spells floats below 1e-4 in full or with a short exponent (``0.00001``,
  ``2.5e-7``) where Python writes ``1e-05`` and ``2.5e-07``: an answer holding such a number
  (or text that looks like one) is written again by DRF's renderer;
- values orjson does not know (lazy strings, decimals, NumPy numbers, sets) go through DRF's
  own encoder, and dates through it too, which spells them its own way;
- an answer orjson refuses (an integer beyond 64 bits, text that is not UTF-8) is DRF's to
  write, or to fail on, as it always did; so is an indented answer (``; indent=4``);
- reading, any body orjson refuses (malformed, ``NaN``, huge numbers, bad UTF-8, another
  charset) is parsed again by DRF's parser, whose error message is the one the client gets;
  so is a body with 19 digits in a row (orjson reads an integer past 64 bits as a float,
  Python as the integer it is).

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
import io
import re
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

from games.http.strict import check_bounds

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
# A number that Python would write with an exponent of its own: below 1e-4 (orjson:
# ``0.0000…``) or written by orjson with a negative exponent; at the start, or after ``[``,
# ``{``, ``:`` or ``,``, quoted or not (a float used as a key is written as text; text that
# merely looks like such a number costs only the slower writing).
_SPELLED_OTHERWISE = re.compile(rb'(?:^|[\[{:,])"?-?(?:0\.0000|\d+(?:\.\d+)?e-)')
_LONG_NUMBER = re.compile(rb"\d{19}")
_SEPARATORS = (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029")
_default = JSONEncoder().default
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


class FastJSONRenderer(JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None or self.get_indent(accepted_media_type or "", renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            written = orjson.dumps(data, default=_default, option=_OPTIONS)
        except (orjson.JSONEncodeError, TypeError, ValueError):
            return super().render(data, accepted_media_type, renderer_context)
        if _SPELLED_OTHERWISE.search(written):
            return super().render(data, accepted_media_type, renderer_context)
        for raw, escaped in _SEPARATORS:  # a strict subset of JavaScript, as DRF writes it
            if raw in written:
                written = written.replace(raw, escaped)
        return written


class BodyTooLarge(APIException):
    """A body longer than its request takes, refused unread (as Django refuses one beyond
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""

    status_code = 413
    default_code = "request_too_large"


class FastJSONParser(JSONParser):
    renderer_class = FastJSONRenderer

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
        data = self._parse(stream, media_type, parser_context)
        try:
            check_bounds(data)
        except ValidationError:
            del data  # before the memory is given back, not when the traceback goes
            if give_back_memory is not None and length >= LARGE_BODY:
                give_back_memory()
            raise
        return data

    def _parse(
        self, stream: Any, media_type: str | None, parser_context: Mapping[str, Any] | None
    ) -> Any:
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        if stream is None or encoding.lower().replace("-", "") != "utf8":
            return super().parse(stream, media_type, parser_context)
        body = stream.read()
        if not _LONG_NUMBER.search(body):
            try:
                return orjson.loads(body)
            except orjson.JSONDecodeError:
                pass
        return super().parse(io.BytesIO(body), media_type, parser_context)
