"""Response shapes are declared once, as ``TypedDict`` classes; the schema's serializers are
derived from them here.

A body is built as a plain dict and typed as its shape: building dicts is the fastest way to
answer (a move's answer is built on every request, and a DRF serializer's ``.data`` costs
many times as much), and the type lets a checker and the tests hold the keys. The
OpenAPI schema is made by drf-spectacular from serializers, so the serializer of each shape
is derived from the shape's annotations instead of being written a second time:

- ``int``, ``float``, ``bool``, ``str``, ``Any`` (any JSON value), ``list[X]``,
  ``dict[str, X]``, another shape (a nested object), ``Literal[...]`` (an enum), and
  ``X | None`` (nullable);
- ``NotRequired[X]``: a key that some bodies leave out;
- ``Annotated[X, ...]`` adds, in any order: a ``str``, the value's description;
  ``Choice(ids)``, an enum of ids known only at run time; ``Bounds(minimum, maximum)``, of a
  number, or of a list's length; a DRF field class, which states the value instead (the
  formats ``Uuid``, ``DateTime`` and ``Url``, or a field with a schema of its own).

A shape's docstring is its component's description. The shape ``GameBody`` gives the
serializer, and so the component, ``GameOut``: generated clients know components by name.
"""

import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from rest_framework import serializers


@dataclass(frozen=True)
class Choice:
    """One of these ids (a list computed at import, which ``Literal`` cannot name)."""

    ids: Sequence[str]


@dataclass(frozen=True)
class Bounds:
    """The least and greatest number, or length of a list."""

    minimum: int | None = None
    maximum: int | None = None


Uuid = Annotated[str, serializers.UUIDField]
DateTime = Annotated[str, serializers.DateTimeField]
Url = Annotated[str, serializers.URLField]


@dataclass(frozen=True)
class Value:
    """What a shape's annotation says of one value: its type, with ``Annotated``,
    ``NotRequired`` and ``None`` taken off, and what those said."""

    type: Any
    nullable: bool = False
    help: str | None = None
    choices: tuple[Any, ...] | None = None
    bounds: Bounds | None = None
    field: type[serializers.Field] | None = None


def value_of(annotation: Any) -> Value:
    said: dict[str, Any] = {"nullable": False}
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            for extra in annotation.__metadata__:
                said.setdefault(_meaning(extra), extra)
            annotation = annotation.__origin__
        elif origin is NotRequired or origin is Required:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType) and type(None) in get_args(annotation):
            said["nullable"] = True
            rest = tuple(arg for arg in get_args(annotation) if arg is not type(None))
            annotation = rest[0] if len(rest) == 1 else Union[rest]  # noqa: UP007
        else:
            break
    if "choices" in said:
        said["choices"] = tuple(said["choices"].ids)
    elif get_origin(annotation) is Literal:
        said["choices"] = get_args(annotation)
    return Value(annotation, **said)


def _meaning(extra: Any) -> str:
    if isinstance(extra, str):
        return "help"
    if isinstance(extra, Choice):
        return "choices"
    if isinstance(extra, Bounds):
        return "bounds"
    if isinstance(extra, type) and issubclass(extra, serializers.Field):
        return "field"
    raise TypeError(f"a shape's annotation cannot say {extra!r}")


def keys_of(shape: type) -> dict[str, tuple[Value, bool]]:
    """Each key of the shape, in order, with its value and whether every body has it."""
    hints = get_type_hints(shape, include_extras=True)
    return {
        key: (value_of(hint), key in shape.__required_keys__)  # type: ignore[attr-defined]  # a TypedDict's
        for key, hint in hints.items()
    }


_DERIVED: dict[type, type[serializers.Serializer]] = {}


def serializer_for(shape: type) -> type[serializers.Serializer]:
    """The serializer the schema states the shape with; one class per shape, however often
    it is nested, since the schema names its components after the classes."""
    if shape not in _DERIVED:
        if not is_typeddict(shape) or not shape.__name__.endswith("Body"):
            raise TypeError(f"{shape!r} is not a shape: a TypedDict named ...Body")
        fields = {
            key: _field(value, required=required)
            for key, (value, required) in keys_of(shape).items()
        }
        name = shape.__name__.removesuffix("Body") + "Out"
        attrs = {"__doc__": shape.__doc__, "__module__": shape.__module__, **fields}
        derived = serializers.SerializerMetaclass(name, (serializers.Serializer,), attrs)
        _DERIVED[shape] = cast("type[serializers.Serializer]", derived)
    return _DERIVED[shape]


def derived() -> dict[type, type[serializers.Serializer]]:
    """Every shape a serializer was derived from so far, with its serializer."""
    return dict(_DERIVED)


SIMPLE: dict[Any, type[serializers.Field]] = {
    bool: serializers.BooleanField,
    int: serializers.IntegerField,
    float: serializers.FloatField,
    str: serializers.CharField,
    Any: serializers.JSONField,
}


def _field(value: Value, **options: Any) -> serializers.Field:
    if value.nullable:
        options["allow_null"] = True
    if value.help is not None:
        options["help_text"] = value.help
    kind, origin, bounds = value.type, get_origin(value.type), value.bounds
    if value.field is not None:
        return value.field(**options)
    if value.choices is not None:
        return serializers.ChoiceField(choices=list(value.choices), **options)
    if is_typeddict(kind):
        return serializer_for(kind)(**options)
    if origin is list:
        item = value_of(get_args(kind)[0])
        if is_typeddict(item.type) and item == Value(item.type):
            return serializer_for(item.type)(many=True, **options)
        if bounds is not None:
            options.update(min_length=bounds.minimum, max_length=bounds.maximum)
        return serializers.ListField(child=_field(item), **options)
    if origin is dict:
        return serializers.DictField(child=_field(value_of(get_args(kind)[1])), **options)
    if kind not in SIMPLE:
        raise TypeError(f"a shape's value cannot be a {kind!r}")
    if bounds is not None:
        options.update(min_value=bounds.minimum, max_value=bounds.maximum)
    return SIMPLE[kind](**options)


def iso_time(value: Any) -> str:
    """A time as the API writes it: ISO 8601 in UTC, with ``Z``."""
    return value.isoformat().replace("+00:00", "Z")
