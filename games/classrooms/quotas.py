"""A classroom's quota: what each of its keys may do per hour.

A classroom starts at the deployment's defaults (``settings.CLASSROOM_QUOTA``) and stores
only where it differs from them: a teacher's lowering, or an operator's raise made in the
admin. A teacher never raises a limit above the default (anyone may open a classroom, so a
teacher's word cannot be what lifts a limit); a lowering is always allowed, even of a
limit an operator raised.
"""

from collections.abc import Mapping

from django.conf import settings
from django.utils.translation import gettext_noop

from games.models import Classroom
from games.play.errors import ServiceCode, ServiceError

FIELDS = ("games_per_hour", "advice_per_hour", "computer_moves_per_hour")


def quota_defaults() -> dict[str, int]:
    return {field: int(settings.CLASSROOM_QUOTA[field]) for field in FIELDS}


def quota_of(classroom: Classroom) -> dict[str, int]:
    """The limits the classroom's keys are held to now."""
    stored = classroom.quota if isinstance(classroom.quota, Mapping) else {}
    return {**quota_defaults(), **{f: int(stored[f]) for f in FIELDS if f in stored}}


def quota_check_teacher(*, classroom: Classroom, quota: Mapping[str, int]) -> None:
    """Refuses (``quota_above_default``) a teacher's change that raises a limit above the
    deployment's default; lowering, or keeping a limit as it is, is always allowed."""
    now, defaults = quota_of(classroom), quota_defaults()
    raised = [f for f, value in quota.items() if value > now[f] and value > defaults[f]]
    if raised:
        ceilings = ", ".join(f"{f} {max(now[f], defaults[f])}" for f in raised)
        raise ServiceError(
            ServiceCode.QUOTA_ABOVE_DEFAULT,
            gettext_noop(
                "a teacher may lower the quota, not raise it above the default ({ceilings}); "
                "ask the service's operator for more"
            ),
            ceilings=ceilings,
        )
