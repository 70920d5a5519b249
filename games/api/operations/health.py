"""The health check: whether the service can reach its database."""

from typing import TypedDict

from django.db import connection
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.schema import docs
from games.api.schema.shapes import serializer_for
from games.http.codes import HttpCode
from games.http.problems import PROBLEM, problem, problem_headers


class HealthBody(TypedDict):
    status: str
    database: str


HealthOut = serializer_for(HealthBody)


class HealthView(APIView):
    authentication_classes: list = []

    @extend_schema(
        summary="Health",
        responses={200: HealthOut, **docs.problems(503)},
        examples=[
            OpenApiExample("Healthy", value={"status": "ok", "database": "ok"}, response_only=True)
        ],
    )
    def get(self, request: Request) -> Response:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception:  # noqa: BLE001 - any database failure means the service cannot serve
            body = problem(
                HttpCode.DATABASE_UNAVAILABLE, gettext("the database cannot be reached")
            )
            return Response(
                body | {"database": "unavailable"},
                status=503,
                headers=problem_headers(body),
                content_type=PROBLEM,
            )
        return Response({"status": "ok", "database": "ok"})
