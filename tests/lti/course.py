"""A platform course linked to a classroom, as the tool's launches leave it, made directly
in the tables (the launches themselves are tested elsewhere): the tool registered with the
stand-in platform (``tests.lms``), a course's context and its classroom, learners, resource
links to assignments with their line items."""

import datetime as dt
from dataclasses import dataclass, field

from django.utils import timezone
from lti_tool.models import (
    Key,
    LtiContext,
    LtiDeployment,
    LtiRegistration,
    LtiResourceLink,
    LtiUser,
)

from games.classrooms import assignments
from games.classrooms.services import classroom_create
from games.courses.roster import learner_add
from games.models import Assignment, Game, LtiCourse, LtiLearner, LtiLink, Player
from scoring.match import GameStatus
from tests.lms import Course, Link, Platform, User

TOOL = "http://testserver/lti/"


def tool_registered(lms: Platform) -> LtiRegistration:
    """The tool registered with the platform, and the platform told the tool's keys."""
    key = Key.objects.generate()
    lms.tool(login_url=TOOL + "login/", launch_url=TOOL + "launch/",
             keyset={"keys": [key.as_jwk()]})
    found = lms.registration()
    registration = LtiRegistration.objects.create(
        name="LMS stand-in", issuer=found["issuer"], client_id=found["client_id"],
        auth_url=found["auth_url"], token_url=found["token_url"],
        keyset_url=found["keyset_url"],
    )
    LtiDeployment.objects.create(
        registration=registration, deployment_id=found["deployment_id"], is_active=True
    )
    return registration


@dataclass
class Linked:
    """A platform course and its classroom."""

    lms: Platform
    course: Course
    lti_course: LtiCourse
    teacher_key: str
    learners: dict[str, LtiLearner] = field(default_factory=dict)

    @property
    def classroom_id(self) -> str:
        return str(self.lti_course.classroom_id)

    def launched(self, user: User) -> LtiLearner:
        """The learner as their first launch leaves them."""
        registration = self.lti_course.context.deployment.registration
        lti_user, _ = LtiUser.objects.get_or_create(
            registration=registration, sub=user.sub, defaults={"name": user.name}
        )
        learner = learner_add(course=self.lti_course, user=lti_user, name=user.name)
        self.learners[user.sub] = learner
        return learner

    def assignment(self, link: Link, *, grade: str = "accuracy", games: int = 2,
                   ruleset: str = "yahtzee") -> Assignment:
        """An assignment opened by ``link`` (its line item's URL as the launch gave it)."""
        made = assignments.assignment_create(
            classroom=self.lti_course.classroom, title=link.title, ruleset_id=ruleset,
            options=None, games=games, opens_at=None,
            due_at=timezone.now() + dt.timedelta(hours=1), grade=grade,
        )
        resource = LtiResourceLink.objects.create(
            context=self.lti_course.context, id_on_platform=link.id, title=link.title
        )
        assert link.line_item is not None
        LtiLink.objects.create(resource_link=resource, assignment=made,
                               line_item_url=self.lms.line_item_url(link.line_item))
        return made


def linked_course(lms: Platform, registration: LtiRegistration, course: Course) -> Linked:
    context = LtiContext.objects.create(
        deployment=LtiDeployment.objects.get(registration=registration),
        id_on_platform=course.id, title=course.title,
        memberships_url=lms.memberships_url(course),
    )
    opened = classroom_create(name=course.title)
    lti_course = LtiCourse.objects.create(context=context, classroom=opened.classroom)
    return Linked(lms, course, lti_course, opened.teacher_key)


def played(assignment: Assignment, learner: LtiLearner, *results: tuple[int, float | None]
           ) -> None:
    """The learner's games of the assignment, one per ``(total, accuracy)``: finished, with
    those figures kept; a total of -1 leaves that game unfinished."""
    for total, accuracy in results:
        started = assignments.assignment_game_start(
            classroom_id=assignment.classroom_id, assignment_id=assignment.id,
            student_id=learner.student_id, name=learner.student.name,
        )
        if total < 0:
            continue
        Game.objects.filter(pk=started.game.id).update(
            status=GameStatus.FINISHED, finished_at=timezone.now(), figures_kept=True
        )
        Player.objects.filter(game_id=started.game.id, seat=0).update(
            total=total, accuracy=accuracy
        )


def close(assignment: Assignment) -> None:
    """The deadline passes and a worker closes the assignment."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Assignment.objects.filter(pk=assignment.pk).update(due_at=past)
    Game.objects.filter(assignment=assignment).update(due_at=past)
    assignments.assignment_close(assignment_id=assignment.id)
