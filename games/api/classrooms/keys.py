"""A classroom's keys over HTTP: the teacher revokes or rotates a student's key, and any
key holder asks whose key they hold. Apart from ``views.py`` because these act on a key,
not on the classroom's roster, games or scores."""

import uuid

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.classrooms.bodies import (
    KeyOwnerBody,
    KeyOwnerOut,
    StudentKeyBody,
    StudentKeyOut,
    render_ref,
)
from games.api.classrooms.examples import (
    STUDENT_ID,
    STUDENT_KEY,
    TEACHER_ERRORS,
    TEACHER_EXAMPLES,
)
from games.api.classrooms.requests import (
    EmptyIn,
)
from games.api.classrooms.views import TeacherView
from games.api.schema import docs
from games.classrooms import services as service
from games.http.auth import ApiKeyAuthentication, permitted_caller
from games.http.permissions import AnyKey, ProblemRefusals


class StudentKeyView(TeacherView):
    """Revoke or rotate one student's key."""

    rotate = False

    def post(self, request: Request, pk: uuid.UUID, student_id: uuid.UUID) -> Response:
        classroom = self.classroom(request)
        if not isinstance(request.data, dict) or request.data:
            raise ValidationError({"body": [gettext("the body must be empty or {}")]})
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


class KeyOwnerView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [AnyKey]

    @extend_schema(
        summary="Who this key is",
        description="The role of the `X-API-Key` sent (`teacher` or `student`), its classroom "
        "and, for a student, the student: what a page given only a key needs to find its "
        "classroom. A browser signed in by a course launch from a learning platform (LTI) "
        "asks with its session cookie instead, and is answered as that teacher or student. "
        "No key: 401 `not_authenticated`; a wrong or revoked one: 401 `invalid_api_key`.",
        responses={200: KeyOwnerOut, **docs.problems(429), **{
            key: value for key, value in TEACHER_ERRORS.items() if key[0] == 401
        }},
    )
    def get(self, request: Request) -> Response:
        caller = permitted_caller(request)
        body: KeyOwnerBody = {
            "role": caller.role,
            "classroom": render_ref(caller.classroom),
            "student": render_ref(caller.student) if caller.student is not None else None,
        }
        return Response(body)
