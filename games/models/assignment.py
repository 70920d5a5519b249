"""Assignments: a classroom's students each play the same number of games of one ruleset
before a deadline, game k of every student thrown from the same secret (docs/contract.md,
"Assignments").

The secrets are drawn when the assignment is set, and only their SHA-256 commitments are
shown until it closes: game k's secret is every student's, so showing it earlier would
show a student the dice of a classmate's game still to be played.
"""

import datetime as dt
import uuid
from enum import StrEnum

from django.db import models
from django.utils import timezone


class AssignmentStatus(StrEnum):
    SCHEDULED = "scheduled"
    OPEN = "open"
    CLOSED = "closed"


# The grade modes: mean accuracy (0-100), games finished of games set (x100), or rank.
GRADE_MODES = ("accuracy", "completion", "rank")


class Assignment(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    classroom = models.ForeignKey(
        "games.Classroom", on_delete=models.CASCADE, related_name="assignments"
    )
    title = models.CharField(max_length=80)
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    games = models.PositiveSmallIntegerField()
    opens_at = models.DateTimeField()
    due_at = models.DateTimeField(db_index=True)
    # One hex secret per game, in order; shown only once the assignment is closed.
    secrets = models.JSONField(default=list, editable=False)
    # How a platform's grade is made of a student's results (GRADE_MODES): set at creation.
    grade = models.CharField(max_length=12, default="accuracy")
    created_at = models.DateTimeField(auto_now_add=True)
    # When its games still active were abandoned and its secrets shown (by a worker, within
    # seconds of ``due_at``).
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["classroom_id", "-created_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.ruleset}, {self.games} games)"

    def status(self, now: dt.datetime | None = None) -> AssignmentStatus:
        """Scheduled before ``opens_at``, open until ``due_at``, closed from then on: at
        ``now`` (a time of the database's clock) when given, as a new game sees it; else as
        a reader sees it, closed once the closing has run (``closed_at``) and open until
        then."""
        if self.closed_at is not None or (now is not None and now >= self.due_at):
            return AssignmentStatus.CLOSED
        if (now or timezone.now()) < self.opens_at:
            return AssignmentStatus.SCHEDULED
        return AssignmentStatus.OPEN
