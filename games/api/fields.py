"""Request fields that several resources take: a ruleset id and its options, dice, a
scorecard, a name. Strict: a value is refused, never coerced. No rules here: the engine
owns them."""

import functools
import unicodedata
from typing import Any, NoReturn

from django.core.validators import RegexValidator
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.http.strict import StrictCharField, StrictIntegerField
from games.http.translation import said
from games.names import MOST_MARKS_IN_A_ROW, NameRefused, allowed_in_name, name_clean
from scoring import RULESETS, ProblemCode


@extend_schema_field({"type": "string", "enum": list(RULESETS)})
class RulesetField(StrictCharField):
    """A ruleset id; an unknown one is refused with the code ``unknown_ruleset`` by the
    serializer's ``validate_ruleset`` (:func:`known_ruleset`)."""


def known_ruleset(value: str) -> str:
    """``value`` if it names a ruleset; else the field's error, code ``unknown_ruleset``."""
    if value not in RULESETS:
        raise serializers.ValidationError(
            gettext("no ruleset {ruleset!r}; known: {known}").format(
                ruleset=value, known=", ".join(RULESETS)
            ),
            code=ProblemCode.UNKNOWN_RULESET,
        )
    return value


MOST_POINTS = 10_000  # far above any box's points or a game's Yahtzee bonuses


class OptionsField(serializers.DictField):
    """House rules: a JSON object; which names and values a ruleset takes is its own check
    (the schema shows each ruleset's: ``games.api.schema.variants``)."""


class ScorecardField(serializers.DictField):
    """A scorecard: box ids to points (or null); which boxes exist is the ruleset's check
    (the schema shows each ruleset's: ``games.api.schema.variants``)."""

    child = StrictIntegerField(allow_null=True, min_value=0, max_value=MOST_POINTS)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 6},
        "minItems": 1,
        "maxItems": 6,
    }
)
class DiceField(serializers.ListField):
    """Faces from 1 to 6, one to six of them (how many a ruleset takes is its own check);
    any fault, a missing list included, is ``invalid_dice``, as the contract names it."""

    fewest, most = 1, 6

    def fail(self, key: str, **kwargs: Any) -> NoReturn:
        if key == "required":
            raise serializers.ValidationError(
                gettext("give the dice"), code=ProblemCode.INVALID_DICE
            )
        super().fail(key, **kwargs)

    def to_internal_value(self, data: Any) -> list[int]:
        if (
            not isinstance(data, list)
            or not self.fewest <= len(data) <= self.most
            or not all(type(face) is int and 1 <= face <= 6 for face in data)
        ):
            message = gettext("must be a list of {count} faces from 1 to 6").format(
                count=self.most
            )
            if self.fewest < self.most:
                message = gettext("must be a list of {fewest} to {most} faces from 1 to 6").format(
                    fewest=self.fewest, most=self.most
                )
            raise serializers.ValidationError(message, code=ProblemCode.INVALID_DICE)
        return data


def nullable_dice(fewest: int, most: int) -> dict[str, Any]:
    """The schema of a list of ``fewest`` to ``most`` faces, or null."""
    return {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 6},
        "minItems": fewest,
        "maxItems": most,
        "nullable": True,
    }


@extend_schema_field(nullable_dice(5, 5))
class FiveDiceField(DiceField):
    """The five dice of the rulesets whose strategy is solved."""

    fewest = most = 5


# A name shows somewhere: at least one visible character, and no NUL (no database keeps it).
NAME = RegexValidator(r"^[^\x00]*\S[^\x00]*$", "a name needs a visible character and no NUL")


def _character_class(characters: list[str]) -> str:
    """Characters as a regular expression's class body, in ``\\uXXXX`` escapes and ranges,
    which Python and ECMAScript read alike."""
    spans: list[list[int]] = []
    for code in sorted(map(ord, characters)):
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    return "".join(
        f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}" for low, high in spans
    )


# What a trimmed text that may not be blank takes: no NUL (DRF refuses it anywhere), and a
# character that str.strip() keeps. The white space is listed, not written \s, because
# Python's and ECMAScript's \s differ.
_DROPPED = _character_class(["\x00", *(chr(c) for c in range(0x10000) if chr(c).isspace())])
VISIBLE_TEXT = f"^[^\\u0000]*[^{_DROPPED}][^\\u0000]*$"


class VisibleTextSchema(OpenApiSerializerFieldExtension):
    """A request's text field that trims and refuses a blank shows :data:`VISIBLE_TEXT` as
    its pattern, so that a text the schema calls valid is not refused as blank or for a NUL.
    (It implies :data:`NAME`, which the name fields check as well.)"""

    target_class = serializers.CharField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: AutoSchema, direction: str) -> Any:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        field = self.target
        if (
            direction == "request"
            and field.trim_whitespace
            and not field.allow_blank
            and schema.get("type") == "string"
            and "enum" not in schema
        ):
            schema["pattern"] = name_text() if isinstance(field, NameField) else VISIBLE_TEXT
        return schema


@functools.cache
def name_text() -> str:
    """What :class:`NameField` takes, as a pattern: white space around it (trimmed), then a
    first character that is neither white space nor a combining mark (once normalised), then
    characters that
    :func:`games.names.allowed_in_name` allows. Listed from the Basic Multilingual Plane
    only, which a name keeps to: so Python, for which a character beyond it is one code
    point, and ECMAScript, for which it is two surrogates, both find it outside. No more than
    four accents in a row. (A name that normalises to more than the length bound still passes
    the pattern and is refused: rare enough for a schema to leave out.)"""
    basic = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    white = [c for c in basic if c.isspace()]
    allowed = [c for c in basic if allowed_in_name(c)]
    marks = [c for c in allowed if unicodedata.category(c).startswith("M")]
    around = _character_class(white)
    return (
        f"^(?![\\s\\S]*[{_character_class(marks)}]{{{MOST_MARKS_IN_A_ROW + 1}}})"
        f"[{around}]*(?![{_character_class([c for c in basic if _no_start(c)])}])"
        f"[{_character_class(allowed)}]+[{around}]*$"
    )


def _no_start(character: str) -> bool:
    """White space, or a character that is (or normalises to) a combining mark first."""
    normal = unicodedata.normalize("NFKC", character).strip()
    return not normal or unicodedata.category(normal[0]).startswith("M")


class NameField(StrictCharField):
    """A name a person reads (a student's, a seat's, a classroom's, a bot's): given back as
    :func:`games.names.name_clean` stores it, or refused (``invalid``, naming the field)
    when it could pass for another name. The length bound holds for the name as sent (white
    space around it included, as the schema's ``maxLength`` says) and as stored."""

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        try:
            return name_clean(super().to_internal_value(data))
        except NameRefused as refused:
            raise serializers.ValidationError(said(refused), code=ProblemCode.INVALID) from None


def name_field(*, max_length: int = 50, **kwargs: Any) -> NameField:
    return NameField(max_length=max_length, trim_whitespace=True, validators=[NAME], **kwargs)
