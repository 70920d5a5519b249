"""Grades sent back to a learning platform (Assignment and Grade Services), as work that is
never lost.

When an assignment closes, ``scores_queue`` (in the closing's transaction) makes one score
row for every active learner of each course whose resource link opens the assignment, due
at once. A worker (``games.work.passback``) then calls ``scores_send`` again and again: it
takes due rows under a lease, works out each learner's grade, and posts it to the link's
line item (its URL kept as the platform gave it, query and all) with pylti1p3; each outcome
is written under the lease. A row the platform did not take stays due: tried again after a
growing wait (1, 2, 4 ... seconds, at most ``LONGEST_WAIT``), whether the platform was away,
did not answer or refused, until it takes it. A worker that dies mid-way leaves its rows due
again when their lease runs out.

A score is sent once in all but one case: a worker that dies after the platform took a
score and before it wrote so. Then the same score (same timestamp, the closing's) is sent
again, which a platform keeps as one.
"""

import datetime as dt
import logging
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade as AgsGrade

from games.courses.connect import (
    PLATFORM_FAILURES,
    SCORE_SCOPE,
    Connectors,
    failure_text,
    learner_refused,
)
from games.courses.grades import SCORE_MAXIMUM, Grade, figures_pending, grades_of
from games.db.clock import db_now
from games.models import LtiLearner, LtiLink, LtiScore

log = logging.getLogger("games.work")

# Long enough for a batch of AT_ONCE scores to a platform that takes a second for each.
LEASE = dt.timedelta(seconds=120)
LONGEST_WAIT = 30.0
# How long the first scores of an accuracy-graded assignment wait for the accuracy of its
# last finished games to be kept, at most.
FIGURES_WAIT = dt.timedelta(seconds=30)
AT_ONCE = 50


def scores_queue(*, assignment_id: uuid.UUID) -> int:
    """One score, due now, for every active learner of each platform course whose resource
    link (with a line item) opens the assignment. Call in the closing's transaction; safe
    to call again (a learner's score on a link is made once). Answers how many were made."""
    links = (
        LtiLink.objects.filter(assignment_id=assignment_id)
        .exclude(line_item_url="")
        .select_related("resource_link__context__course")
    )
    now = db_now()
    made: list[LtiScore] = []
    for link in links:
        course = getattr(link.resource_link.context, "course", None)
        if course is None:
            continue
        learners = LtiLearner.objects.filter(course=course, active=True).values_list(
            "pk", flat=True
        )
        made += [LtiScore(link=link, learner_id=pk, next_attempt_at=now) for pk in learners]
    LtiScore.objects.bulk_create(made, ignore_conflicts=True)
    return len(made)


@dataclass(frozen=True)
class Taken:
    lease: uuid.UUID
    by_link: dict[Any, list[uuid.UUID]]


def scores_take(*, most: int = AT_ONCE) -> Taken:
    """Up to ``most`` due scores, taken under a new lease (others' skipped)."""
    lease = uuid.uuid4()
    with transaction.atomic():
        due = list(
            LtiScore.objects.select_for_update(skip_locked=True)
            .filter(status=LtiScore.Status.WAITING, next_attempt_at__lte=Now())
            .order_by("next_attempt_at")
            .values_list("pk", "link_id")[:most]
        )
        if due:
            LtiScore.objects.filter(pk__in=[pk for pk, _ in due]).update(
                lease=lease, next_attempt_at=db_now() + LEASE
            )
    by_link: dict[Any, list[uuid.UUID]] = defaultdict(list)
    for pk, link_id in due:
        by_link[link_id].append(pk)
    return Taken(lease=lease, by_link=dict(by_link))


def scores_send(*, most: int = AT_ONCE, connectors: Connectors | None = None) -> int:
    """Sends up to ``most`` due scores; answers how many were taken (sent or not).
    ``connectors``: those of the calling thread, kept from batch to batch (their tokens
    with them); a new set for this batch if none."""
    taken = scores_take(most=most)
    connectors = connectors or Connectors()
    for link_id, ids in taken.by_link.items():
        _send_link(link_id, ids, taken.lease, connectors)
    return sum(len(ids) for ids in taken.by_link.values())


def score_document(*, sub: str, grade: Grade, timestamp: dt.datetime) -> dict[str, Any]:
    """The AGS score of one learner."""
    return {
        "userId": sub,
        "scoreGiven": grade.score,
        "scoreMaximum": SCORE_MAXIMUM,
        "activityProgress": "Completed" if grade.completed else "InProgress",
        "gradingProgress": "FullyGraded",
        "comment": grade.comment,
        "timestamp": timestamp.isoformat(),
    }


def _send_link(
    link_id: Any, ids: list[uuid.UUID], lease: uuid.UUID, connectors: Connectors
) -> None:
    link = LtiLink.objects.select_related(
        "assignment", "resource_link__context__deployment__registration"
    ).get(pk=link_id)
    assignment = link.assignment
    closed_at = assignment.closed_at or db_now()
    if (
        assignment.grade == "accuracy"
        and db_now() < closed_at + FIGURES_WAIT
        and figures_pending(assignment=assignment)
    ):
        _put_off(ids, lease, wait=2.0, error="", count=False)
        return
    grades = grades_of(assignment=assignment)
    scores = list(
        LtiScore.objects.filter(pk__in=ids, lease=lease).select_related("learner__user")
    )
    registration = link.resource_link.context.deployment.registration
    ags = AssignmentsGradesService(
        connectors.of(registration), {"scope": [SCORE_SCOPE], "lineitem": link.line_item_url}
    )
    for number, score in enumerate(scores):
        grade = grades.get(score.learner.student_id) or Grade(0.0, False, "No game finished.")
        document = score_document(sub=score.learner.user.sub, grade=grade, timestamp=closed_at)
        try:
            ags.put_grade(_ags_grade(document))
        except PLATFORM_FAILURES as failure:
            text = failure_text(failure)
            if learner_refused(failure):  # this learner's score only: the others go on
                log.warning("score of %s to %s put off: %s", score.learner.user.sub,
                            link.line_item_url, text)
                _put_off([score.pk], lease, wait=_wait(score.attempts + 1), error=text,
                         count=True)
                continue
            log.warning("scores of %s to %s put off: %s", assignment.id, link.line_item_url, text)
            connectors.forget(registration)  # its next try asks a new token
            _put_off([s.pk for s in scores[number:]], lease, wait=_wait(score.attempts + 1),
                     error=text, count=True)
            return
        LtiScore.objects.filter(pk=score.pk, lease=lease).update(
            status=LtiScore.Status.SENT, sent=document, sent_at=Now(), lease=None,
            last_error="", attempts=F("attempts") + 1, next_attempt_at=None,
        )


def _ags_grade(document: dict[str, Any]) -> AgsGrade:
    return (
        AgsGrade()
        .set_user_id(document["userId"])
        .set_score_given(document["scoreGiven"])
        .set_score_maximum(document["scoreMaximum"])
        .set_activity_progress(document["activityProgress"])
        .set_grading_progress(document["gradingProgress"])
        .set_comment(document["comment"])
        .set_timestamp(document["timestamp"])
    )


def _wait(attempts: int) -> float:
    return float(min(2.0 ** (attempts - 1), LONGEST_WAIT))


def _put_off(
    ids: list[uuid.UUID], lease: uuid.UUID, *, wait: float, error: str, count: bool
) -> None:
    changes: dict[str, Any] = {"lease": None,
                               "next_attempt_at": db_now() + dt.timedelta(seconds=wait)}
    if count:
        changes |= {"attempts": F("attempts") + 1, "last_error": error[:300]}
    LtiScore.objects.filter(pk__in=ids, lease=lease).update(**changes)


def scores_due_now(*, ids: list[Any]) -> int:
    """The given scores still waiting (and not being sent) made due at once, their waits
    forgotten (an operator's "send now"). Answers how many."""
    return LtiScore.objects.filter(
        pk__in=ids, status=LtiScore.Status.WAITING, lease__isnull=True
    ).update(next_attempt_at=Now())


def run_due() -> int:
    """Every score due now, sent in this thread (tests, a one-off run); answers how many
    were taken."""
    total, connectors = 0, Connectors()
    while taken := scores_send(connectors=connectors):
        total += taken
    return total
