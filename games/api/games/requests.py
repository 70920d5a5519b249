"""A game's requests: its creation, the moves (each parsed into the engine's typed command),
and the query strings of its list, its log and its analysis."""

from typing import Any, ClassVar, NoReturn

from django.core.validators import RegexValidator
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.fields import OptionsField, RulesetField, known_ruleset, name_field
from games.api.schema.enums import BOX_IDS, GAME_STATUSES
from games.http.strict import (
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictListField,
    StrictSerializer,
)
from games.play.clocks import DEFAULT_MAX_TIMEOUTS, MAX_TIMEOUTS, TURN_SECONDS
from scoring import RULESETS, ProblemCode
from scoring.commands import Bank, Command, Hold, Join, Leave, Pass, Roll, Score, Scratch, Start
from scoring.verifiable import CLIENT_SEED_LENGTH

INT64 = 2**63 - 1


# A client seed: printable ASCII, space to tilde, without the colon that separates the parts
# of a die's derivation message (``scoring.verifiable``).
CLIENT_SEED = RegexValidator(r"^[ -9;-~]+\Z", "must be printable ASCII characters without a colon")


BOT_NOTES = (
    "A bot's id (`/api/v1/bots/`): the bot takes the seat, named as it is; give it alone. "
    "The caller's own bot, or any bot of the classroom with the teacher's key."
)


def bot_field() -> serializers.UUIDField:
    return serializers.UUIDField(required=False, allow_null=True, default=None,
                                 help_text=BOT_NOTES)


def _name_or_bot(data: dict[str, Any], *others: str) -> dict[str, Any]:
    """A seat is a bot's (``bot`` alone) or has a name."""
    if data.get("bot") is not None:
        if "name" in data or any(data.get(other) is not None for other in others):
            raise serializers.ValidationError({
                "bot": gettext("a bot's seat takes the bot's name: give `bot` alone")
            })
    elif "name" not in data:
        raise serializers.ValidationError({"name": gettext("a seat needs a name (or a bot)")})
    return data


class SeatIn(StrictSerializer):
    name = name_field(required=False)
    computer = StrictCharField(
        allow_null=True,
        required=False,
        default=None,
        max_length=16,
        help_text="Null (or absent) for a person; for a computer seat its strategy, one of the "
        "ruleset's computer levels.",
    )
    bot = bot_field()

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return _name_or_bot(data, "computer")


class ClockIn(StrictSerializer):
    turn_seconds = StrictIntegerField(
        min_value=TURN_SECONDS[0], max_value=TURN_SECONDS[1],
        help_text="Seconds a person has for each move; then the turn is played for them.",
    )
    max_timeouts = StrictIntegerField(
        min_value=MAX_TIMEOUTS[0], max_value=MAX_TIMEOUTS[1], default=DEFAULT_MAX_TIMEOUTS,
        help_text="Turns in a row that may time out before the seat leaves the game.",
    )


class GameCreateIn(StrictSerializer):
    ruleset = RulesetField(help_text="The ruleset's id (see /api/v1/rulesets/).")
    options = OptionsField(required=False, default=dict)
    players = StrictListField(
        child=SeatIn(), min_length=1, max_length=8, help_text="The seats, in turn order."
    )
    open_seats = StrictIntegerField(
        min_value=0,
        max_value=7,
        default=0,
        help_text="Extra seats that others take with `join`; the game waits until they are "
        "filled or a seated person calls `start`.",
    )
    seed = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=-INT64 - 1,
        max_value=INT64,
        help_text="The same seed and the same moves give the same dice; seeded games are unranked.",
    )
    clock = ClockIn(
        required=False,
        allow_null=True,
        default=None,
        help_text="A turn clock: a person who does not move in time has the turn played for "
        "them (as the `greedy` computer would), and leaves after `max_timeouts` in a row.",
    )
    client_seed = StrictCharField(
        required=False,
        allow_null=True,
        default=None,
        min_length=1,
        max_length=CLIENT_SEED_LENGTH,
        trim_whitespace=False,
        validators=[CLIENT_SEED],
        help_text="Mixed into every die's derivation (see `dice`): 1 to 64 printable ASCII "
        "characters, no colon. Absent: 16 hex characters chosen by the service (for a seeded "
        "game, the same ones for the same seed, so that it stays reproducible).",
    )

    def validate_ruleset(self, value: str) -> str:
        return known_ruleset(value)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 5},
        "maxItems": 6,
        "uniqueItems": True,
    }
)
class PositionsField(serializers.ListField):
    """Dice positions (from 0), each at most once; any fault is ``invalid_dice``, as the
    contract names it, whatever it is (a string, a position out of range, a repeat)."""

    def to_internal_value(self, data: Any) -> list[int]:
        if (
            not isinstance(data, list)
            or len(data) > 6
            or not all(type(i) is int and 0 <= i <= 5 for i in data)
            or len(set(data)) != len(data)
        ):
            raise serializers.ValidationError(
                gettext("must be a list of distinct dice positions from 0 to 5"),
                code=ProblemCode.INVALID_DICE
            )
        return sorted(data)


def positions(help_text: str, *, required: bool = True) -> PositionsField:
    return PositionsField(required=required, help_text=help_text)


class CommandIn(StrictSerializer):
    """A move's body; once valid, :meth:`save` yields the engine's typed command."""

    command: ClassVar[type[Command]]

    def create(self, validated_data: dict[str, Any]) -> Command:
        return self.command(
            **{
                name: tuple(value) if isinstance(value, list) else value
                for name, value in validated_data.items()
            }
        )


class RollIn(CommandIn):
    command = Roll
    hold = positions(
        "Box games: positions (from 0) of the dice to keep; the others are thrown.",
        required=False,
    )
    set_aside = positions(
        "Ten Thousand: positions of a scoring selection of the last throw to set aside before "
        "throwing the free dice (absent or empty for the turn's first throw).",
        required=False,
    )


class BankIn(CommandIn):
    command = Bank
    set_aside = positions(
        "Positions of a scoring selection of the last throw, set aside before banking."
    )


class PassIn(CommandIn):
    command = Pass


class LeaveIn(CommandIn):
    command = Leave


class StartIn(CommandIn):
    command = Start


class HoldIn(CommandIn):
    command = Hold
    hold = positions(
        "Positions (from 0) of the dice to keep at the next roll; all others are freed."
    )


class JoinIn(CommandIn):
    command = Join
    name = name_field(required=False)
    bot = bot_field()

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return _name_or_bot(data)

    def create(self, validated_data: dict[str, Any]) -> Command:
        return Join(name=validated_data["name"])


@extend_schema_field({"type": "string", "enum": BOX_IDS})
class BoxField(StrictCharField):
    """A box id of some ruleset (whether the game's ruleset has it is the engine's check);
    any other string, or none at all, is ``unknown_category``, as the contract names it."""

    def fail(self, key: str, **kwargs: Any) -> NoReturn:
        if key == "required":
            raise serializers.ValidationError(
                gettext("name the box to fill"), code=ProblemCode.UNKNOWN_CATEGORY
            )
        super().fail(key, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if value not in BOX_IDS:
            raise serializers.ValidationError(
                gettext("no box {category!r}").format(category=value),
                code=ProblemCode.UNKNOWN_CATEGORY,
            )
        return value


class ScoreBoxIn(CommandIn):
    command: ClassVar[type[Command]] = Score
    category = BoxField(help_text="A box id of the game's ruleset (see /api/v1/rulesets/).")


class ScratchBoxIn(ScoreBoxIn):
    command = Scratch


class GamesQuery(serializers.Serializer):
    """The list's query, checked before any lookup: a malformed value is 400, never ignored
    (an empty ``status=`` filters nothing only if it is left out)."""

    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False)
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)
    player = serializers.CharField(
        max_length=50,
        required=False,
        help_text="Games with a seat of this name (case does not matter).",
    )
    page = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="From 1; past the last: 404."
    )
    page_size = serializers.IntegerField(
        min_value=1, max_value=100, required=False, help_text="Games per page (default 20)."
    )


class EventsQuery(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="Only events with a larger seq."
    )
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=1000)


class AnalysisQuery(StrictSerializer):
    seats = StrictChoiceField(
        choices=["persons", "all"],
        default="persons",
        help_text="`persons` (the default): the seats of people only; `all`: computer seats "
        "too.",
    )
