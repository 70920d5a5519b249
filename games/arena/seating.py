"""Bots taking seats: in a new game (``POST /games/`` with a player ``{"bot": id}``) and by
joining one (``POST /games/{id}/join/`` with ``{"bot": id}``).

A caller seats their own bots; a teacher's key, any bot of its classroom. A seat a bot
takes is named as the bot is and linked to it; its token is derived
(``games.play.privacy.bot_seat_token``) and shown in the answer only to a caller whose key
owns the bot: its owner's stream gives it (``seated``). Every check is made before anything
is written, in the transaction that seats the bots (their rows locked, so a bot deleted
meanwhile takes no seat): a bot of another classroom or owner, a deleted one, one seated
twice in a game, one whose rulesets leave out the game's are refused (``invalid``, naming
the field), and nothing changes.
"""

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from games.arena import owners
from games.arena.registry import owner_of_caller
from games.classrooms.keys import Caller
from games.models import Bot, Game, Player
from games.play import services
from games.play.errors import ServiceCode, ServiceError
from games.play.services import ComputersMayPlay, Played
from scoring import ProblemCode
from scoring.commands import Join
from scoring.match import Seat

Asked = Seat | uuid.UUID  # a person's or a computer's seat, or a bot's id


def bots_for_seats(
    *, caller: Caller | None, ruleset_id: str, asked: Mapping[int, uuid.UUID],
    field: str = "players.{}.bot",
) -> dict[int, Bot]:
    """The bots ``asked`` for these seats (by index), checked and locked; refused as the
    module says, ``field`` naming the input at fault (``{}``: the seat's index)."""
    if not asked:
        return {}
    if caller is None:
        raise ServiceError(
            ServiceCode.NOT_AUTHENTICATED,
            gettext_noop(
                "a bot takes a seat with its owner's key (or the teacher's): send X-API-Key"
            ),
        )
    found = {
        bot.id: bot
        for bot in Bot.objects.select_for_update().filter(
            pk__in=set(asked.values()), classroom_id=caller.classroom.id
        )
    }
    owner = owner_of_caller(caller)
    seen: set[uuid.UUID] = set()
    for seat, bot_id in asked.items():
        bot = found.get(bot_id)
        where = field.format(seat)
        if bot is None or not (caller.is_teacher or bot.student_id == owner.student_id):
            raise _invalid("no bot of yours has this id", where)
        if bot.deleted:
            raise _invalid(f"the bot {bot.name!r} was deleted: it plays no new game", where)
        if bot_id in seen:
            raise _invalid(f"the bot {bot.name!r} takes one seat of a game, not two", where)
        if ruleset_id not in bot.rulesets:
            raise _invalid(f"the bot {bot.name!r} does not play {ruleset_id}", where)
        seen.add(bot_id)
    return {seat: found[bot_id] for seat, bot_id in asked.items()}


def game_create_seated(
    *, caller: Caller | None, ruleset_id: str, players: Sequence[Asked], **create: Any
) -> Played:
    """``games.play.services.game_create`` with bots among the players."""
    asked = {seat: p for seat, p in enumerate(players) if isinstance(p, uuid.UUID)}
    with transaction.atomic():
        bots = bots_for_seats(caller=caller, ruleset_id=ruleset_id, asked=asked)
        seats = [
            p if isinstance(p, Seat) else Seat(bots[i].name, None) for i, p in enumerate(players)
        ]
        played = services.game_create(
            ruleset_id=ruleset_id, players=seats,
            bots={seat: bot.id for seat, bot in bots.items()}, **create,
        )
        owners.seats_given(played.players)
    return _shown_to(caller, played, bots.values())


def game_join_seated(
    *, caller: Caller | None, game_id: Any, bot_id: uuid.UUID,
    computers_may_play: ComputersMayPlay | None = None,
) -> Played:
    """``games.play.services.game_join`` for a bot."""
    ruleset = Game.objects.filter(pk=game_id).values_list("ruleset", flat=True).first()
    if ruleset is None:
        raise ServiceError(ServiceCode.NOT_FOUND, gettext_noop("no game with this id"))
    try:
        with transaction.atomic():
            bot = bots_for_seats(
                caller=caller, ruleset_id=ruleset, asked={0: bot_id}, field="bot"
            )[0]
            if Player.objects.filter(game_id=game_id, bot_id=bot_id).exists():
                raise _invalid(f"the bot {bot.name!r} already has a seat in this game", "bot")
            played = services.game_join(
                game_id=game_id, command=Join(name=bot.name), bot_id=bot.id,
                computers_may_play=computers_may_play,
            )
            owners.seats_given(played.players)
    except IntegrityError:  # the same bot joining twice at once: the second is refused
        raise _invalid("this bot already has a seat in this game", "bot") from None
    return _shown_to(caller, played, [bot])


def _shown_to(caller: Caller | None, played: Played, bots: Iterable[Bot]) -> Played:
    """The answer's tokens: a bot's seat's only for a caller whose key owns the bot."""
    owner = owner_of_caller(caller) if caller is not None else None
    theirs = {bot.id for bot in bots if owner is None or owners.owner_of(bot) != owner}
    hidden = {p.seat for p in played.players if p.bot_id in theirs}
    if not hidden:
        return played
    tokens = {seat: token for seat, token in played.tokens.items() if seat not in hidden}
    return replace(played, tokens=tokens)


def _invalid(detail: str, field: str) -> ServiceError:
    return ServiceError(ProblemCode.INVALID, detail, field=field)
