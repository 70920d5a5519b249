"""Checks an answer's body against its declared shape (``games.api.schema.shapes``), recursively:
the keys (every required one, no undeclared one), each value's JSON type, format, enum,
bounds and nullability. It also remembers which keys the bodies it saw had, so that a test
can tell when a declared key never shows up in any answer (a shape wider than the bodies)."""

import datetime as dt
import types
import uuid
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict

from rest_framework import serializers

from games.api.schema.shapes import Value, keys_of, value_of


class ShapeCheck:
    def __init__(self) -> None:
        self.seen: dict[type, set[str]] = {}

    def check(self, body: Any, annotation: Any, path: str = "body") -> None:
        """Fails, naming the first value at fault, unless ``body`` has the shape."""
        self._value(body, value_of(annotation), path)

    def unseen(self) -> dict[str, set[str]]:
        """Per shape checked, the keys it declares that no checked body had."""
        missing = {
            shape.__name__: set(keys_of(shape)) - keys for shape, keys in self.seen.items()
        }
        return {name: keys for name, keys in missing.items() if keys}

    def _shape(self, body: Any, shape: type, path: str) -> None:
        assert isinstance(body, dict), f"{path}: {body!r} is not an object"
        keys = keys_of(shape)
        required = {key for key, (_, needed) in keys.items() if needed}
        assert body.keys() <= keys.keys(), f"{path}: undeclared {body.keys() - keys.keys()}"
        assert required <= body.keys(), f"{path}: missing {required - body.keys()}"
        self.seen.setdefault(shape, set()).update(body)
        for key, item in body.items():
            self._value(item, keys[key][0], f"{path}.{key}")

    def _value(self, item: Any, value: Value, path: str) -> None:
        if item is None:
            assert value.nullable, f"{path} is null"
            return
        kind, origin = value.type, get_origin(value.type)
        if value.choices is not None:
            assert item in value.choices, f"{path}: {item!r} is not one of {value.choices}"
        if is_typeddict(kind):
            self._shape(item, kind, path)
        elif origin is list:
            assert isinstance(item, list), f"{path}: {item!r} is not a list"
            self._bounded(len(item), value, path)
            for i, element in enumerate(item):
                self._value(element, value_of(get_args(kind)[0]), f"{path}.{i}")
        elif origin is dict:
            assert isinstance(item, dict), f"{path}: {item!r} is not an object"
            for key, element in item.items():
                assert isinstance(key, str), f"{path}: key {key!r}"
                self._value(element, value_of(get_args(kind)[1]), f"{path}.{key}")
        elif origin in (Union, types.UnionType):
            assert any(self._fits(item, value_of(arg)) for arg in get_args(kind)), (
                f"{path}: {item!r} is none of {kind}"
            )
        elif kind is not Any and origin is not Literal:
            self._scalar(item, value, path)

    def _fits(self, item: Any, value: Value) -> bool:
        try:
            self._value(item, value, "")
        except AssertionError:
            return False
        return True

    def _scalar(self, item: Any, value: Value, path: str) -> None:
        kind = value.type
        if kind is float:
            assert isinstance(item, int | float) and not isinstance(item, bool), (
                f"{path}: {item!r} is not a number"
            )
        else:
            assert type(item) is kind, f"{path}: {item!r} is not a {kind.__name__}"
        if kind in (int, float):
            self._bounded(item, value, path)
        if value.field is serializers.UUIDField:
            assert str(uuid.UUID(item)) == item, f"{path}: {item!r} is not a UUID"
        if value.field is serializers.DateTimeField:
            assert item.endswith("Z") and dt.datetime.fromisoformat(item), f"{path}: {item!r}"
        if value.field is serializers.URLField:
            assert item.startswith(("http://", "https://")), f"{path}: {item!r} is not a URL"

    def _bounded(self, number: float, value: Value, path: str) -> None:
        if value.bounds is None:
            return
        low, high = value.bounds.minimum, value.bounds.maximum
        assert low is None or number >= low, f"{path}: {number} is below {low}"
        assert high is None or number <= high, f"{path}: {number} is above {high}"
