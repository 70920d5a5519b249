"""Deep linking: an instructor, from the platform's "add an activity", picks one of the
course's assignments or sets a new one; the answer to the platform is one
``LtiResourceLink`` content item for it, signed with the tool's key. The item carries the
assignment's id as a custom parameter: the platform sends it back, signed, in every launch
of the link, which is how the link finds its assignment (games.lti.launches)."""

import datetime as dt
import typing as t
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop
from lti_tool.models import LtiDeployment
from pylti1p3.deep_link import DeepLink, TDeepLinkData
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from games.classrooms import assignments as assigning
from games.courses.grades import grade_default
from games.lti.claims import CUSTOM_ASSIGNMENT
from games.lti.keys import tool_key_latest
from games.models import Assignment, Classroom
from games.models.assignment import GRADE_MODES
from games.play.errors import ServiceCode, ServiceError
from scoring import ProblemCode

SCORE_MAXIMUM = 100
DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"


@dataclass(frozen=True)
class NewAssignment:
    """The fields of /teach/'s assignment form, and the grade mode."""

    title: str
    ruleset_id: str
    options: dict[str, Any] | None
    games: int
    opens_at: dt.datetime | None
    due_at: dt.datetime
    grade: str | None  # None: accuracy where analysis covers the ruleset, else completion


@dataclass(frozen=True)
class Answer:
    return_url: str
    jwt: str
    assignment: Assignment


class Item(DeepLinkResource):
    """pylti1p3's content item, with the due time (``submission.endDateTime``)."""

    due_at: dt.datetime | None = None

    def to_dict(self) -> dict[str, object]:
        item: dict[str, object] = super().to_dict()
        if self.due_at is not None:
            item["submission"] = {"endDateTime": self.due_at.isoformat()}
        return item


def deep_link_choices(*, classroom_id: uuid.UUID) -> list[Assignment]:
    """The course's assignments an instructor may pick, newest first."""
    return assigning.assignments_of(classroom_id=classroom_id)


def deep_link_answer(
    *,
    deployment_pk: int,
    classroom_id: uuid.UUID,
    settings: dict[str, Any],
    launch_url: str,
    assignment_id: uuid.UUID | None = None,
    new: NewAssignment | None = None,
) -> Answer:
    """The signed deep-linking response for the chosen assignment, or for a new one set now
    in the course's classroom (with its grade mode)."""
    return_url = settings.get("deep_link_return_url")
    if not isinstance(return_url, str) or not return_url:
        raise ServiceError(
            ServiceCode.LTI_LAUNCH_INVALID, gettext_noop("the platform gave no return URL")
        )
    deployment = LtiDeployment.objects.select_related("registration").get(pk=deployment_pk)
    with transaction.atomic():
        if new is not None:
            grade = new.grade or grade_default(new.ruleset_id)
            if grade not in GRADE_MODES:
                raise ServiceError(
                    ProblemCode.INVALID, gettext_noop("grade must be one of {modes}"),
                    field="grade", modes=", ".join(GRADE_MODES),
                )
            classroom = Classroom.objects.get(pk=classroom_id)
            assignment = assigning.assignment_create(
                classroom=classroom,
                title=new.title,
                ruleset_id=new.ruleset_id,
                options=new.options,
                games=new.games,
                opens_at=new.opens_at,
                due_at=new.due_at,
            )
            assignment.grade = grade
            assignment.save(update_fields=["grade"])
        elif assignment_id is not None:
            assignment = assigning.assignment_of(
                classroom_id=classroom_id, assignment_id=assignment_id
            )
        else:
            raise ServiceError(
                ProblemCode.INVALID, gettext_noop("pick an assignment or set a new one")
            )
    tool_key_latest()
    registration = deployment.registration.to_registration()
    item = Item()
    item.due_at = assignment.due_at
    (
        item.set_type("ltiResourceLink")
        .set_title(assignment.title)
        .set_url(launch_url)
        .set_custom_params({CUSTOM_ASSIGNMENT: str(assignment.id)})
        .set_lineitem(
            LineItem()
            .set_score_maximum(SCORE_MAXIMUM)
            .set_label(assignment.title)
            .set_resource_id(str(assignment.id))
        )
    )
    link = DeepLink(registration, deployment.deployment_id, t.cast(TDeepLinkData, settings))
    message = link.get_message_jwt([item])
    if message.get(DATA) is None:  # the request's data goes back only if it had any
        message.pop(DATA, None)
    return Answer(return_url=return_url, jwt=link.encode_jwt(message), assignment=assignment)
