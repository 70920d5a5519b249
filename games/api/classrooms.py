"""Classrooms over HTTP: thin views over ``games.classrooms.services``.

Opening and joining are public (limited per address); every other path is the teacher's:
``X-API-Key`` must be the classroom's teacher key (see ``classroom_for_teacher``).
"""

import contextlib
import uuid
from typing import Annotated, Any, NotRequired, TypedDict

from django.db.models import Prefetch, Q, QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.filters import GamePagination, RulesetStatusFilter
from games.api.leaderboard import LeaderboardQuery, render_entry
from games.api.render import iso_time, render_game
from games.api.schema import docs
from games.api.schema.enums import GAME_STATUSES
from games.api.schema.responses import GameBody
from games.api.schema.shapes import Bounds, Choice, DateTime, Url, Uuid, serializer_for
from games.classrooms import services as service
from games.classrooms.quotas import quota_of
from games.http.auth import ApiKeyAuthentication, request_caller
from games.http.problems import problem
from games.http.strict import (
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)
from games.http.throttles import ClassroomThrottle
from games.models import Classroom, Game, Player, Student
from games.play.errors import ServiceError
from scoring import RULESETS, ProblemCode

MOST_PER_HOUR = 1_000_000

# -- requests ------------------------------------------------------------------------------


class ClassroomCreateIn(StrictSerializer):
    name = StrictCharField(max_length=80, trim_whitespace=True, help_text="e.g. `5B`.")


class ClassroomJoinIn(StrictSerializer):
    join_code = StrictCharField(
        max_length=32, help_text="The code the teacher handed out (any case; dashes ignored)."
    )
    name = StrictCharField(
        max_length=50,
        trim_whitespace=True,
        help_text="The student's name, unique in the classroom (case does not matter).",
    )


class QuotaIn(StrictSerializer):
    games_per_hour = StrictIntegerField(
        min_value=1,
        max_value=MOST_PER_HOUR,
        required=False,
        help_text="Games each key of the classroom may create (or seats it may join) per "
        "hour. At most the deployment's default, or the classroom's current limit if higher.",
    )
    advice_per_hour = StrictIntegerField(
        min_value=1,
        max_value=MOST_PER_HOUR,
        required=False,
        help_text="Hints and advice each key of the classroom may ask per hour. At most the "
        "deployment's default, or the classroom's current limit if higher.",
    )


class ClassroomPatchIn(StrictSerializer):
    quota = QuotaIn(
        required=False, help_text="The limits to change; those not given stay as they are."
    )
    joining = StrictChoiceField(
        choices=[c.value for c in Classroom.Joining],
        required=False,
        help_text="`closed`: joins are refused (409 `joining_closed`) until it is `open` again.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise ValidationError({"body": ["give `quota`, `joining` or both"]})
        return attrs


class EmptyIn(StrictSerializer):
    pass


# -- responses -----------------------------------------------------------------------------


class QuotaBody(TypedDict):
    games_per_hour: Annotated[int, "Games each key may create (or seats it may join) per hour."]
    advice_per_hour: Annotated[int, "Hints and advice each key may ask per hour."]


JoiningShown = Annotated[
    str,
    Choice([c.value for c in Classroom.Joining]),
    "`open`: students may join with the code; `closed`: joins are refused.",
]


class ClassroomCreatedBody(TypedDict):
    id: Uuid
    name: str
    join_code: Annotated[str, "Hand it to the students: they join with it."]
    joining: JoiningShown
    teacher_key: Annotated[
        str, "Send it as `X-API-Key` on the teacher's paths. Shown only here: keep it."
    ]
    quota: QuotaBody
    created_at: DateTime


class RefBody(TypedDict):
    id: Uuid
    name: str


class JoinedBody(TypedDict):
    classroom: RefBody
    student: RefBody
    api_key: Annotated[str, "The student's own key: send it as `X-API-Key`. Shown only here."]


class RulesetFiguresBody(TypedDict):
    games_finished: int
    mean: Annotated[float, "The mean final total of the student's seat."]
    best: Annotated[int, "The best final total of the student's seat."]
    mean_accuracy: Annotated[
        float | None,
        "The mean accuracy (see the analysis endpoint) of those games that have an "
        "analysis; null when none has.",
    ]


class RosterStudentBody(TypedDict):
    id: Uuid
    name: str
    joined_at: DateTime
    games_started: Annotated[int, "Games created with the student's key."]
    games_finished: int
    rulesets: Annotated[
        dict[str, RulesetFiguresBody],
        "Per ruleset id, figures over the student's finished games of it.",
    ]


class ClassroomBody(TypedDict):
    id: Uuid
    name: str
    join_code: str
    joining: JoiningShown
    quota: QuotaBody
    created_at: DateTime
    students: list[RosterStudentBody]


class GamesPageBody(TypedDict):
    count: Annotated[int, "Games that match, on every page."]
    next: Url | None
    previous: Url | None
    results: list[GameBody]


class ClassEntryBody(TypedDict):
    rank: Annotated[int, Bounds(1)]
    name: Annotated[str, "The student's name."]
    score: int
    game: Uuid
    finished_at: DateTime
    ranked: Annotated[bool, "False for a seeded game (reproducible dice)."]


class StudentKeyBody(TypedDict):
    student: RefBody
    revoked: Annotated[bool, "True: every key the student held stops working at once."]
    api_key: NotRequired[
        Annotated[str, "After `rotate`: the student's new key, shown only here."]
    ]


class JoinCodeBody(TypedDict):
    join_code: Annotated[str, "The classroom's new code; the old one no longer works."]


class KeyOwnerBody(TypedDict):
    """Who an API key belongs to: how a page that was given only a key finds its classroom."""

    role: Annotated[str, Choice(["teacher", "student"])]
    classroom: RefBody
    student: Annotated[RefBody | None, "The student, for a student's key; null for a teacher."]


ClassroomCreatedOut = serializer_for(ClassroomCreatedBody)
KeyOwnerOut = serializer_for(KeyOwnerBody)
JoinedOut = serializer_for(JoinedBody)
ClassroomOut = serializer_for(ClassroomBody)
GamesPageOut = serializer_for(GamesPageBody)
ClassEntryOut = serializer_for(ClassEntryBody)
StudentKeyOut = serializer_for(StudentKeyBody)
JoinCodeOut = serializer_for(JoinCodeBody)


def render_quota(classroom: Classroom) -> QuotaBody:
    quota = quota_of(classroom)
    return {
        "games_per_hour": quota["games_per_hour"],
        "advice_per_hour": quota["advice_per_hour"],
    }


def render_ref(named: Classroom | Student) -> RefBody:
    return {"id": str(named.id), "name": named.name}


def render_created(opened: service.Opened) -> ClassroomCreatedBody:
    classroom = opened.classroom
    return {
        "id": str(classroom.id),
        "name": classroom.name,
        "join_code": classroom.join_code,
        "joining": classroom.joining,
        "teacher_key": opened.teacher_key,
        "quota": render_quota(classroom),
        "created_at": iso_time(classroom.created_at),
    }


def render_classroom(classroom: Classroom, students: list[dict[str, Any]]) -> ClassroomBody:
    """The classroom with its roster (as ``classroom_roster`` gives it)."""
    return {
        "id": str(classroom.id),
        "name": classroom.name,
        "join_code": classroom.join_code,
        "joining": classroom.joining,
        "quota": render_quota(classroom),
        "created_at": iso_time(classroom.created_at),
        "students": [
            {
                "id": str(student["id"]),
                "name": student["name"],
                "joined_at": iso_time(student["joined_at"]),
                "games_started": student["games_started"],
                "games_finished": student["games_finished"],
                "rulesets": student["rulesets"],
            }
            for student in students
        ],
    }


def render_class_entry(entry: service.ClassEntry) -> ClassEntryBody:
    return {**render_entry(entry), "ranked": entry.ranked}


# -- examples ------------------------------------------------------------------------------

CLASSROOM_ID = "6a1f0f6e-2b4c-4d8e-9f10-1a2b3c4d5e6f"
STUDENT_ID = "0b5e7d3c-91a2-4f6b-8c3d-2e1f0a9b8c7d"
TEACHER_KEY = "dk_Ab3dEf7hJk_v0XbH3kQ9mR2tY5wZ8cF1gJ4nP7sU0xA3dG6jL9oR2uX5"
STUDENT_KEY = "dk_Qr8sTu2vWx_Zy1Xw2Vu3Ts4Rq5Po6Nm7Lk8Ji9Hg0Fe1Dc2Ba3Zy4Xw5V"
QUOTA = {"games_per_hour": 6000, "advice_per_hour": 10000}
CREATED_EXAMPLE = OpenApiExample(
    "A new classroom",
    response_only=True,
    status_codes=["201"],
    value={
        "id": CLASSROOM_ID,
        "name": "5B",
        "join_code": "K7QXM2PD",
        "joining": "open",
        "teacher_key": TEACHER_KEY,
        "quota": QUOTA,
        "created_at": "2026-11-23T08:00:00Z",
    },
)
ROSTER_EXAMPLE = OpenApiExample(
    "A classroom with one student",
    response_only=True,
    value={
        "id": CLASSROOM_ID,
        "name": "5B",
        "join_code": "K7QXM2PD",
        "joining": "open",
        "quota": QUOTA,
        "created_at": "2026-11-23T08:00:00Z",
        "students": [
            {
                "id": STUDENT_ID,
                "name": "Ann",
                "joined_at": "2026-11-23T08:05:00Z",
                "games_started": 4,
                "games_finished": 3,
                "rulesets": {
                    "yahtzee": {
                        "games_finished": 3,
                        "mean": 221.33333333333334,
                        "best": 254,
                        "mean_accuracy": None,
                    }
                },
            }
        ],
    },
)
WRONG_KEY_EXAMPLE = OpenApiExample(
    "A wrong or revoked key",
    response_only=True,
    status_codes=["401"],
    value=problem(ProblemCode.INVALID_API_KEY, "this API key is not valid (wrong or revoked)"),
)
FORBIDDEN_EXAMPLE = OpenApiExample(
    "A student's key on a teacher's path",
    response_only=True,
    status_codes=["403"],
    value=problem(ProblemCode.FORBIDDEN, "only the classroom's teacher key may do this"),
)
TEACHER_ERRORS = {
    **docs.problems(404, 429),
    (401, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
        "(`invalid_api_key`).",
    ),
    (403, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="A student's key, or another classroom's teacher key (`forbidden`).",
    ),
}
TEACHER_EXAMPLES = [WRONG_KEY_EXAMPLE, FORBIDDEN_EXAMPLE]


class TeacherView(APIView):
    """A path of one classroom's teacher."""

    authentication_classes = [ApiKeyAuthentication]

    def classroom(self, request: Request, pk: uuid.UUID) -> Classroom:
        return service.classroom_for_teacher(caller=request_caller(request), classroom_id=pk)


# -- views ---------------------------------------------------------------------------------


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
        return Response(render_classroom(classroom, roster))

    @extend_schema(
        summary="The classroom and its roster (teacher)",
        description="Every student with `games_started` (games created with their key), "
        "`games_finished`, and per ruleset over their finished games: `mean` and `best` "
        "final total of the student's seat (the game's first person seat) and "
        "`mean_accuracy` where analysis exists (else null). Seeded games and house rules "
        "count too.",
        responses={200: ClassroomOut, **TEACHER_ERRORS},
        examples=[ROSTER_EXAMPLE, *TEACHER_EXAMPLES],
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        return self._answer(self.classroom(request, pk))

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
                    ProblemCode.QUOTA_ABOVE_DEFAULT,
                    "a teacher may lower the quota, not raise it above the default "
                    "(games_per_hour 6000); ask the service's operator for more",
                ),
            ),
            ROSTER_EXAMPLE,
            *TEACHER_EXAMPLES,
        ],
    )
    def patch(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request, pk)
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
        classroom = self.classroom(request, pk)
        EmptyIn(data=request.data).is_valid(raise_exception=True)
        classroom = service.classroom_new_code(classroom=classroom)
        body: JoinCodeBody = {"join_code": classroom.join_code}
        return Response(body)


class ClassroomGameFilter(RulesetStatusFilter):
    student = filters.CharFilter(
        method="with_student",
        max_length=50,
        help_text="The student's id, or name (case does not matter).",
    )

    class Meta:
        model = Game
        fields = ["ruleset", "status", "student"]

    def with_student(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        match = Q(student__name_key=value.casefold())
        with contextlib.suppress(ValueError):
            match |= Q(student_id=uuid.UUID(value))
        return queryset.filter(match)


GAMES_QUERY = [
    OpenApiParameter("ruleset", {"type": "string", "enum": list(RULESETS)}),
    OpenApiParameter("status", {"type": "string", "enum": GAME_STATUSES}),
    OpenApiParameter(
        "student", {"type": "string", "maxLength": 50}, description="The student's id or name."
    ),
    OpenApiParameter("page", {"type": "integer", "minimum": 1}),
    OpenApiParameter(
        "page_size", {"type": "integer", "minimum": 1, "maximum": GamePagination.max_page_size}
    ),
]


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
        classroom = self.classroom(request, pk)
        chosen = ClassroomGameFilter(
            request.query_params, queryset=service.classroom_games(classroom=classroom)
        )
        if not chosen.is_valid():
            raise ValidationError(chosen.errors)
        seats = Prefetch("players", queryset=Player.objects.order_by("seat"))
        games = chosen.qs.select_related("student").prefetch_related(seats)
        pages = GamePagination()
        page: list[Game] = pages.paginate_queryset(games, request, view=self) or []
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
        classroom = self.classroom(request, pk)
        query = LeaderboardQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = service.classroom_leaderboard(classroom=classroom, **query.validated_data)
        return Response([render_class_entry(row) for row in rows])


class StudentKeyView(TeacherView):
    """Revoke or rotate one student's key."""

    rotate = False

    def post(self, request: Request, pk: uuid.UUID, student_id: uuid.UUID) -> Response:
        classroom = self.classroom(request, pk)
        if not isinstance(request.data, dict) or request.data:
            raise ValidationError({"body": ["the body must be empty or {}"]})
        if self.rotate:
            student, key = service.student_key_rotate(classroom=classroom, student_id=student_id)
            body: StudentKeyBody = {"student": render_ref(student), "revoked": True, "api_key": key}
        else:
            student = service.student_key_revoke(classroom=classroom, student_id=student_id)
            body = {"student": render_ref(student), "revoked": True}
        return Response(body)




class StudentRevokeView(StudentKeyView):
    @extend_schema(
        summary="Revoke a student's key (teacher)",
        description="The student's key stops working at once, on every path (401 "
        "`invalid_api_key`). The student and their games stay; `rotate` gives them a new key.",
        request=EmptyIn,
        responses={200: StudentKeyOut, **TEACHER_ERRORS, **docs.problems(400)},
        examples=[
            OpenApiExample(
                "Revoked",
                response_only=True,
                value={"student": {"id": STUDENT_ID, "name": "Ann"}, "revoked": True},
            ),
            *TEACHER_EXAMPLES,
        ],
    )
    def post(self, request: Request, pk: uuid.UUID, student_id: uuid.UUID) -> Response:
        return super().post(request, pk, student_id)


class StudentRotateView(StudentKeyView):
    rotate = True

    @extend_schema(
        summary="Give a student a new key (teacher)",
        description="Every key the student held stops working at once; the answer carries "
        "the new one, shown only here. The student keeps their games.",
        request=EmptyIn,
        responses={200: StudentKeyOut, **TEACHER_ERRORS, **docs.problems(400)},
        examples=[
            OpenApiExample(
                "A new key",
                response_only=True,
                value={
                    "student": {"id": STUDENT_ID, "name": "Ann"},
                    "revoked": True,
                    "api_key": STUDENT_KEY,
                },
            ),
            *TEACHER_EXAMPLES,
        ],
    )
    def post(self, request: Request, pk: uuid.UUID, student_id: uuid.UUID) -> Response:
        return super().post(request, pk, student_id)


class KeyOwnerView(APIView):
    authentication_classes = [ApiKeyAuthentication]

    @extend_schema(
        summary="Who this key is",
        description="The role of the `X-API-Key` sent (`teacher` or `student`), its classroom "
        "and, for a student, the student: what a page given only a key needs to find its "
        "classroom. No key: 401 `not_authenticated`; a wrong or revoked one: 401 "
        "`invalid_api_key`.",
        responses={200: KeyOwnerOut, **docs.problems(429), **{
            key: value for key, value in TEACHER_ERRORS.items() if key[0] == 401
        }},
    )
    def get(self, request: Request) -> Response:
        caller = request_caller(request)
        if caller is None:
            raise ServiceError(ProblemCode.NOT_AUTHENTICATED, "send an API key in X-API-Key")
        body: KeyOwnerBody = {
            "role": caller.role,
            "classroom": render_ref(caller.classroom),
            "student": render_ref(caller.student) if caller.student is not None else None,
        }
        return Response(body)
