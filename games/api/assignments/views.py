"""Assignments over HTTP (docs/contract.md, "Assignments"): thin views over
``games.classrooms.assignments`` and ``games.classrooms.results``. The teacher sets them and
reads the results; the classroom's students read them and start their games."""

import uuid

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.assignments.bodies import (
    CSV_HEADER,
    AssignmentOut,
    ResultsCsvRenderer,
    ResultsOut,
    render_assignment,
    render_results,
)
from games.api.assignments.requests import AssignmentIn
from games.api.classrooms.examples import TEACHER_ERRORS
from games.api.classrooms.views import TeacherView
from games.api.games.bodies import GameOut, render_game
from games.api.schema import docs
from games.classrooms import assignments as service
from games.classrooms import results
from games.classrooms.assignments import Progress
from games.courses.status import passback_of
from games.http.auth import ApiKeyAuthentication, caller_of, permitted_caller
from games.http.permissions import (
    ClassroomMember,
    ProblemRefusals,
    StudentOfClassroom,
    TeacherOfClassroom,
)
from games.http.throttles import CreateThrottle
from games.models import Assignment

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
    def get_permissions(self) -> list[BasePermission]:
        # Setting one is the teacher's; the list is the whole classroom's.
        return [ClassroomMember() if self.request.method in SAFE_METHODS else TeacherOfClassroom()]

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
        classroom = self.classroom(request)
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
            grade=data["grade"],
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
        assignments = service.assignments_of(classroom_id=pk)
        progress = _progress(request, assignments)
        return Response([render_assignment(a, progress.get(a.id)) for a in assignments])


class AssignmentView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [ClassroomMember]

    @extend_schema(
        summary="An assignment",
        description="For the teacher, or a student of the classroom (with their `progress`).",
        responses={200: AssignmentOut, **MEMBER_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID, assignment_id: uuid.UUID) -> Response:
        assignment = service.assignment_of(classroom_id=pk, assignment_id=assignment_id)
        progress = _progress(request, [assignment])
        return Response(render_assignment(assignment, progress.get(assignment.id)))


class AssignmentGamesView(ProblemRefusals):
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
        # The role after the create limit: every attempt at a game counts against it.
        self.require(request, StudentOfClassroom())
        student = permitted_caller(request).student
        assert student is not None  # StudentOfClassroom
        played = service.assignment_game_start(
            classroom_id=pk, assignment_id=assignment_id, student_id=student.id, name=student.name
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
        "mean score (students with no finished game last), and, for an assignment a learning "
        "platform links to, each learner's `passback` (their grade sent to the platform). "
        "As CSV for a gradebook with "
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
        assignment = service.assignment_of(classroom_id=pk, assignment_id=assignment_id)
        body = render_results(
            assignment,
            results.assignment_results(assignment=assignment),
            passback_of(assignment=assignment),
        )
        headers = {}
        if request.accepted_renderer.format == "csv":
            headers["Content-Disposition"] = f'attachment; filename="results-{assignment.id}.csv"'
        return Response(body, headers=headers)


def _progress(request: Request, assignments: list[Assignment]) -> dict[uuid.UUID, Progress]:
    """A student's own progress in each assignment; nothing for the teacher."""
    caller = caller_of(request)
    if caller is None or caller.student is None:
        return {}
    return service.progress_of(student_id=caller.student.id, assignments=assignments)
