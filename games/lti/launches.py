"""A checked launch (games.lti.tool) entered: its nonce and state spent, the course mapped to
its classroom, the person to the classroom's teacher or to one of its students, the
resource link to its assignment. All in one transaction: a refused launch creates nothing.

Which course, person and link a launch names comes only from the signed id_token, and
every lookup goes through the launch's own deployment (of its own registration): a
context id of one deployment never finds another's classroom.
"""

import datetime as dt
import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop
from lti_tool.models import (
    LtiContext,
    LtiDeployment,
    LtiMembership,
    LtiRegistration,
    LtiResourceLink,
    LtiUser,
)

from games.classrooms import assignments as assigning
from games.classrooms.keys import key_issue
from games.classrooms.services import classroom_create
from games.courses.roster import learner_add
from games.lti import claims as c
from games.models import (
    ApiKey,
    Assignment,
    Game,
    LtiCourse,
    LtiLearner,
    LtiLink,
    LtiSpent,
    Player,
)
from games.play.errors import REFUSALS, ServiceCode, ServiceError
from games.play.privacy import hash_token, new_token
from scoring.match import GameStatus

SPENT_KEPT = dt.timedelta(days=2)  # longer than any token or state lives


@dataclass(frozen=True)
class Entered:
    """Where the launch goes on: as whom (the key row behind the session), to which page."""

    role: str  # "teacher" or "student"
    key_id: int
    classroom_id: uuid.UUID
    course_id: int
    deep_link: dict[str, Any] | None = None  # a deep-linking request's settings
    game_id: uuid.UUID | None = None
    seat: int | None = None
    seat_token: str | None = field(default=None, repr=False)
    notice: str = ""

    @property
    def path(self) -> str:
        if self.role == "teacher":
            return "/teach/"
        return f"/play/{self.game_id}/" if self.game_id else "/play/"


def spend(kind: str, value: str) -> None:
    """Marks a nonce, state or ticket used; ``lti_replayed`` if it was already."""
    digest = hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()
    try:
        with transaction.atomic():
            LtiSpent.objects.create(digest=digest, spent_at=timezone.now())
    except IntegrityError:
        raise ServiceError(
            ServiceCode.LTI_REPLAYED,
            gettext_noop("this launch's {kind} was used already"),
            kind=kind,
        ) from None


def launch_enter(
    *,
    registration: LtiRegistration,
    deployment: LtiDeployment,
    claims: dict[str, Any],
    state: str,
) -> Entered:
    """Enters a launch that passed every check of ``games.lti.tool.launch_check``."""
    kind = claims.get(c.MESSAGE_TYPE)
    if kind not in (c.RESOURCE_LINK, c.DEEP_LINKING):
        raise ServiceError(
            ServiceCode.LTI_LAUNCH_INVALID,
            gettext_noop("unsupported message type {kind!r}"),
            kind=kind,
        )
    teacher = c.is_instructor(claims)
    if not teacher and not c.is_learner(claims):
        raise ServiceError(
            ServiceCode.LTI_ROLE_UNKNOWN,
            gettext_noop("the platform gives you no instructor or learner role in this course"),
        )
    if kind == c.DEEP_LINKING and not teacher:
        raise ServiceError(
            ServiceCode.LTI_ROLE_UNKNOWN, gettext_noop("only instructors add activities")
        )
    context = claims.get(c.CONTEXT)
    if not isinstance(context, dict) or not isinstance(context.get("id"), str) or not context["id"]:
        raise ServiceError(
            ServiceCode.LTI_LAUNCH_INVALID, gettext_noop("the launch names no course (context)")
        )
    with transaction.atomic():
        LtiSpent.objects.filter(spent_at__lt=timezone.now() - SPENT_KEPT).delete()
        spend("nonce", str(claims["nonce"]))
        spend("state", state)
        user = _user(registration, claims)
        lti_context = _context(deployment, context, claims)
        _membership(user, lti_context, claims)
        course = _course(lti_context)
        if kind == c.DEEP_LINKING:
            return Entered(
                role="teacher",
                key_id=_teacher_key(course),
                classroom_id=course.classroom_id,
                course_id=course.pk,
                deep_link=c.deep_link_settings(claims),
            )
        link = _link(lti_context, course, claims)
        if teacher:
            return Entered(
                role="teacher",
                key_id=_teacher_key(course),
                classroom_id=course.classroom_id,
                course_id=course.pk,
            )
        learner = _learner(course, user, claims)
        entered = Entered(
            role="student",
            key_id=_learner_key(learner),
            classroom_id=course.classroom_id,
            course_id=course.pk,
        )
        return _next_game(entered, learner, link) if link is not None else entered


def _user(registration: LtiRegistration, claims: dict[str, Any]) -> LtiUser:
    person = {
        k: str(claims[k])[:500]
        for k in ("given_name", "family_name", "name", "email")
        if isinstance(claims.get(k), str)
    }
    user, _ = LtiUser.objects.update_or_create(
        registration=registration, sub=claims["sub"], defaults=person
    )
    return user


def _context(
    deployment: LtiDeployment, context: dict[str, Any], claims: dict[str, Any]
) -> LtiContext:
    found: dict[str, Any] = {
        "title": str(context.get("title") or "")[:500],
        "label": str(context.get("label") or "")[:255],
    }
    nrps = claims.get(c.NRPS)
    if isinstance(nrps, dict) and isinstance(nrps.get("context_memberships_url"), str):
        found["memberships_url"] = nrps["context_memberships_url"][:200]
    found.update(c.ags_props(claims))
    lti_context, _ = LtiContext.objects.update_or_create(
        deployment=deployment, id_on_platform=context["id"][:255], defaults=found
    )
    return lti_context


def _membership(user: LtiUser, context: LtiContext, claims: dict[str, Any]) -> None:
    LtiMembership.objects.update_or_create(
        user=user, context=context, defaults=c.role_flags(claims)
    )


def _course(context: LtiContext) -> LtiCourse:
    """The course's classroom, made at its first launch. The context's row is locked for
    the rest of the launch: two first launches of one course (or two first launches of one
    learner) wait for each other rather than both making one."""
    LtiContext.objects.select_for_update().filter(pk=context.pk).first()
    course = LtiCourse.objects.select_for_update().filter(context=context).first()
    if course is not None:
        return course
    opened = classroom_create(name=c.classroom_name(context.title or context.label))
    key = ApiKey.objects.filter(classroom=opened.classroom, role=ApiKey.Role.TEACHER).first()
    return LtiCourse.objects.create(context=context, classroom=opened.classroom, teacher_key=key)


def _live(key: ApiKey | None) -> bool:
    return key is not None and key.revoked_at is None


def _teacher_key(course: LtiCourse) -> int:
    key = course.teacher_key
    if key is None or not _live(key):
        key_issue(classroom_id=course.classroom_id)
        key = (
            ApiKey.objects.filter(
                classroom_id=course.classroom_id, role=ApiKey.Role.TEACHER, revoked_at=None
            )
            .order_by("-created_at", "-id")
            .first()
        )
        course.teacher_key = key
        course.save(update_fields=["teacher_key"])
    assert key is not None
    return key.pk


def _learner(course: LtiCourse, user: LtiUser, claims: dict[str, Any]) -> LtiLearner:
    learner = (
        LtiLearner.objects.select_related("student", "key")
        .filter(course=course, user=user)
        .first()
    )
    if learner is not None:
        return learner
    return learner_add(course=course, user=user, name=c.person_name(claims) or "Student")


def _learner_key(learner: LtiLearner) -> int:
    if learner.key is not None and _live(learner.key):
        return learner.key.pk
    if learner.key is not None or ApiKey.objects.filter(
        student=learner.student, revoked_at__isnull=False
    ).exists():
        raise ServiceError(
            ServiceCode.INVALID_API_KEY,
            gettext_noop("your teacher has revoked your access to this classroom"),
        )
    key_issue(classroom_id=learner.course.classroom_id, student_id=learner.student_id)
    learner.key = ApiKey.objects.filter(student=learner.student, revoked_at=None).first()
    learner.save(update_fields=["key"])
    assert learner.key is not None
    return learner.key.pk


def _link(
    context: LtiContext, course: LtiCourse, claims: dict[str, Any]
) -> LtiLink | None:
    claim = claims.get(c.RESOURCE_LINK_CLAIM)
    if not isinstance(claim, dict) or not isinstance(claim.get("id"), str):
        raise ServiceError(
            ServiceCode.LTI_LAUNCH_INVALID, gettext_noop("the launch names no resource link")
        )
    resource_link, _ = LtiResourceLink.objects.update_or_create(
        context=context,
        id_on_platform=claim["id"][:255],
        defaults={"title": str(claim.get("title") or "")[:500]},
    )
    line_item = c.line_item_url(claims)
    link = LtiLink.objects.filter(resource_link=resource_link).first()
    if link is None:
        wanted = c.assignment_id(claims)
        assignment = (
            Assignment.objects.filter(pk=wanted, classroom_id=course.classroom_id).first()
            if wanted is not None
            else None
        )
        if assignment is None:
            return None
        return LtiLink.objects.create(
            resource_link=resource_link, assignment=assignment, line_item_url=line_item
        )
    if line_item and link.line_item_url != line_item:
        link.line_item_url = line_item
        link.save(update_fields=["line_item_url"])
    return link


def _next_game(entered: Entered, learner: LtiLearner, link: LtiLink) -> Entered:
    """The learner's next game of the link's assignment: the one they have going (its seat
    given a new token for this browser), else a new one; none when it is not open or all
    are started (a notice says why)."""
    going = (
        Game.objects.filter(
            assignment_id=link.assignment_id,
            student_id=learner.student_id,
            status__in=[GameStatus.WAITING, GameStatus.ACTIVE],
        )
        .order_by("assignment_game")
        .first()
    )
    if going is not None:
        seat = Player.objects.filter(game=going).order_by("seat").first()
        if seat is not None:
            token = new_token()
            Player.objects.filter(pk=seat.pk).update(token_hash=hash_token(token))
            return _with_game(entered, going.pk, seat.seat, token)
    try:
        with transaction.atomic():
            played = assigning.assignment_game_start(
                classroom_id=entered.classroom_id,
                assignment_id=link.assignment_id,
                student_id=learner.student_id,
                name=learner.student.name,
            )
    except REFUSALS as refused:
        return Entered(**{**entered.__dict__, "notice": str(refused)})
    seat_number, token = next(iter(played.tokens.items()))
    return _with_game(entered, played.game.pk, seat_number, token)


def _with_game(entered: Entered, game_id: uuid.UUID, seat: int, token: str) -> Entered:
    return Entered(
        **{**entered.__dict__, "game_id": game_id, "seat": seat, "seat_token": token}
    )


def ticket_spend(*, ticket_id: str) -> None:
    """A launch's ticket (its step into the browser's session) used: once only."""
    with transaction.atomic():
        spend("ticket", ticket_id)
