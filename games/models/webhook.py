"""Webhooks: an API key's subscriptions to what happens in its games, and each event's
delivery to them (docs/contract.md, "Webhooks").

A webhook's secret signs every delivery; it is shown once, when the webhook is registered,
and kept here to sign with (a digest could not sign).
"""

import uuid

from django.db import models


class Webhook(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    api_key = models.ForeignKey("games.ApiKey", on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=2000)
    events = models.JSONField(default=list)
    secret = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.url} ({', '.join(self.events)})"


class Delivery(models.Model):
    """One event for one webhook, sent until a receiver takes it or the retries run out.

    It is due while ``retrying`` and ``next_attempt_at`` has passed (by the database's
    clock). A worker takes it for one attempt under a ``lease``, moving ``next_attempt_at``
    to when the lease runs out: a worker that dies mid-attempt leaves it due again then, and
    an outcome is written only under the lease it was taken with.
    """

    class Status(models.TextChoices):
        RETRYING = "retrying"
        DELIVERED = "delivered"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=32)
    payload = models.JSONField()
    attempts = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RETRYING)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    lease = models.UUIDField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "deliveries"
        indexes = [
            # The worker's sweep for deliveries that are due.
            models.Index(
                fields=["next_attempt_at"], condition=models.Q(status="retrying"),
                name="delivery_due",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} to {self.webhook_id} ({self.status})"
