"""A bot, as answered."""

from typing import Annotated, TypedDict

from games.api.schema.responses import RulesetId
from games.api.schema.shapes import DateTime, Uuid, iso_time, serializer_for
from games.models import Bot


class BotOwnerBody(TypedDict):
    classroom: Uuid
    student: Annotated[Uuid | None, "The student who owns it (their id); null: the teacher."]


class BotBody(TypedDict):
    id: Uuid
    name: str
    rulesets: list[RulesetId]
    owner: BotOwnerBody
    created_at: DateTime


BotOut = serializer_for(BotBody)


def render_bot(bot: Bot) -> BotBody:
    return {
        "id": str(bot.id),
        "name": bot.name,
        "rulesets": list(bot.rulesets),
        "owner": {
            "classroom": str(bot.classroom_id),
            "student": str(bot.student_id) if bot.student_id is not None else None,
        },
        "created_at": iso_time(bot.created_at),
    }
