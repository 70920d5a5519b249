"""Strict request parsing: a body is exactly what the schema says, or it is refused.

DRF's fields coerce by default ("42" becomes 42, 5 becomes "5") and its serializers ignore
fields they do not know. Both hide a client's mistake: a misspelled ``"Hold"`` on a roll
would be dropped and every die thrown. Here an unknown field is refused with the code
``unknown_field`` and a value of the wrong JSON type with ``invalid``; the schema says the
same (``additionalProperties: false``, exact types), so code and schema agree.
"""

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from games.http.codes import HttpCode
from scoring import ProblemCode


class StrictSerializer(serializers.Serializer):
    """Refuses a body that is not a JSON object, and any field it does not declare."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, Mapping) and self.parent is None:
            raise serializers.ValidationError(
                {"body": [ErrorDetail("the body must be a JSON object", code=ProblemCode.INVALID)]}
            )
        if isinstance(data, Mapping):
            unknown = [name for name in data if name not in self.fields]
            if unknown:
                raise serializers.ValidationError(
                    {
                        str(name): [
                            ErrorDetail(f"unknown field {name!r}", code=HttpCode.UNKNOWN_FIELD)
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
