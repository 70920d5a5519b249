"""The grades a learning platform is sent: one score per learner of a course for each of
its resource links to an assignment, sent once the assignment closes (``games.courses``).

A score row is made for every learner when the assignment closes, in the closing's
transaction, and is due until the platform took it. A worker takes a due row under a
``lease`` (moving ``next_attempt_at`` to when the lease runs out, so that a worker that dies
mid-attempt leaves it due again then), sends it, and writes the outcome under that lease.
"""

import uuid

from django.db import models


class LtiScore(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"  # not taken by the platform yet (never tried, or tried and failed)
        SENT = "sent"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    link = models.ForeignKey("games.LtiLink", on_delete=models.CASCADE, related_name="scores")
    learner = models.ForeignKey(
        "games.LtiLearner", on_delete=models.CASCADE, related_name="scores"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    lease = models.UUIDField(null=True, blank=True, editable=False)
    # Why the last attempt failed (the platform's status and the start of its answer).
    last_error = models.CharField(max_length=300, blank=True)
    # The score as the platform took it (the AGS score document sent), once sent.
    sent = models.JSONField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "LTI score"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["link", "learner"], name="one_score_per_learner")
        ]
        indexes = [
            # The worker's sweep for scores that are due.
            models.Index(
                fields=["next_attempt_at"], condition=models.Q(status="waiting"),
                name="lti_score_due",
            )
        ]

    def __str__(self) -> str:
        return f"{self.learner} on {self.link_id} ({self.status})"
