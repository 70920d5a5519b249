"""What the teacher (on ``/teach/``) and the admin see of an assignment's grades: each
learner's passback status. One query."""

import datetime as dt
import uuid
from dataclasses import dataclass

from games.models import Assignment, LtiScore

# Worst first: a learner with scores on several links shows the least advanced.
ORDER = ("retrying", "waiting", "sent")


@dataclass(frozen=True)
class Passback:
    status: str  # waiting (not tried yet), retrying (tried, not taken yet), sent
    attempts: int
    score: float | None  # as the platform took it, once sent
    sent_at: dt.datetime | None
    error: str  # why the last attempt failed, while retrying


def passback_of(*, assignment: Assignment) -> dict[uuid.UUID, Passback]:
    """Each learner's (by student id) passback status for the assignment; students who are
    no platform course's learners, and every student while nothing is queued (before the
    closing, or for an assignment no platform links to), have none."""
    found: dict[uuid.UUID, Passback] = {}
    rows = LtiScore.objects.filter(link__assignment=assignment).values_list(
        "learner__student_id", "status", "attempts", "sent", "sent_at", "last_error"
    )
    for student_id, status, attempts, sent, sent_at, error in rows:
        shown = status if status == LtiScore.Status.SENT else (
            "retrying" if attempts else "waiting"
        )
        now = Passback(shown, attempts, (sent or {}).get("scoreGiven"), sent_at,
                       "" if shown == "sent" else error)
        before = found.get(student_id)
        if before is None or ORDER.index(now.status) < ORDER.index(before.status):
            found[student_id] = now
    return found
