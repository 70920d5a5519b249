"""Strict request parsing: a body is exactly what the schema says, or it is refused.

DRF's fields coerce by default ("42" becomes 42, 5 becomes "5") and its serializers ignore
fields they do not know. Both hide a client's mistake: a misspelled ``"Hold"`` on a roll
would be dropped and every die thrown. Here an unknown field is refused with the code
``unknown_field`` and a value of the wrong JSON type with ``invalid``; the schema says the
same (``additionalProperties: false``, exact types), so code and schema agree.

Before any of that, a parsed body is bounded (:func:`check_bounds`): no request of the API
takes more than a few dozen names in one object, and a record, the largest body, holds a
few tens of thousands of values. A body beyond the bounds is refused before a field is
looked at, so what a refusal costs does not grow with what the client sent: a body of
100,000 unknown names used to cost seconds of processor time and an answer of 10 MB
listing every one.
"""

from collections.abc import Mapping
from typing import Any, NoReturn

from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from games.http.codes import HttpCode
from scoring import ProblemCode


class StrictSerializer(serializers.Serializer):
    """Refuses a body that is not a JSON object, and any field it does not declare."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, Mapping) and self.parent is None:
            raise serializers.ValidationError(
                {
                    "body": [
                        ErrorDetail(
                            gettext("the body must be a JSON object"), code=ProblemCode.INVALID
                        )
                    ]
                }
            )
        if isinstance(data, Mapping):
            unknown = [name for name in data if name not in self.fields]
            if unknown:
                raise serializers.ValidationError(
                    {
                        str(name): [
                            ErrorDetail(
                                gettext("unknown field {name!r}").format(name=name),
                                code=HttpCode.UNKNOWN_FIELD,
                            )
                        ]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON number without a fraction: not a string, not a boolean, not ``2.0``."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string: a number is refused, not turned into its digits."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false``: not ``"yes"``, ``1`` or ``"true"``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, given as a JSON string."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class StrictListField(serializers.ListField):
    """A list whose length is checked before its items (DRF checks it after them): a list
    of 100,000 wrong items is refused for its length, not item by item."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, list) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


# A body's bounds. The largest object a request takes is a Maxi Yatzy scorecard (20 boxes);
# the largest body, a record (at most 1 MB), holds far fewer values than MOST_VALUES; none
# nests deeper than 6.
MOST_NAMES = 64
MOST_VALUES = 250_000
MOST_DEPTH = 16


def check_bounds(data: Any) -> None:
    """Refuse, 400 ``invalid``, a parsed body with an object of more than ``MOST_NAMES``
    names, more than ``MOST_VALUES`` values in all (every member of every object and list)
    or nested more than ``MOST_DEPTH`` deep. The walk stops at the first bound passed, so it
    costs at most ``MOST_VALUES`` steps, and it builds nothing."""
    values = 0
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            if len(value) > MOST_NAMES:
                _refuse(
                    gettext("an object holds at most {most} names, not {count}").format(
                        most=MOST_NAMES, count=len(value)
                    )
                )
            members: Any = value.values()
        elif isinstance(value, list):
            members = value
        else:
            continue
        if depth > MOST_DEPTH:
            _refuse(
                gettext("a body nests at most {most} objects and lists deep").format(
                    most=MOST_DEPTH
                )
            )
        values += len(members)
        if values > MOST_VALUES:
            _refuse(gettext("a body holds at most {most} values").format(most=MOST_VALUES))
        pending.extend((member, depth + 1) for member in members if isinstance(member, dict | list))


def _refuse(detail: str) -> NoReturn:
    raise serializers.ValidationError(
        {"body": [ErrorDetail(detail, code=ProblemCode.INVALID)]}
    )
