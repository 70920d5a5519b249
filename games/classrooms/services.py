"""Classrooms: open one, join it, lower its quota, close joining or change its code, revoke
or rotate a student's key.

Services take keyword arguments and raise ``ServiceError`` with the contract's codes; the
selectors below answer the teacher's reads, each in a fixed number of queries. Who may call
them is the views' permissions' concern (``games.http.permissions``): a service given a
classroom acts on it.

A student's games are those created with the student's key. In such a game the student
plays the first seat that is a person (the others may be computer players or friends at
the same device); the roster and the class leaderboard count that seat.
"""

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Avg, Count, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.classrooms.keys import key_issue, keys_revoke
from games.classrooms.quotas import quota_check_teacher
from games.models import Classroom, Game, Player, Student
from games.names import name_key
from games.play.errors import ServiceCode, ServiceError
from games.play.selectors import PERIODS, LeaderboardEntry, Period, _ranked
from scoring.match import GameStatus

# No 0/O or 1/I/L: codes are read out in class and typed by children.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


@dataclass(frozen=True)
class Opened:
    classroom: Classroom
    teacher_key: str = field(repr=False)  # shown once, in the answer, and nowhere else


@dataclass(frozen=True)
class Joined:
    classroom: Classroom
    student: Student
    api_key: str = field(repr=False)  # shown once, in the answer, and nowhere else


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """Codes are given in any case, with or without the dash they are shown with."""
    return code.strip().upper().replace("-", "").replace(" ", "")


def classroom_create(*, name: str) -> Opened:
    """A new classroom with its join code and its teacher key (shown only now)."""
    for _ in range(5):  # a clash of 31^8 codes is all but impossible; retry anyway
        try:
            with transaction.atomic():
                classroom = Classroom.objects.create(name=name, join_code=_new_code())
                return Opened(classroom=classroom, teacher_key=key_issue(classroom_id=classroom.id))
        except IntegrityError:
            continue
    raise ServiceError(
        ServiceCode.SERVER_ERROR, gettext_noop("no free join code was found; try again")
    )


def classroom_join(*, join_code: str, name: str) -> Joined:
    """A student joins with the class's code and gets a key of their own (shown only now).
    ``name`` is as :func:`games.names.name_clean` gives it; names with one :func:`name_key`
    would pass for each other on the roster, so the classroom's unique key refuses the
    second (``name_taken``), under concurrent joins too."""
    classroom = Classroom.objects.filter(join_code=normalise_code(join_code)).first()
    if classroom is None:
        raise ServiceError(ServiceCode.NOT_FOUND, gettext_noop("no classroom has this join code"))
    if classroom.joining == Classroom.Joining.CLOSED:
        raise ServiceError(
            ServiceCode.JOINING_CLOSED,
            gettext_noop("the teacher has closed joining this classroom for now"),
        )
    try:
        with transaction.atomic():
            student = Student.objects.create(
                classroom=classroom, name=name, name_key=name_key(name)
            )
            key = key_issue(classroom_id=classroom.id, student_id=student.id)
    except IntegrityError:
        raise ServiceError(
            ServiceCode.NAME_TAKEN,
            gettext_noop("the name {name!r} is taken in this classroom: choose another"),
            name=name,
        ) from None
    return Joined(classroom=classroom, student=student, api_key=key)


def classroom_change(
    *, classroom: Classroom, quota: Mapping[str, int] | None = None, joining: str | None = None
) -> Classroom:
    """The teacher's changes: lower the given limits of the classroom's keys (the others
    stay as they were; a raise above the default is ``quota_above_default``), close or
    reopen joining. Checked first, then saved together: a refused change changes nothing."""
    if quota:
        quota_check_teacher(classroom=classroom, quota=quota)
        classroom.quota = {**classroom.quota, **quota}
    if joining is not None:
        classroom.joining = joining
    classroom.save(update_fields=["quota", "joining"])
    return classroom


def classroom_new_code(*, classroom: Classroom) -> Classroom:
    """A new join code for the classroom; the old one stops working at once."""
    for _ in range(5):  # as classroom_create: a clash is all but impossible
        try:
            with transaction.atomic():
                classroom.join_code = _new_code()
                classroom.save(update_fields=["join_code"])
                return classroom
        except IntegrityError:
            continue
    raise ServiceError(
        ServiceCode.SERVER_ERROR, gettext_noop("no free join code was found; try again")
    )


def _student(classroom: Classroom, student_id: uuid.UUID) -> Student:
    student = Student.objects.filter(classroom=classroom, pk=student_id).first()
    if student is None:
        raise ServiceError(
            ServiceCode.NOT_FOUND, gettext_noop("no student with this id in this classroom")
        )
    return student


def student_key_revoke(*, classroom: Classroom, student_id: uuid.UUID) -> Student:
    """The student's key stops working at once; the student and their games stay."""
    student = _student(classroom, student_id)
    keys_revoke(student_id=student.id)
    return student


def student_key_rotate(*, classroom: Classroom, student_id: uuid.UUID) -> tuple[Student, str]:
    """A new key for the student (shown only now); every older one stops working."""
    student = _student(classroom, student_id)
    with transaction.atomic():
        keys_revoke(student_id=student.id)
        key = key_issue(classroom_id=classroom.id, student_id=student.id)
    return student, key


# -- selectors ------------------------------------------------------------------------------


def _student_seats(classroom: Classroom) -> QuerySet[Player]:
    """The seat each student played in each of their games: the game's first person seat."""
    first_person = (
        Player.objects.filter(game=OuterRef("game"), computer__isnull=True)
        .order_by("seat")
        .values("seat")[:1]
    )
    return Player.objects.filter(
        game__classroom=classroom,
        game__student__isnull=False,
        computer__isnull=True,
        seat=Subquery(first_person),
    )


def classroom_roster(*, classroom: Classroom) -> list[dict[str, Any]]:
    """Every student with their figures: games started and finished, and per ruleset the
    mean and best total and mean accuracy of their finished games. Two queries: the
    accuracies are those kept when each game finished (``games.classrooms.figures``), averaged by
    the database."""
    students = list(
        Student.objects.filter(classroom=classroom)
        .select_related("lti_learner")
        .order_by("name_key")
    )
    counts: dict[uuid.UUID, Mapping[str, Any]] = {
        row["student_id"]: row
        for row in Game.objects.filter(classroom=classroom, student__isnull=False)
        .values("student_id")
        .annotate(
            started=Count("id"), finished=Count("id", filter=Q(status=GameStatus.FINISHED))
        )
    }
    figures = list(
        _student_seats(classroom)
        .filter(game__status=GameStatus.FINISHED)
        .values("game__student_id", "game__ruleset")
        .annotate(
            games=Count("id"), points=Sum("total"), best=Max("total"), accuracy=Avg("accuracy")
        )
        .order_by("game__student_id", "game__ruleset")
    )
    per_student: dict[uuid.UUID, dict[str, Any]] = {}
    for row in figures:
        accuracy = row["accuracy"]
        per_student.setdefault(row["game__student_id"], {})[row["game__ruleset"]] = {
            "games_finished": row["games"],
            "mean": row["points"] / row["games"],
            "best": row["best"],
            "mean_accuracy": round(accuracy, 2) if accuracy is not None else None,
        }
    return [
        {
            "id": student.id,
            "name": student.name,
            "joined_at": student.joined_at,
            "games_started": counts.get(student.id, {}).get("started", 0),
            "games_finished": counts.get(student.id, {}).get("finished", 0),
            "rulesets": per_student.get(student.id, {}),
            # A learning platform's learner (games.courses.roster), or a student who joined.
            "source": "lti" if hasattr(student, "lti_learner") else "join",
            "active": student.lti_learner.active if hasattr(student, "lti_learner") else True,
        }
        for student in students
    ]


def classroom_games(*, classroom: Classroom) -> QuerySet[Game]:
    """The students' games, newest first (the view filters and pages them)."""
    return Game.objects.filter(classroom=classroom, student__isnull=False).order_by(
        "-created_at", "id"
    )


@dataclass(frozen=True)
class ClassEntry(LeaderboardEntry):
    ranked: bool


def classroom_leaderboard(
    *, classroom: Classroom, ruleset: str, period: Period, limit: int
) -> list[ClassEntry]:
    """The best totals of the students' seats in their finished games of ``ruleset``.

    As the public table, but only this classroom's students, and seeded games count too
    (each row says whether its game is ranked). House rules count as well: a teacher may
    set an assignment with them. One query.
    """
    seats = _student_seats(classroom).filter(
        game__ruleset=ruleset, game__status=GameStatus.FINISHED
    )
    window = PERIODS[period]
    if window is not None:
        seats = seats.filter(game__finished_at__gte=timezone.now() - window)
    rows = list(
        seats.order_by("-total", "game__finished_at", "game_id").values_list(
            "game__student__name", "total", "game_id", "game__finished_at", "game__ranked"
        )[:limit]
    )
    ranked = _ranked(row[:4] for row in rows)
    return [
        ClassEntry(e.rank, e.name, e.score, e.game, e.finished_at, row[4])
        for e, row in zip(ranked, rows, strict=True)
    ]
