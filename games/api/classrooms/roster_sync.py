"""A classroom made for a learning platform's course: its roster synced from the platform
(``games.courses.roster``), by its teacher."""

import uuid
from typing import TypedDict

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.classrooms.examples import TEACHER_ERRORS, TEACHER_EXAMPLES
from games.api.classrooms.requests import EmptyIn
from games.api.classrooms.views import TeacherView
from games.api.schema import docs
from games.api.schema.shapes import serializer_for
from games.courses import roster
from games.http.problems import problem
from games.play.errors import ServiceCode


class SyncedBody(TypedDict):
    members: int
    added: int
    made_inactive: int
    made_active: int


SyncedOut = serializer_for(SyncedBody)


class RosterSyncView(TeacherView):
    @extend_schema(
        summary="Sync the roster from the learning platform (teacher)",
        description="For a classroom made by a learning platform's course: reads the "
        "course's members from the platform (Names and Role Provisioning Service, every "
        "page) and syncs its learners into the classroom: new ones added (`source` `lti`), "
        "those gone from the course or inactive there made inactive (`active` false), "
        "inactive ones active again; nobody is deleted and staff are never made students. "
        "Answers how many members the platform listed and what changed. A classroom no "
        "platform made (or whose platform offers no roster): 409 `lti_not_linked`; the "
        "platform away or refusing: 502 `lti_platform_unavailable`, and nothing changes.",
        request=EmptyIn,
        responses={
            200: SyncedOut,
            **TEACHER_ERRORS,
            **docs.problems(400),
            (409, "application/problem+json"): OpenApiResponse(
                docs.ProblemOut, description="Not a platform's course (`lti_not_linked`)."
            ),
            (502, "application/problem+json"): OpenApiResponse(
                docs.ProblemOut,
                description="The platform could not be read (`lti_platform_unavailable`).",
            ),
        },
        examples=[
            OpenApiExample(
                "Two new learners, one gone",
                response_only=True,
                value={"members": 31, "added": 2, "made_inactive": 1, "made_active": 0},
            ),
            OpenApiExample(
                "Not a platform's course",
                response_only=True,
                status_codes=["409"],
                value=problem(
                    ServiceCode.LTI_NOT_LINKED,
                    "this classroom was not made by a learning platform",
                ),
            ),
            *TEACHER_EXAMPLES,
        ],
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        classroom = self.classroom(request)
        EmptyIn(data=request.data).is_valid(raise_exception=True)
        synced = roster.lti_roster_sync(classroom=classroom)
        body: SyncedBody = {
            "members": synced.members,
            "added": synced.added,
            "made_inactive": synced.made_inactive,
            "made_active": synced.made_active,
        }
        return Response(body)
