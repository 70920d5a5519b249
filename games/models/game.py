"""Games, their seats, their filled boxes and their log.

The rules engine's state is kept whole in ``Game.state`` (only ``scoring`` reads it); the
other rows record what happened, for admins, history and the high-score table.
"""

import uuid

from django.db import models
from django.db.models import Q

from scoring import get_ruleset
from scoring.match import GameStatus
from scoring.ruleset import View
from scoring.verifiable import DERIVED

# The engine's statuses as field choices, each with the label the admin shows ("Waiting").
STATUS_CHOICES = [(status.value, status.value.capitalize()) for status in GameStatus]


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    ruleset = models.CharField(max_length=32, db_index=True)
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=GameStatus.ACTIVE)
    ranked = models.BooleanField(default=True)
    seed = models.BigIntegerField(null=True, blank=True)
    open_seats = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    last_seq = models.PositiveIntegerField(default=0)
    state = models.JSONField(default=dict)
    winners = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # How the dice are found (``games.play.dice``): from the hex secret and the client seed,
    # or, for games created before, drawn ("legacy"). The secret is shown nowhere until the
    # game is over: not in an answer, an event, a log line or the admin.
    dice_algorithm = models.CharField(max_length=16, default=DERIVED, editable=False)
    dice_secret = models.CharField(max_length=64, blank=True, editable=False)
    client_seed = models.CharField(max_length=64, blank=True, editable=False)
    # A game created with a student's API key belongs to that student (and its classroom).
    classroom = models.ForeignKey(
        "games.Classroom", on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    student = models.ForeignKey(
        "games.Student", on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    # A game of an assignment: its number k among the student's (game k of every student is
    # thrown from the assignment's k-th secret). Until ``due_at`` (the assignment's deadline)
    # only the student and the teacher see it, and it may be played; its secret stays sealed
    # until the assignment closes, even once the game is over.
    assignment = models.ForeignKey(
        "games.Assignment", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="played",
    )
    assignment_game = models.PositiveSmallIntegerField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    dice_sealed = models.BooleanField(default=False, editable=False)
    # A turn clock (``games.play.clocks``): a person to move has ``clock_seconds`` for each
    # move; past ``deadline`` a worker finishes the turn as the greedy computer would, and
    # after ``clock_max_timeouts`` such turns in a row the seat leaves. ``timeouts`` counts,
    # per seat, its turns timed out in a row.
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_max_timeouts = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    timeouts = models.JSONField(default=list, blank=True)
    # Whether a finished student's game has its seats' accuracies kept (``Player.accuracy``,
    # by a worker: ``games.classrooms.figures``).
    figures_kept = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            # The high-score table: ranked games of a ruleset that finished since a time.
            models.Index(
                fields=["ruleset", "finished_at"],
                condition=Q(status=GameStatus.FINISHED, ranked=True),
                name="game_leaderboard",
            ),
            # The worker's sweep for clocks that are due: only games with a deadline.
            models.Index(
                fields=["deadline"], condition=Q(deadline__isnull=False), name="game_clock_due"
            ),
            # The worker's sweep for finished students' games whose figures are not kept.
            models.Index(
                fields=["finished_at"],
                condition=Q(status=GameStatus.FINISHED, student__isnull=False, figures_kept=False),
                name="game_figures_due",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "student", "assignment_game"],
                condition=Q(assignment__isnull=False),
                name="one_assignment_game_k_per_student",
            )
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.id} ({self.status})"

    def view(self) -> View:
        """The rules engine's view of the game's state (totals, choices, winners...), worked
        out once for each state it holds: a move needs it to apply its change and again to
        answer. A state is never changed in place (each move makes a new one), so the view
        kept for the very state object held now is that state's."""
        kept = self.__dict__.get("_view")
        if kept is not None and kept[0] is self.state:
            return kept[1]
        view = get_ruleset(self.ruleset).view(self.state, options=self.options)
        self.__dict__["_view"] = (self.state, view)
        return view


class Player(models.Model):
    """A seat of a game, in turn order."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=50, db_index=True)
    # null is a person, as in the API; a strategy name is a computer seat.
    computer = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    token_hash = models.CharField(max_length=64, blank=True, editable=False)
    # A bot's seat (``games.models.bot``): played over the API by the bot's owner, whose own
    # stream is given the seat's token. The seat keeps the bot's name as it was.
    bot = models.ForeignKey(
        "games.Bot", on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    total = models.IntegerField(default=0)
    # How well the seat played (percent; see the analysis), kept once its game has finished
    # (``games.classrooms.figures``), so that a class's figures are read, never recomputed; null
    # until then, and for rulesets without analysis.
    accuracy = models.FloatField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="unique_seat"),
            models.UniqueConstraint(
                fields=["game", "bot"], condition=Q(bot__isnull=False), name="one_seat_per_bot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"


class ScoreEntry(models.Model):
    """One filled box (or, in games without boxes, one banked turn)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="score_entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="score_entries")
    category = models.CharField(max_length=32, blank=True)
    points = models.IntegerField()
    round = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "id"]
        verbose_name_plural = "score entries"
        constraints = [
            models.UniqueConstraint(
                fields=["player", "category"], condition=~Q(category=""), name="box_filled_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.category or 'turn'}: {self.points}"


class Event(models.Model):
    """The game's log, in order: enough to replay the game."""

    # No index of its own: unique_event_seq's index (game, seq) serves every lookup by game,
    # and every move inserts events, each one an entry less to write.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=16)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"


class IdempotencyRecord(models.Model):
    """A move sent with an ``Idempotency-Key``: what it asked, and the game right after it
    (``games.play.replays``), to replay on retries."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    snapshot = models.JSONField(default=list)
    # Kept for a day (``games.work.housekeeping``): a retry comes within minutes.
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return self.key
