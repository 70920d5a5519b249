"""Assignments over HTTP (API.md, "Assignments"): thin views over
``games.classrooms.assignments`` and ``games.classrooms.results``. The teacher sets them and
reads the results; the classroom's students read them and start their games."""

import csv
import io
import uuid
from typing import Annotated, Any, NotRequired, TypedDict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.classrooms import TEACHER_ERRORS, RefBody, TeacherView
from games.api.render import iso_time, render_game
from games.api.requests import OptionsField, RulesetField
from games.api.schema import docs
from games.api.schema.enums import ASSIGNMENT_STATUSES
from games.api.schema.responses import GameOut, RulesetId
from games.api.schema.shapes import Bounds, Choice, DateTime, Uuid, serializer_for
from games.classrooms import assignments as service
from games.classrooms import results
from games.classrooms.assignments import MOST_GAMES, Progress
from games.http.auth import ApiKeyAuthentication, request_caller
from games.http.strict import StrictCharField, StrictIntegerField, StrictSerializer
from games.http.throttles import CreateThrottle
from games.models import Assignment
from scoring.verifiable import commitment

# -- requests ------------------------------------------------------------------------------


class AssignmentIn(StrictSerializer):
    title = StrictCharField(max_length=80, trim_whitespace=True, help_text="e.g. `Week 3`.")
    ruleset = RulesetField(help_text="The ruleset every game of it is played with.")
    options = OptionsField(required=False, default=dict, help_text="The ruleset's options.")
    games = StrictIntegerField(
        min_value=1, max_value=MOST_GAMES, help_text="How many games each student plays."
    )
    opens_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None,
        help_text="When students may start its games (ISO 8601; absent: now).",
    )
    due_at = serializers.DateTimeField(
        help_text="The deadline (ISO 8601), after `opens_at` and in the future: then games "
        "still being played are abandoned and the secrets shown."
    )


# -- responses -----------------------------------------------------------------------------

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
    created_at: DateTime
    progress: NotRequired[
        Annotated[ProgressBody, "For a student: their own games of it, started and finished."]
    ]


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
        "created_at": iso_time(assignment.created_at),
    }
    if progress is not None:
        body["progress"] = {"started": progress.started, "finished": progress.finished}
    return body


def render_results(assignment: Assignment, rows: list[results.StudentResult]) -> ResultsBody:
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


# -- views ---------------------------------------------------------------------------------

ASSIGNMENT_ID = "2c9d1e7f-4a3b-4c5d-8e6f-7a8b9c0d1e2f"
SET_EXAMPLE = OpenApiExample(
    "Week 3",
    request_only=True,
    value={"title": "Week 3", "ruleset": "yahtzee", "games": 10,
           "due_at": "2026-12-04T17:00:00+01:00"},
)
MEMBER_ERRORS = {
    **docs.problems(404, 429),
    (401, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
        "(`invalid_api_key`).",
    ),
    (403, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut, description="Another classroom's key (`forbidden`)."
    ),
}


class AssignmentsView(TeacherView):
    @extend_schema(
        summary="Set an assignment",
        description="Teacher only. Each student will play `games` games of the ruleset before "
        "`due_at`; game k of every student is thrown from the same secret, committed to now "
        "(`commitments`) and shown once the assignment closes.",
        request=AssignmentIn,
        responses={201: AssignmentOut, **TEACHER_ERRORS, **docs.problems(400, 413, 415)},
        examples=[SET_EXAMPLE],
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request, pk)
        given = AssignmentIn(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        assignment = service.assignment_create(
            classroom=classroom,
            title=data["title"],
            ruleset_id=data["ruleset"],
            options=data["options"],
            games=data["games"],
            opens_at=data["opens_at"],
            due_at=data["due_at"],
        )
        return Response(render_assignment(assignment), status=201)

    @extend_schema(
        operation_id="classrooms_assignments_list",
        summary="The classroom's assignments",
        description="Newest first; for the teacher, or a student of the classroom (who also "
        "sees their own `progress`).",
        responses={200: AssignmentOut(many=True), **MEMBER_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        assignments = service.assignments_of(caller=request_caller(request), classroom_id=pk)
        progress = _progress(request, assignments)
        return Response([render_assignment(a, progress.get(a.id)) for a in assignments])


class AssignmentView(APIView):
    authentication_classes = [ApiKeyAuthentication]

    @extend_schema(
        summary="An assignment",
        description="For the teacher, or a student of the classroom (with their `progress`).",
        responses={200: AssignmentOut, **MEMBER_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID, assignment_id: uuid.UUID) -> Response:
        assignment = service.assignment_for(
            caller=request_caller(request), classroom_id=pk, assignment_id=assignment_id
        )
        progress = _progress(request, [assignment])
        return Response(render_assignment(assignment, progress.get(assignment.id)))


class AssignmentGamesView(APIView):
    authentication_classes = [ApiKeyAuthentication]
    throttle_classes = [CreateThrottle]

    @extend_schema(
        summary="Start my next game of an assignment",
        description="A student of the classroom, with their own key and an empty body. "
        "Answers like `POST /games/`: one seat, the student's, with its token. Game k is "
        "thrown from the assignment's k-th secret with the client seed `game-<k>`, as every "
        "student's game k is. Refused: `409 assignment_not_open` (before `opens_at`, after "
        "`due_at`), `409 assignment_complete` (all its games started), `403 forbidden` (a "
        "teacher's key, another classroom's).",
        request=None,
        responses={
            201: GameOut,
            **MEMBER_ERRORS,
            **docs.problems(409),
        },
    )
    def post(self, request: Request, pk: uuid.UUID, assignment_id: uuid.UUID) -> Response:
        played = service.assignment_game_start(
            caller=request_caller(request), classroom_id=pk, assignment_id=assignment_id
        )
        body = render_game(played.game, played.players, played.tokens)
        return Response(body, status=201, headers={
            "ETag": f'"{played.game.version}"', "Location": f"/api/v1/games/{played.game.id}/",
        })


class AssignmentResultsView(TeacherView):
    renderer_classes = [JSONRenderer, ResultsCsvRenderer]

    @extend_schema(
        summary="An assignment's results",
        description="Teacher only. Every student of the classroom: games started and "
        "finished, mean and best score and mean accuracy over finished games, and rank by "
        "mean score (students with no finished game last). As CSV for a gradebook with "
        "`Accept: text/csv` or `?format=csv`, header "
        f"`{','.join(CSV_HEADER)}`.",
        parameters=[
            OpenApiParameter(
                "format", {"type": "string", "enum": ["json", "csv"]}, OpenApiParameter.QUERY,
                required=False, description="`csv`: the same rows as CSV.",
            )
        ],
        responses={
            (200, "application/json"): ResultsOut,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The rows as CSV."),
            **TEACHER_ERRORS,
        },
    )
    def get(self, request: Request, pk: uuid.UUID, assignment_id: uuid.UUID) -> Response:
        self.classroom(request, pk)
        assignment = service.assignment_for(
            caller=request_caller(request), classroom_id=pk, assignment_id=assignment_id
        )
        body = render_results(assignment, results.assignment_results(assignment=assignment))
        headers = {}
        if request.accepted_renderer.format == "csv":
            headers["Content-Disposition"] = f'attachment; filename="results-{assignment.id}.csv"'
        return Response(body, headers=headers)


def _progress(request: Request, assignments: list[Assignment]) -> dict[uuid.UUID, Progress]:
    """A student's own progress in each assignment; nothing for the teacher."""
    caller = request_caller(request)
    if caller is None or caller.student is None:
        return {}
    return service.progress_of(student_id=caller.student.id, assignments=assignments)

