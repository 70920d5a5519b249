"""Registering bots, listing them, changing and deleting them (docs/contract.md, "Bots").

A bot belongs to whoever registered it (``games.arena.owners``); its owner and the
classroom's teacher may read, change and delete it. To anyone else it does not exist
(``not_found``). Names are unique among the classroom's live bots by ``games.names.name_key``
(``name_taken``, under concurrent registrations too: the unique constraint decides); an
owner holds at most ``MOST_PER_OWNER`` live bots (``too_many_bots``: registrations of one
owner are counted in turn, under a lock of the owner's row). Deleting is kept: a deleted
bot's seats still name it, it takes no new seat, and its name is free again.
"""

import uuid
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.arena.owners import Owner
from games.classrooms.keys import Caller
from games.models import Bot, Classroom, Student
from games.names import name_key
from games.play.errors import ServiceCode, ServiceError

MOST_PER_OWNER = 10


def owner_of_caller(caller: Caller) -> Owner:
    student = caller.student
    return Owner(caller.classroom.id, student.id if student is not None else None)


def bot_register(*, caller: Caller, name: str, rulesets: Sequence[str]) -> Bot:
    """A new bot of the caller (``name`` as ``games.names.name_clean`` gives it)."""
    owner = owner_of_caller(caller)
    try:
        with transaction.atomic():
            _lock_owner(owner)
            if Bot.objects.filter(owner.bots(), deleted_at__isnull=True).count() >= (
                MOST_PER_OWNER
            ):
                raise ServiceError(
                    ServiceCode.TOO_MANY_BOTS,
                    gettext_noop("one key registers at most {most} bots: delete one first"),
                    most=MOST_PER_OWNER,
                )
            return Bot.objects.create(
                classroom_id=owner.classroom_id, student_id=owner.student_id, name=name,
                name_key=name_key(name), rulesets=list(dict.fromkeys(rulesets)),
            )
    except IntegrityError:
        raise _taken(name) from None


def bots_of(*, caller: Caller) -> list[Bot]:
    """The caller's live bots; a teacher's key: every live bot of the classroom."""
    found = Bot.objects.filter(classroom_id=caller.classroom.id, deleted_at__isnull=True)
    if not caller.is_teacher:
        found = found.filter(owner_of_caller(caller).bots())
    return list(found.select_related("student").order_by("created_at", "id"))


def bot_of(*, caller: Caller, bot_id: uuid.UUID, lock: bool = False) -> Bot:
    """A live bot the caller may manage (its owner, or the classroom's teacher)."""
    found = Bot.objects.filter(
        pk=bot_id, classroom_id=caller.classroom.id, deleted_at__isnull=True
    ).select_related("student")
    if lock:
        found = found.select_for_update(of=("self",))
    bot = found.first()
    mine = bot is not None and bot.student_id == owner_of_caller(caller).student_id
    if bot is None or not (caller.is_teacher or mine):
        raise ServiceError(ServiceCode.NOT_FOUND, gettext_noop("no bot of yours has this id"))
    return bot


def bot_update(
    *,
    caller: Caller,
    bot_id: uuid.UUID,
    name: str | None = None,
    rulesets: Sequence[str] | None = None,
) -> Bot:
    """Renames the bot and/or sets its rulesets; seats it holds keep the name they had."""
    try:
        with transaction.atomic():
            bot = bot_of(caller=caller, bot_id=bot_id, lock=True)
            if name is not None:
                bot.name, bot.name_key = name, name_key(name)
            if rulesets is not None:
                bot.rulesets = list(dict.fromkeys(rulesets))
            bot.save(update_fields=["name", "name_key", "rulesets"])
            return bot
    except IntegrityError:
        raise _taken(name or "") from None


def bot_delete(*, caller: Caller, bot_id: uuid.UUID) -> None:
    """The bot plays no new game; the games it sat in keep it."""
    with transaction.atomic():
        bot = bot_of(caller=caller, bot_id=bot_id, lock=True)
        bot.deleted_at = timezone.now()
        bot.save(update_fields=["deleted_at"])


def _lock_owner(owner: Owner) -> None:
    """The owner's row, locked until the transaction ends (a student's, or the classroom's
    for its teacher): registrations of one owner are counted one after the other."""
    if owner.student_id is not None:
        Student.objects.select_for_update().filter(pk=owner.student_id).first()
    else:
        Classroom.objects.select_for_update().filter(pk=owner.classroom_id).first()


def _taken(name: str) -> ServiceError:
    return ServiceError(
        ServiceCode.NAME_TAKEN,
        gettext_noop("a bot of this classroom is already named {name!r}: choose another name"),
        field="name", name=name,
    )
