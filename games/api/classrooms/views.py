"""Classrooms over HTTP: thin views over ``games.classrooms.services``.

Opening and joining are public (limited per address); every other path is the teacher's:
``X-API-Key`` must be the classroom's teacher key (``TeacherOfClassroom``). The keys' paths:
``keys.py``.
"""

import uuid

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.classrooms.bodies import (
    ClassEntryOut,
    ClassroomCreatedOut,
    ClassroomOut,
    GamesPageOut,
    JoinCodeBody,
    JoinCodeOut,
    JoinedBody,
    JoinedOut,
    render_class_entry,
    render_classroom,
    render_created,
    render_ref,
)
from games.api.classrooms.examples import (
    CLASSROOM_ID,
    CREATED_EXAMPLE,
    ROSTER_EXAMPLE,
    STUDENT_ID,
    STUDENT_KEY,
    TEACHER_ERRORS,
    TEACHER_EXAMPLES,
)
from games.api.classrooms.requests import (
    GAMES_QUERY,
    ClassroomCreateIn,
    ClassroomGameFilter,
    ClassroomJoinIn,
    ClassroomPatchIn,
    EmptyIn,
)
from games.api.games.bodies import render_game
from games.api.games.filters import GamePagination
from games.api.leaderboard.requests import LeaderboardQuery
from games.api.schema import docs
from games.classrooms import services as service
from games.courses.roster import course_title
from games.http.auth import ApiKeyAuthentication, permitted_caller
from games.http.permissions import ProblemRefusals, TeacherOfClassroom
from games.http.problems import problem
from games.http.throttles import ClassroomThrottle
from games.models import Classroom
from games.play.errors import ServiceCode
from games.play.selectors import as_shown


class TeacherView(ProblemRefusals):
    """A path of one classroom's teacher."""

    authentication_classes = [ApiKeyAuthentication]
    permission_classes: list[type[BasePermission]] = [TeacherOfClassroom]

    @staticmethod
    def classroom(request: Request) -> Classroom:
        """The path's classroom: the caller's own, as the permissions saw."""
        return permitted_caller(request).classroom


class ClassroomCreateView(APIView):
    authentication_classes: list = []
    throttle_classes = [ClassroomThrottle]

    @extend_schema(
        summary="Open a classroom",
        description="Answers the classroom with its `join_code`, for the students, and the "
        "`teacher_key`, for the teacher's paths. The key is shown only here: it is stored "
        "as a digest and cannot be shown again.",
        request=ClassroomCreateIn,
        responses={201: ClassroomCreatedOut, **docs.problems(400, 413, 415, 429)},
        examples=[OpenApiExample("5B", value={"name": "5B"}, request_only=True), CREATED_EXAMPLE],
    )
    def post(self, request: Request) -> Response:
        given = ClassroomCreateIn(data=request.data)
        given.is_valid(raise_exception=True)
        opened = service.classroom_create(name=given.validated_data["name"])
        return Response(render_created(opened), status=201)


class ClassroomJoinView(APIView):
    authentication_classes: list = []
    throttle_classes = [ClassroomThrottle]

    @extend_schema(
        summary="Join a classroom",
        description="A student joins with the classroom's code and gets a key of their own, "
        "shown only here. Games the student creates with it (`X-API-Key`) are theirs and "
        "show on the teacher's roster. A wrong code: 404 `not_found` (wrong codes count "
        "against the address, see `THROTTLE_FAILURES`), and the old code once the teacher "
        "has replaced it; a name already in the classroom: 409 `name_taken`; while the "
        "teacher has closed joining: 409 `joining_closed`.",
        request=ClassroomJoinIn,
        responses={
            201: JoinedOut,
            **docs.problems(400, 404, 413, 415, 429),
            (409, "application/problem+json"): OpenApiResponse(
                docs.ProblemOut,
                description="The name is taken in this classroom (`name_taken`), or joining "
                "is closed (`joining_closed`).",
            ),
        },
        examples=[
            OpenApiExample(
                "Ann joins", value={"join_code": "K7QXM2PD", "name": "Ann"}, request_only=True
            ),
            OpenApiExample(
                "Ann's key",
                response_only=True,
                status_codes=["201"],
                value={
                    "classroom": {"id": CLASSROOM_ID, "name": "5B"},
                    "student": {"id": STUDENT_ID, "name": "Ann"},
                    "api_key": STUDENT_KEY,
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        given = ClassroomJoinIn(data=request.data)
        given.is_valid(raise_exception=True)
        joined = service.classroom_join(**given.validated_data)
        body: JoinedBody = {
            "classroom": render_ref(joined.classroom),
            "student": render_ref(joined.student),
            "api_key": joined.api_key,
        }
        return Response(body, status=201)


class ClassroomView(TeacherView):
    def _answer(self, classroom: Classroom) -> Response:
        roster = service.classroom_roster(classroom=classroom)
        return Response(
            render_classroom(classroom, roster, course_title(classroom=classroom))
        )

    @extend_schema(
        summary="The classroom and its roster (teacher)",
        description="Every student with `games_started` (games created with their key), "
        "`games_finished`, and per ruleset over their finished games: `mean` and `best` "
        "final total of the student's seat (the game's first person seat) and "
        "`mean_accuracy` where analysis exists (else null). Seeded games and house rules "
        "count too. Each student's `source` (`lti`: a learning platform's learner, `join`: "
        "joined with the code) and `active`; `lti_course`: the title of the platform's "
        "course the classroom was made for (null for one opened here).",
        responses={200: ClassroomOut, **TEACHER_ERRORS},
        examples=[ROSTER_EXAMPLE, *TEACHER_EXAMPLES],
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        return self._answer(self.classroom(request))

    @extend_schema(
        summary="Lower the classroom's quota, close or reopen joining (teacher)",
        description="`quota`: the limits that each key of the classroom (the students' and "
        "the teacher's) is held to, counted per key and shared by every worker of the "
        "service. A classroom starts at the deployment's defaults; its teacher may lower "
        "them, and a raise above the default is refused with 403 `quota_above_default` "
        "(only an operator raises a classroom's quota, in the admin). Requests with a key "
        "also count against a ceiling of their address (`THROTTLE_KEYED_ADDRESS_FACTOR` "
        "times the anonymous limits). `joining`: `closed` refuses every join (409 "
        "`joining_closed`) until it is `open` again. Checked whole: a refused change "
        "changes nothing. Answers the classroom with its roster.",
        request=ClassroomPatchIn,
        responses={
            200: ClassroomOut,
            **TEACHER_ERRORS,
            **docs.problems(400, 413, 415),
            (403, "application/problem+json"): OpenApiResponse(
                docs.ProblemOut,
                description="A student's key, or another classroom's teacher key "
                "(`forbidden`); a quota above the default (`quota_above_default`).",
            ),
        },
        examples=[
            OpenApiExample(
                "Twenty games an hour",
                value={"quota": {"games_per_hour": 20}},
                request_only=True,
            ),
            OpenApiExample("Close joining", value={"joining": "closed"}, request_only=True),
            OpenApiExample(
                "A raise above the default",
                response_only=True,
                status_codes=["403"],
                value=problem(
                    ServiceCode.QUOTA_ABOVE_DEFAULT,
                    "a teacher may lower the quota, not raise it above the default "
                    "(games_per_hour 6000); ask the service's operator for more",
                ),
            ),
            ROSTER_EXAMPLE,
            *TEACHER_EXAMPLES,
        ],
    )
    def patch(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request)
        given = ClassroomPatchIn(data=request.data)
        given.is_valid(raise_exception=True)
        classroom = service.classroom_change(classroom=classroom, **given.validated_data)
        return self._answer(classroom)


class JoinCodeView(TeacherView):
    @extend_schema(
        summary="Replace the join code (teacher)",
        description="Issues a new join code for the classroom and answers it; the old code "
        "stops working at once (a join with it: 404 `not_found`). Students who joined keep "
        "their keys.",
        request=EmptyIn,
        responses={200: JoinCodeOut, **TEACHER_ERRORS, **docs.problems(400)},
        examples=[
            OpenApiExample("The new code", response_only=True, value={"join_code": "M4TR9BXC"}),
            *TEACHER_EXAMPLES,
        ],
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request)
        EmptyIn(data=request.data).is_valid(raise_exception=True)
        classroom = service.classroom_new_code(classroom=classroom)
        body: JoinCodeBody = {"join_code": classroom.join_code}
        return Response(body)


class ClassroomGamesView(TeacherView):
    @extend_schema(
        summary="The students' games (teacher)",
        description="Games created with the classroom's student keys, newest first, "
        "paginated; filter by `ruleset`, `status` and `student` (id or name).",
        parameters=GAMES_QUERY,
        responses={200: GamesPageOut, **TEACHER_ERRORS, **docs.problems(400)},
        examples=[
            OpenApiExample(
                "One page",
                response_only=True,
                value={
                    "count": 1,
                    "next": None,
                    "previous": None,
                    "results": [
                        docs.GAME | {"classroom": CLASSROOM_ID, "student": "Ann"},
                    ],
                },
            ),
            *TEACHER_EXAMPLES,
        ],
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request)
        chosen = ClassroomGameFilter(
            request.query_params, queryset=service.classroom_games(classroom=classroom)
        )
        if not chosen.is_valid():
            raise ValidationError(chosen.errors)
        games = as_shown(chosen.qs)
        pages = GamePagination()
        page = pages.paginate_queryset(games, request, view=self) or []
        return pages.get_paginated_response(
            [render_game(game, list(game.players.all())) for game in page]
        )


class ClassroomLeaderboardView(TeacherView):
    @extend_schema(
        summary="The classroom's high scores (teacher)",
        description="As `/api/v1/leaderboard/`, with the classroom's students only: the "
        "best totals of the student's seat in their finished games of the ruleset. Seeded "
        "games are included, marked `\"ranked\": false`; games with house rules are "
        "included too.",
        parameters=[LeaderboardQuery],
        responses={200: ClassEntryOut(many=True), **TEACHER_ERRORS, **docs.problems(400)},
        examples=[
            OpenApiExample(
                "Two students",
                response_only=True,
                value=[
                    {
                        "rank": 1,
                        "name": "Ann",
                        "score": 254,
                        "game": "3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10",
                        "finished_at": "2026-11-23T09:02:11Z",
                        "ranked": True,
                    },
                    {
                        "rank": 2,
                        "name": "Ben",
                        "score": 231,
                        "game": "9b7d1e42-5a3c-4f08-8e6b-1c2d3e4f5a6b",
                        "finished_at": "2026-11-23T09:10:00Z",
                        "ranked": False,
                    },
                ],
            ),
            *TEACHER_EXAMPLES,
        ],
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request)
        query = LeaderboardQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = service.classroom_leaderboard(classroom=classroom, **query.validated_data)
        return Response([render_class_entry(row) for row in rows])
