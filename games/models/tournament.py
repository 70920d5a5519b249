"""Tournaments: bots and computers on duplicate dice (docs/contract.md, "Tournaments").

Board b's secret is drawn when the tournament is set and only its SHA-256 commitment is
shown until the tournament is over: every game of the board throws from it, so showing it
earlier would show an entrant the dice of games still to be played. The games themselves
are ``Game`` rows that name their tournament, board and number in the schedule
(``games.tournaments.plan``); which entrant sits where follows from the number.
"""

import uuid

from django.db import models
from django.db.models import Q


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    classroom = models.ForeignKey(
        "games.Classroom", on_delete=models.CASCADE, related_name="tournaments"
    )
    # A student's tournament is a scrimmage: theirs to cancel, never rated.
    student = models.ForeignKey(
        "games.Student", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="scrimmages",
    )
    title = models.CharField(max_length=80)
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    seats = models.PositiveSmallIntegerField()
    boards = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField()
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    starts_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Every game of the schedule, and how many of them the worker has started (in order).
    games = models.PositiveIntegerField()
    started = models.PositiveIntegerField(default=0)
    # One hex secret per board, in order; shown only once the tournament is over.
    secrets = models.JSONField(default=list, editable=False)
    # When a worker next looks at it (starts it, starts games as others end, finishes it).
    next_step_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["classroom_id", "-created_at"]
        indexes = [
            models.Index(
                fields=["next_step_at"],
                condition=Q(status__in=["scheduled", "running"]),
                name="tournament_step_due",
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.ruleset}, {self.status})"

    @property
    def over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)


class Entrant(models.Model):
    """Entrant ``number`` (1-based, in the order entered): a bot, or a computer level."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveSmallIntegerField()
    bot = models.ForeignKey(
        "games.Bot", on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    computer = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    name = models.CharField(max_length=50)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_entrant")
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"
