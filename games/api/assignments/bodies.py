"""An assignment's answers: the assignment (with a student's own progress) and its
results, as JSON or as CSV for a gradebook."""

import csv
import io
from typing import Annotated, Any, NotRequired, TypedDict

from rest_framework.renderers import BaseRenderer

from games.api.classrooms.bodies import RefBody
from games.api.schema.enums import ASSIGNMENT_STATUSES
from games.api.schema.responses import RulesetId
from games.api.schema.shapes import Bounds, Choice, DateTime, Uuid, iso_time, serializer_for
from games.classrooms import results
from games.classrooms.assignments import MOST_GAMES, Progress
from games.courses.status import Passback
from games.models import Assignment
from games.models.assignment import GRADE_MODES
from scoring.verifiable import commitment

Hex = Annotated[str, "64 hex characters."]


class ProgressBody(TypedDict):
    started: int
    finished: int


class AssignmentBody(TypedDict):
    id: Uuid
    title: str
    ruleset: RulesetId
    options: dict[str, Any]
    games: Annotated[int, Bounds(1, MOST_GAMES)]
    opens_at: DateTime
    due_at: DateTime
    status: Annotated[
        str, Choice(ASSIGNMENT_STATUSES), "`scheduled` before `opens_at`, `open`, `closed` "
        "from `due_at`."
    ]
    commitments: Annotated[
        list[Hex], "Game k's commitment (the SHA-256 of its secret), for k = 1, 2, ..."
    ]
    secrets: Annotated[
        list[Hex] | None, "Once the assignment is closed, game k's secret; null until then."
    ]
    grade: Annotated[
        str, Choice(GRADE_MODES), "How a learning platform's grade (0-100) is made of a "
        "student's results: `accuracy` (mean accuracy), `completion` (games finished of "
        "`games`), `rank` (100 x (1 - (rank - 1) / students ranked))."
    ]
    created_at: DateTime
    progress: NotRequired[
        Annotated[ProgressBody, "For a student: their own games of it, started and finished."]
    ]


class PassbackBody(TypedDict):
    status: Annotated[
        str, "`waiting` (not tried yet), `retrying` (the platform did not take it yet: "
        "tried again), `sent`."
    ]
    attempts: int
    score: Annotated[float | None, "The score the platform took (out of 100), once sent."]
    sent_at: DateTime | None
    error: Annotated[str, "Why the last attempt failed, while retrying; else empty."]


class ResultRowBody(TypedDict):
    student: RefBody
    games_started: int
    games_finished: int
    mean_score: Annotated[float | None, "Over finished games; null when none is finished."]
    best_score: int | None
    mean_accuracy: Annotated[
        float | None, "Over finished games that have an analysis; null when none has."
    ]
    rank: Annotated[
        int | None, "By `mean_score`; equal means share a rank. Null with no finished game."
    ]
    passback: Annotated[
        PassbackBody | None, "The student's grade sent to their learning platform's course "
        "(an assignment a platform links to, once closed); null for others."
    ]


class ResultsBody(TypedDict):
    assignment: AssignmentBody
    students: Annotated[list[ResultRowBody], "Every student of the classroom, best first."]


AssignmentOut = serializer_for(AssignmentBody)
ResultsOut = serializer_for(ResultsBody)
CSV_HEADER = [
    "student", "games_started", "games_finished", "mean_score", "best_score", "mean_accuracy",
    "rank",
]


def render_assignment(
    assignment: Assignment, progress: Progress | None = None
) -> AssignmentBody:
    closed = assignment.closed_at is not None
    body: AssignmentBody = {
        "id": str(assignment.id),
        "title": assignment.title,
        "ruleset": assignment.ruleset,
        "options": assignment.options,
        "games": assignment.games,
        "opens_at": iso_time(assignment.opens_at),
        "due_at": iso_time(assignment.due_at),
        "status": assignment.status(),
        "commitments": [commitment(bytes.fromhex(secret)) for secret in assignment.secrets],
        "secrets": list(assignment.secrets) if closed else None,
        "grade": assignment.grade,
        "created_at": iso_time(assignment.created_at),
    }
    if progress is not None:
        body["progress"] = {"started": progress.started, "finished": progress.finished}
    return body


def render_passback(passback: Passback | None) -> PassbackBody | None:
    if passback is None:
        return None
    return {
        "status": passback.status,
        "attempts": passback.attempts,
        "score": passback.score,
        "sent_at": iso_time(passback.sent_at) if passback.sent_at else None,
        "error": passback.error,
    }


def render_results(
    assignment: Assignment,
    rows: list[results.StudentResult],
    passback: dict[Any, Passback] | None = None,
) -> ResultsBody:
    passback = passback or {}
    return {
        "assignment": render_assignment(assignment),
        "students": [
            {
                "student": {"id": str(row.student_id), "name": row.name},
                "games_started": row.games_started,
                "games_finished": row.games_finished,
                "mean_score": row.mean_score,
                "best_score": row.best_score,
                "mean_accuracy": row.mean_accuracy,
                "rank": row.rank,
                "passback": render_passback(passback.get(row.student_id)),
            }
            for row in rows
        ],
    }


# What makes a spreadsheet read a cell as a formula (or, for a tab or a carriage return,
# what some strip before looking at the next character).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value as a gradebook may open it safely: empty for null, and a text that a
    spreadsheet would take for a formula (a student's name is free text) behind a ``'``,
    which makes it plain text there."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class ResultsCsvRenderer(BaseRenderer):
    """The results as a gradebook takes them: one row per student, empty where null, no
    cell a formula (the JSON keeps the names as they are)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
               ) -> bytes:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_HEADER)
        for row in data["students"]:
            values = [row["student"]["name"], *(row[name] for name in CSV_HEADER[1:])]
            writer.writerow([csv_cell(value) for value in values])
        return out.getvalue().encode("utf-8")
