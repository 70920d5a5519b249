"""The high-score table: parse the query, ask the selector, answer the rows."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.leaderboard.bodies import LeaderboardEntryOut, render_entry
from games.api.leaderboard.requests import LeaderboardQuery
from games.api.schema import docs
from games.http.problems import problem
from games.play import selectors
from scoring import ProblemCode

TABLE_EXAMPLE = OpenApiExample(
    "A tie for second place",
    response_only=True,
    value=[
        {
            "rank": 1,
            "name": "Ann",
            "score": 312,
            "game": "3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10",
            "finished_at": "2026-11-20T18:02:11Z",
        },
        {
            "rank": 2,
            "name": "Ben",
            "score": 287,
            "game": "9b7d1e42-5a3c-4f08-8e6b-1c2d3e4f5a6b",
            "finished_at": "2026-11-19T09:45:00Z",
        },
        {
            "rank": 2,
            "name": "Cleo",
            "score": 287,
            "game": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            "finished_at": "2026-11-21T07:30:52Z",
        },
        {
            "rank": 4,
            "name": "Ann",
            "score": 254,
            "game": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            "finished_at": "2026-11-21T07:30:52Z",
        },
    ],
)


UNKNOWN_CHESS = (
    "no ruleset 'chess'; known: yahtzee, yatzy, forced-yatzy, maxi-yatzy, ten-thousand"
)


UNKNOWN_RULESET_EXAMPLE = OpenApiExample(
    "An unknown ruleset",
    response_only=True,
    status_codes=["400"],
    value=problem(
        ProblemCode.UNKNOWN_RULESET,
        f"ruleset: {UNKNOWN_CHESS}",
        [{"field": "ruleset", "code": ProblemCode.UNKNOWN_RULESET, "detail": UNKNOWN_CHESS}],
    ),
)


class LeaderboardView(APIView):
    authentication_classes: list = []

    @extend_schema(
        summary="High scores",
        description="The best totals of seats in finished, ranked games of one ruleset, "
        "highest first. Equal scores share a rank (1, 2, 2, 4) and the earlier finish is "
        "listed first. A person appears once per game played, so a name may appear more than "
        "once. Never counted: unfinished or abandoned games, seeded games (unranked) and "
        "computer seats, and games played with house rules (options other than the ruleset's "
        "defaults), so that every score was made under the same rules. "
        "`ruleset` is required: scores of different rulesets do not compare. "
        "An unknown ruleset is refused with `unknown_ruleset`; a missing one, or a bad "
        "`period` or `limit`, with `invalid`.",
        parameters=[LeaderboardQuery],
        responses={
            200: OpenApiResponse(LeaderboardEntryOut(many=True), description="The table."),
            **docs.problems(400),
        },
        examples=[TABLE_EXAMPLE, UNKNOWN_RULESET_EXAMPLE],
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        rows = selectors.leaderboard(**query.validated_data)
        return Response([render_entry(row) for row in rows])
