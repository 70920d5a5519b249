"""Assignments: set one, start a student's next game of it, close it at its deadline.

Closing is what shows an assignment's secrets: its games still being played are abandoned
first (nobody may play on once the dice are known), then every game's secret is unsealed
and the assignment's listed. A worker closes it once ``due_at`` has passed (its sweep finds
it by ``assignment_due``, whatever happened to earlier workers); a read never closes
anything. From ``due_at`` on, by the database's clock, its games take no move and no new
game starts, whether or not the closing has run yet. The closing also queues, in its
transaction, the grades of the learning platforms' courses that link to the assignment
(``games.courses.passback``).
"""

import datetime as dt
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models.functions import Now
from django.utils.translation import gettext_noop

from games.courses import passback
from games.courses.grades import grade_default
from games.db.clock import db_now
from games.hooks import services as hooks
from games.models import Assignment, AssignmentStatus, Classroom, Game
from games.play import services as play
from games.play.errors import REFUSALS, ServiceCode, ServiceError
from scoring import ProblemCode, get_ruleset
from scoring.match import GameStatus, Seat
from scoring.verifiable import new_secret

MOST_GAMES = 100
STILL_OPEN = (GameStatus.WAITING, GameStatus.ACTIVE)


def assignment_create(
    *,
    classroom: Classroom,
    title: str,
    ruleset_id: str,
    options: dict[str, Any] | None,
    games: int,
    opens_at: dt.datetime | None,
    due_at: dt.datetime,
    grade: str | None = None,
) -> Assignment:
    """A new assignment with a fresh secret per game (only their commitments are shown).
    ``grade``: how a learning platform's grade is made of a student's results
    (``games.courses.grades``); absent, the ruleset's default."""
    ruleset = get_ruleset(ruleset_id)
    chosen = ruleset.validate_options(options)
    ruleset.check_seats(1)
    now = db_now()
    if due_at <= now:
        raise ServiceError(
            ProblemCode.INVALID, gettext_noop("due_at must be in the future"), field="due_at"
        )
    opens = opens_at or now
    if due_at <= opens:
        raise ServiceError(
            ProblemCode.INVALID, gettext_noop("due_at must be after opens_at"), field="due_at"
        )
    return Assignment.objects.create(
        classroom=classroom,
        title=title,
        ruleset=ruleset.id,
        options=chosen,
        games=games,
        opens_at=opens,
        due_at=due_at,
        secrets=[new_secret().hex() for _ in range(games)],
        grade=grade or grade_default(ruleset.id),
    )


def assignment_of(*, classroom_id: uuid.UUID, assignment_id: uuid.UUID) -> Assignment:
    """The classroom's assignment: ``not_found`` if the classroom has none with this id."""
    assignment = Assignment.objects.filter(pk=assignment_id, classroom_id=classroom_id).first()
    if assignment is None:
        raise ServiceError(
            ServiceCode.NOT_FOUND, gettext_noop("no assignment with this id in this classroom")
        )
    return assignment


def assignments_of(*, classroom_id: uuid.UUID) -> list[Assignment]:
    """The classroom's assignments, newest first."""
    return list(Assignment.objects.filter(classroom_id=classroom_id).order_by("-created_at"))


@dataclass(frozen=True)
class Progress:
    started: int
    finished: int


def progress_of(
    *, student_id: uuid.UUID, assignments: list[Assignment]
) -> dict[uuid.UUID, Progress]:
    """Each assignment's games the student has started and finished. One query."""
    found = {a.id: [0, 0] for a in assignments}
    rows = Game.objects.filter(student_id=student_id, assignment__in=assignments).values_list(
        "assignment_id", "status"
    )
    for assignment_id, status in rows:
        found[assignment_id][0] += 1
        found[assignment_id][1] += status == GameStatus.FINISHED
    return {key: Progress(started, finished) for key, (started, finished) in found.items()}


def assignment_game_start(
    *, classroom_id: uuid.UUID, assignment_id: uuid.UUID, student_id: uuid.UUID, name: str
) -> play.Played:
    """The student's next game of the assignment (their seat named ``name``): game k uses
    the k-th secret. Refused while the assignment is not open, and once all its games are
    started."""
    with transaction.atomic():
        # The assignment's row is locked: its closing waits for this game, or this waits
        # for the closing and then finds the assignment closed.
        assignment = (
            Assignment.objects.select_for_update()
            .filter(pk=assignment_id, classroom_id=classroom_id)
            .first()
        )
        if assignment is None:
            raise ServiceError(
                ServiceCode.NOT_FOUND, gettext_noop("no assignment with this id in this classroom")
            )
        status = assignment.status(db_now())
        if status != AssignmentStatus.OPEN:
            opens = status == AssignmentStatus.SCHEDULED
            raise ServiceError(
                ServiceCode.ASSIGNMENT_NOT_OPEN,
                gettext_noop("the assignment is {status}: it opens at {at}")
                if opens
                else gettext_noop("the assignment is {status}: it closed at {at}"),
                status=status,
                at=(assignment.opens_at if opens else assignment.due_at).isoformat(),
            )
        started = Game.objects.filter(assignment=assignment, student_id=student_id).count()
        if started >= assignment.games:
            raise ServiceError(
                ServiceCode.ASSIGNMENT_COMPLETE,
                gettext_noop("all {count} games of it are started"), count=assignment.games,
            )
        number = started + 1
        return play.game_create(
            ruleset_id=assignment.ruleset,
            options=assignment.options,
            players=[Seat(name)],
            student_id=student_id,
            classroom_id=classroom_id,
            assigned=play.Assigned(
                assignment_id=assignment.id,
                number=number,
                secret=assignment.secrets[number - 1],
                due_at=assignment.due_at,
            ),
        )


def assignment_due(*, passed_over: Collection[uuid.UUID] = ()) -> uuid.UUID | None:
    """The id of an assignment past its deadline (by the database's clock) and not closed
    yet, locked until the transaction ends; assignments another transaction holds are
    skipped, and so are ``passed_over``. None if there is none."""
    due = (
        Assignment.objects.select_for_update(skip_locked=True)
        .filter(closed_at__isnull=True, due_at__lte=Now())
        .exclude(pk__in=list(passed_over))
        .order_by("due_at")
    )
    return due.values_list("pk", flat=True).first()


def assignment_close(*, assignment_id: uuid.UUID) -> Assignment | None:
    """Closes the assignment if its deadline has passed and it is not closed yet: abandons
    its games still open, then unseals every game's secret, and tells the teacher's
    webhooks, all in one transaction. Safe to call many times, from many processes at once
    (the assignment's row is locked): it takes effect once."""
    with transaction.atomic():
        assignment = Assignment.objects.select_for_update().filter(pk=assignment_id).first()
        if assignment is None or assignment.closed_at is not None:
            return assignment
        now = db_now()
        if now < assignment.due_at:
            return assignment
        still_open = Game.objects.filter(assignment=assignment, status__in=STILL_OPEN)
        for game_id in still_open.values_list("id", flat=True):
            try:
                play.game_abandon(game_id=game_id, by="deadline")
            except REFUSALS:  # finished meanwhile, by a move that held its lock
                continue
        Game.objects.filter(assignment=assignment).update(dice_sealed=False)
        assignment.closed_at = now
        assignment.save(update_fields=["closed_at"])
        hooks.assignment_closed(classroom_id=assignment.classroom_id, assignment_id=assignment.id)
        # The grades of the platforms' courses that link to it, due from now on.
        passback.scores_queue(assignment_id=assignment.id)
    return assignment
