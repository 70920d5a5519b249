"""The API's JSON through orjson (games/http/fastjson.py) is byte for byte DRF's own: every
answer written and every body read as DRF's renderer and parser would, errors included."""

import io
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer

from games.http.fastjson import FastJSONParser, FastJSONRenderer

scalars = (
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text() | st.integers(), inner, max_size=5),
    max_leaves=30,
)


def drf_render(data: object, accepted: str | None = None) -> bytes | type:
    try:
        return JSONRenderer().render(data, accepted)
    except (TypeError, ValueError) as error:
        return type(error)


def fast_render(data: object, accepted: str | None = None) -> bytes | type:
    try:
        return FastJSONRenderer().render(data, accepted)
    except (TypeError, ValueError) as error:
        return type(error)


@settings(max_examples=400, deadline=None)
@given(values)
def test_any_answer_is_written_as_drf_writes_it(data) -> None:
    assert fast_render(data) == drf_render(data)


@pytest.mark.parametrize("data", [
    {"p": 1e-05, "q": [2.5e-07, 0.0001, 1e16, -3.2e-09]},
    6.103515625e-05, [-2.5e-07], {1e-05: "a float key"},
    {"line": "a\u2028b\u2029c", "control": "\x00\x1f\x7f\"\\/"},
    {"id": uuid.UUID(int=7), "set": [1, 2], "big": 2**70, 3: "int key"},
    {"surrogate": "\ud800"},
    None,
])
def test_the_answers_orjson_would_spell_otherwise_are_drfs(data) -> None:
    assert fast_render(data) == drf_render(data)
    assert fast_render(data, "application/json; indent=4") == drf_render(
        data, "application/json; indent=4"
    )


def drf_parse(body: bytes, context: dict | None = None) -> object:
    try:
        return JSONParser().parse(io.BytesIO(body), "application/json", context or {})
    except ParseError as error:
        return ("refused", str(error.detail))


def fast_parse(body: bytes, context: dict | None = None) -> object:
    try:
        return FastJSONParser().parse(io.BytesIO(body), "application/json", context or {})
    except ParseError as error:
        return ("refused", str(error.detail))


@settings(max_examples=400, deadline=None)
@given(values)
def test_any_body_is_read_as_drf_reads_it(data) -> None:
    body = json.dumps(data).encode()
    assert fast_parse(body) == drf_parse(body)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=40).map(str.encode))
def test_any_bytes_are_read_or_refused_as_drf_does(body: bytes) -> None:
    assert fast_parse(body) == drf_parse(body)


@pytest.mark.parametrize("body", [
    b'{"a": NaN}', b"[Infinity]", b"1e400", b'{"a": 1, "a": 2}', b"9" * 40, b"\xef\xbb\xbf{}",
    b"[18446744073709551616]", b"-9223372036854775809",
    b'"\\ud800"', b"", b"  [1,  2 ]  ", b'{"x": "\xff"}',
])
def test_the_bodies_orjson_refuses_get_drfs_answer(body: bytes) -> None:
    assert fast_parse(body) == drf_parse(body)
    latin = {"encoding": "latin-1"}
    assert fast_parse(body, latin) == drf_parse(body, latin)
