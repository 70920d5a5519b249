"""Tournaments over HTTP (docs/contract.md, "Tournaments"): thin views over
``games.tournaments``. The teacher sets tournaments of the classroom's bots, a student
scrimmages of their own bots and computers; the classroom follows them live, anyone else
once they are over."""

import uuid

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.assignments.views import MEMBER_ERRORS
from games.api.games.bodies import render_game
from games.api.games.filters import GamePagination
from games.api.schema import docs
from games.api.tournaments.bodies import (
    CSV_HEADER,
    StandingOut,
    StandingsCsvRenderer,
    TournamentGamesPageOut,
    TournamentOut,
    render_standing,
    render_tournament,
)
from games.api.tournaments.requests import TournamentIn
from games.http.auth import ApiKeyAuthentication, permitted_caller
from games.http.permissions import (
    CancelsTournament,
    ClassroomMember,
    ProblemRefusals,
    SeesTournament,
)
from games.http.throttles import CreateThrottle
from games.tournaments import selectors
from games.tournaments import services as service

SET_EXAMPLE = OpenApiExample(
    "A round robin",
    request_only=True,
    value={
        "title": "Spring cup", "ruleset": "yahtzee", "seats": 2, "boards": 3,
        "entrants": [{"bot": "5b1d0c3e-9f8a-4c2b-a1d7-3e6f0b9c8d21"}, {"computer": "greedy"}],
        "clock": {"turn_seconds": 30},
    },
)
SEES_ERRORS = {
    # No key is needed once a tournament is over; a key that is sent must be valid (401).
    **docs.problems(401, 429),
    (404, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No such tournament in this classroom, or one not over yet asked by "
        "anyone but the classroom (`not_found`).",
    ),
}


class TournamentsView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [ClassroomMember]

    def get_throttles(self) -> list:
        return [CreateThrottle()] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(
        summary="Set a tournament",
        description="The teacher enters any bots of the classroom and computers; a student "
        "(a scrimmage, never rated) their own bots and computers. 2 to 64 entrants (1 to 64 "
        "for `seats: 1`), a bot at most once, each bot playing the ruleset (else `400 "
        "invalid`); at most 10,000 games (`400 tournament_too_large`). Each board's secret "
        "is drawn now and committed to (`commitments`); the worker starts the games from "
        "`starts_at`.",
        request=TournamentIn,
        responses={201: TournamentOut, **MEMBER_ERRORS, **docs.problems(400, 413, 415, 503)},
        examples=[SET_EXAMPLE],
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        given = TournamentIn(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        student = permitted_caller(request).student
        clock = data["clock"]
        tournament = service.tournament_create(
            classroom_id=pk,
            student_id=student.id if student is not None else None,
            title=data["title"],
            ruleset_id=data["ruleset"],
            options=data["options"],
            seats=data["seats"],
            boards=data["boards"],
            entrants=[service.EntrantIn(bot=e["bot"], computer=e["computer"])
                      for e in data["entrants"]],
            turn_seconds=clock["turn_seconds"] if clock else None,
            starts_at=data["starts_at"],
            rated=data["rated"],
        )
        found = selectors.tournament_of(classroom_id=pk, tournament_id=tournament.id)
        rows = selectors.standings_of(tournament=found)
        body = render_tournament(found, selectors.progress_of([found])[found.id], rows)
        return Response(body, status=201, headers={
            "Location": f"/api/v1/classrooms/{pk}/tournaments/{tournament.id}/"
        })

    @extend_schema(
        operation_id="classrooms_tournaments_list",
        summary="The classroom's tournaments",
        description="Newest first, for the teacher or a student of the classroom (each with "
        "`standings` empty: they are in each tournament's own answer).",
        responses={200: TournamentOut(many=True), **MEMBER_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        tournaments = selectors.tournaments_of(classroom_id=pk)
        progress = selectors.progress_of(tournaments)
        return Response([render_tournament(t, progress[t.id]) for t in tournaments])


class TournamentView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [SeesTournament]

    @extend_schema(
        summary="A tournament",
        description="With its progress and standings: live for the classroom, for anyone "
        "once it is over.",
        responses={200: TournamentOut, **SEES_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID, tournament_id: uuid.UUID) -> Response:
        tournament = selectors.tournament_of(classroom_id=pk, tournament_id=tournament_id)
        progress = selectors.progress_of([tournament])[tournament.id]
        rows = selectors.standings_of(tournament=tournament)
        return Response(render_tournament(tournament, progress, rows))


class TournamentCancelView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [CancelsTournament]

    @extend_schema(
        summary="Cancel a tournament",
        description="The teacher, or the student whose scrimmage it is. Its unfinished "
        "games are abandoned and every board's secret shown. Refused `409 tournament_over` "
        "once it is finished or cancelled.",
        request=None,
        responses={200: TournamentOut, **MEMBER_ERRORS, **docs.problems(409)},
    )
    def post(self, request: Request, pk: uuid.UUID, tournament_id: uuid.UUID) -> Response:
        service.tournament_cancel(classroom_id=pk, tournament_id=tournament_id)
        tournament = selectors.tournament_of(classroom_id=pk, tournament_id=tournament_id)
        progress = selectors.progress_of([tournament])[tournament.id]
        rows = selectors.standings_of(tournament=tournament)
        return Response(render_tournament(tournament, progress, rows))


class TournamentGamesView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [SeesTournament]

    @extend_schema(
        summary="A tournament's games",
        description="The games started so far, in the schedule's order (`tournament_game`), "
        "paginated; each with its board, seats and totals (never a seat's token).",
        parameters=[
            OpenApiParameter("page", int, OpenApiParameter.QUERY, required=False),
            OpenApiParameter("page_size", int, OpenApiParameter.QUERY, required=False,
                             description="At most 100."),
        ],
        responses={200: TournamentGamesPageOut, **SEES_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID, tournament_id: uuid.UUID) -> Response:
        tournament = selectors.tournament_of(classroom_id=pk, tournament_id=tournament_id)
        pages = GamePagination()
        page = pages.paginate_queryset(
            selectors.tournament_games(tournament=tournament), request, view=self
        ) or []
        return pages.get_paginated_response(
            [render_game(game, list(game.players.all())) for game in page]
        )


class TournamentStandingsView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [SeesTournament]
    renderer_classes = [JSONRenderer, StandingsCsvRenderer]

    @extend_schema(
        summary="A tournament's standings",
        description="One row per entrant, best first (by points, then mean score). As CSV "
        "with `Accept: text/csv` or `?format=csv`, header "
        f"`{','.join(CSV_HEADER)}`; no cell starts a formula.",
        parameters=[
            OpenApiParameter(
                "format", {"type": "string", "enum": ["json", "csv"]}, OpenApiParameter.QUERY,
                required=False, description="`csv`: the same rows as CSV.",
            )
        ],
        responses={
            (200, "application/json"): StandingOut(many=True),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The rows as CSV."),
            **SEES_ERRORS,
        },
    )
    def get(self, request: Request, pk: uuid.UUID, tournament_id: uuid.UUID) -> Response:
        tournament = selectors.tournament_of(classroom_id=pk, tournament_id=tournament_id)
        rows = selectors.standings_of(tournament=tournament)
        headers = {}
        if request.accepted_renderer.format == "csv":
            headers["Content-Disposition"] = f'attachment; filename="standings-{tournament.id}.csv"'
        return Response([render_standing(row) for row in rows], headers=headers)
