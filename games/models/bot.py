"""Bots: computer players written by a classroom's students (or its teacher) that play over
the API, each taking seats where a person would (docs/contract.md, "Bots").

A bot belongs to whoever registered it: a student of the classroom (``student`` set) or
the classroom's teacher (``student`` null), not to one key, so a rotated key keeps its
owner's bots. Its name is unique among the classroom's bots by ``games.names.name_key``.
A deleted bot is kept (``deleted_at`` set): its past seats still name it, it takes no new
seat, and its name is free again.
"""

import uuid

from django.db import models
from django.db.models import Q


class Bot(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    classroom = models.ForeignKey("games.Classroom", on_delete=models.CASCADE, related_name="bots")
    student = models.ForeignKey(
        "games.Student", on_delete=models.CASCADE, null=True, blank=True, related_name="bots"
    )
    name = models.CharField(max_length=50)
    # games.names.name_key of the name, as for students (case folding may lengthen it).
    name_key = models.CharField(max_length=200, editable=False)
    # The ruleset ids the bot plays; it takes seats in games of these only.
    rulesets = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["classroom_id", "name_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["classroom", "name_key"],
                condition=Q(deleted_at__isnull=True),
                name="unique_bot_name",
            )
        ]
        indexes = [models.Index(fields=["classroom", "student"], name="bot_owner")]

    def __str__(self) -> str:
        return self.name

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None


class KeyNotice(models.Model):
    """A message for the streams of one owner's keys (``GET /me/stream/``) that no game row
    holds: a tournament of the owner's bots changed status. Streams open when it is written
    send it; one that opens later does not (it is news, not state). Kept for a day."""

    classroom = models.ForeignKey("games.Classroom", on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(
        "games.Student", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    event = models.CharField(max_length=16)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["classroom", "student", "id"], name="notice_owner")]

    def __str__(self) -> str:
        return f"{self.event} #{self.pk}"
