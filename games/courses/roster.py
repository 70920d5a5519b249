"""A course's roster synced from its platform (Names and Role Provisioning Service): the
course's learners made students of its classroom, those gone from the course or inactive
there made inactive here. Nothing is deleted, and staff are never made students.

The members are read first (every page, following ``Link: rel="next"``, by pylti1p3), with
no transaction open; then everything is written in one transaction that holds the course's
row, so that two syncs of one course do not cross.
"""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop
from lti_tool.models import LtiUser
from pylti1p3.names_roles import NamesRolesProvisioningService

from games.courses.connect import PLATFORM_FAILURES, connector, failure_text
from games.models import Classroom, LtiCourse, LtiLearner, Student
from games.names import NameRefused, name_clean, name_key
from games.play.errors import ServiceCode, ServiceError

STAFF = frozenset({"Instructor", "TeachingAssistant", "ContentDeveloper", "Administrator"})
NAME_LENGTH = 50


@dataclass(frozen=True)
class Synced:
    members: int  # the course's members the platform listed, staff included
    added: int  # learners new to the classroom
    made_inactive: int  # learners gone from the course, or inactive there
    made_active: int  # inactive learners active in the course again


def role_names(roles: Iterable[str]) -> set[str]:
    """The LIS role names of a member's roles: ``...membership#Instructor`` and
    ``...membership/Instructor#TeachingAssistant`` (a sub-role) name ``Instructor`` and
    ``TeachingAssistant``; a short name (``Learner``) names itself."""
    names: set[str] = set()
    for role in roles:
        head, _, fragment = role.rpartition("#")
        names.add(fragment)
        if "/membership/" in head:
            names.add(head.rsplit("/", 1)[-1])
    return names


def is_learner(member: dict[str, Any]) -> bool:
    """A learner of the course and no kind of staff."""
    names = role_names(member.get("roles") or [])
    return "Learner" in names and not names & STAFF


def course_of(classroom: Classroom) -> LtiCourse:
    """The platform course the classroom was made for; ``lti_not_linked`` if none."""
    course = (
        LtiCourse.objects.select_related("context__deployment__registration")
        .filter(classroom=classroom)
        .first()
    )
    if course is None:
        raise ServiceError(
            ServiceCode.LTI_NOT_LINKED,
            gettext_noop("this classroom was not made by a learning platform"),
        )
    return course


def course_title(*, classroom: Classroom) -> str | None:
    """The title of the platform course the classroom was made for; None if none made it.
    One query."""
    return (
        LtiCourse.objects.filter(classroom=classroom)
        .values_list("context__title", flat=True)
        .first()
    )


def lti_roster_sync(*, classroom: Classroom) -> Synced:
    """Reads the course's members from its platform and syncs its learners into the
    classroom. ``lti_not_linked`` for a classroom no platform course made, or whose platform
    offers no roster; ``lti_platform_unavailable`` when the platform cannot be read (then
    nothing changes)."""
    course = course_of(classroom)
    context = course.context
    if not context.memberships_url:
        raise ServiceError(
            ServiceCode.LTI_NOT_LINKED,
            gettext_noop("the course's platform offers no roster to this tool"),
        )
    service = NamesRolesProvisioningService(
        connector(context.deployment.registration),
        {"context_memberships_url": context.memberships_url},
    )
    try:
        members: list[dict[str, Any]] = [dict(m) for m in service.get_members()]
    except PLATFORM_FAILURES as failure:
        raise ServiceError(
            ServiceCode.LTI_PLATFORM_UNAVAILABLE,
            gettext_noop("the course's roster could not be read: {reason}"),
            reason=failure_text(failure),
        ) from failure
    with transaction.atomic():
        LtiCourse.objects.select_for_update().filter(pk=course.pk).first()
        return _sync(course, [m for m in members if m.get("user_id")])


def _sync(course: LtiCourse, members: list[dict[str, Any]]) -> Synced:
    registration = course.context.deployment.registration
    known = {
        learner.user.sub: learner
        for learner in LtiLearner.objects.filter(course=course).select_related("user")
    }
    active: set[str] = set()
    added = made_active = 0
    for member in members:
        sub = str(member["user_id"])
        if not is_learner(member) or member.get("status", "Active") != "Active":
            continue
        active.add(sub)
        learner = known.get(sub)
        if learner is None:
            learner_add(course=course, user=_user(registration, member),
                        name=member_name(member))
            added += 1
        elif not learner.active:
            learner.active = True
            learner.save(update_fields=["active"])
            made_active += 1
    gone = [learner.pk for sub, learner in known.items() if learner.active and sub not in active]
    LtiLearner.objects.filter(pk__in=gone).update(active=False)
    return Synced(members=len(members), added=added, made_inactive=len(gone),
                  made_active=made_active)


def _user(registration: Any, member: dict[str, Any]) -> LtiUser:
    fields = {
        "name": member.get("name"),
        "given_name": member.get("given_name"),
        "family_name": member.get("family_name"),
        "email": member.get("email"),
    }
    user, _ = LtiUser.objects.update_or_create(
        registration=registration,
        sub=str(member["user_id"]),
        defaults={k: v[:254] for k, v in fields.items() if isinstance(v, str) and v},
    )
    return user


def member_name(member: dict[str, Any]) -> str:
    """The name the platform gives a member, as a student's name is kept (``Learner``
    where it gives none fit to show)."""
    given = member.get("name") or " ".join(
        part for part in (member.get("given_name"), member.get("family_name")) if part
    )
    try:
        return name_clean(str(given or ""))[:NAME_LENGTH].strip() or "Learner"
    except NameRefused:
        return "Learner"


def distinct_name(*, classroom_id: uuid.UUID, name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``... : the first no student of the classroom
    has (as names are compared: ``games.names.name_key``)."""
    taken = set(
        Student.objects.filter(classroom_id=classroom_id).values_list("name_key", flat=True)
    )
    chosen, number = name, 1
    while name_key(chosen) in taken:
        number += 1
        suffix = f" ({number})"
        chosen = name[: NAME_LENGTH - len(suffix)].rstrip() + suffix
    return chosen


def learner_add(*, course: LtiCourse, user: LtiUser, name: str) -> LtiLearner:
    """A platform user made a student of the course's classroom, under a name no other
    student there has. Call within a transaction that holds the course's row."""
    chosen = distinct_name(classroom_id=course.classroom_id, name=name)
    student = Student.objects.create(
        classroom_id=course.classroom_id, name=chosen, name_key=name_key(chosen)
    )
    return LtiLearner.objects.create(course=course, user=user, student=student)
