"""Games over HTTP: create, list and read them, join them, ask for advice, follow their
log; the moves are ``moves.py``'s, and the conditional headers ``conditional.py``'s. Thin
views: parse the request, call one service or selector, render the answer."""

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.games.advice_bodies import (
    AnalysisOut,
    HintOut,
    TenThousandAnalysisOut,
    TenThousandHintOut,
    render_analysis,
    render_hint,
)
from games.api.games.bodies import EventOut, GameOut, render_event, render_game
from games.api.games.conditional import (
    IF_NONE_MATCH,
    NOT_MODIFIED,
    not_modified,
    unchanged,
    with_etag,
)
from games.api.games.filters import GameFilter
from games.api.games.moves import MoveActions, answer
from games.api.games.requests import (
    AnalysisQuery,
    EventsQuery,
    GameCreateIn,
    GamesQuery,
    JoinIn,
)
from games.api.schema import advice_docs, docs
from games.arena import seating
from games.http.auth import caller_of
from games.http.permissions import MaySeeGame, ProblemRefusals, viewer_of
from games.http.throttles import (
    AdviceThrottle,
    ComputerBudget,
    CreateThrottle,
    MoveThrottle,
    create_estimate,
)
from games.models import Game
from games.play import selectors, services
from games.play.advice import game_hint
from games.play.analysis import game_analysis
from games.play.clocks import Clock
from games.play.privacy import only_public, private_game, private_of
from scoring.commands import Join
from scoring.match import Seat

UUID_RE = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
CHANGES = {"roll", "hold", "score", "scratch", "bank", "pass_turn", "leave", "start", "join"}
@extend_schema_view(
    list=extend_schema(
        summary="List games",
        description="Newest first, paginated, filterable by ruleset, status and player name.",
        parameters=[GamesQuery],
        responses={200: GameOut(many=True), **docs.problems(400, 404)},
        examples=[
            OpenApiExample(
                "One page",
                response_only=True,
                value={"count": 1, "next": None, "previous": None, "results": [docs.GAME]},
            )
        ],
    ),
    retrieve=extend_schema(
        summary="Get a game",
        parameters=[IF_NONE_MATCH],
        responses={200: GameOut, 304: NOT_MODIFIED, **docs.problems(404)},
        examples=[docs.GAME_EXAMPLE],
    ),
)
class GameViewSet(MoveActions, ProblemRefusals, viewsets.GenericViewSet):
    lookup_value_regex = UUID_RE
    filterset_class = GameFilter
    serializer_class = GameOut
    authentication_classes: list = []
    permission_classes = [MaySeeGame]

    def get_throttles(self) -> list:
        if self.action in ("create", "join"):
            return [CreateThrottle()]
        if self.action in ("hint", "analysis"):  # each solves positions from the tables
            return [AdviceThrottle()]
        if self.action in CHANGES:
            return [MoveThrottle()]
        return []

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.games_shown()

    @extend_schema(
        summary="Create a game",
        description="The answer carries each person's seat token, shown only here. With a "
        "student's `X-API-Key` the game is the student's (its `classroom` and `student` say "
        "so) and the limits count per key; without one, per client address.",
        request=GameCreateIn,
        auth=[{"apiKey": []}, {}],  # type: ignore[list-item]  # requirements, as drf-spectacular takes them
        responses={201: GameOut, **docs.problems(400, 401, 413, 415, 429, strategy=True)},
        examples=[
            docs.GAME_EXAMPLE,
            OpenApiExample(
                "Two players",
                value={
                    "ruleset": "yahtzee",
                    "options": {"joker": "forced"},
                    "players": [{"name": "Ann"}, {"name": "Ben"}],
                },
                request_only=True,
            ),
            OpenApiExample(
                "A seeded solitaire game",
                value={"ruleset": "yahtzee", "players": [{"name": "Ann"}], "seed": 42},
                request_only=True,
            ),
        ],
    )
    def create(self, request: Request) -> Response:
        given = GameCreateIn(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        caller = caller_of(request)
        student = caller.student if caller is not None else None
        asked = [p["bot"] or Seat(p["name"], p["computer"]) for p in data["players"]]
        players = [p if isinstance(p, Seat) else Seat("bot", None) for p in asked]
        with ComputerBudget(request) as budget:
            budget.reserve(create_estimate(
                ruleset_id=data["ruleset"], players=players, open_seats=data["open_seats"]
            ))
            given_game: dict[str, Any] = {
                "ruleset_id": data["ruleset"],
                "options": data["options"],
                "open_seats": data["open_seats"],
                "seed": data["seed"],
                "client_seed": data["client_seed"],
                "clock": Clock(**data["clock"]) if data["clock"] else None,
                "student_id": student.id if student is not None else None,
                "classroom_id": student.classroom_id if student is not None else None,
            }
            if asked == players:
                created = services.game_create(players=players, **given_game)
            else:  # bots take seats (``games.arena.seating``)
                created = seating.game_create_seated(caller=caller, players=asked, **given_game)
            budget.spend(created.game.ruleset, created.computer_moves)
        body = render_game(created.game, created.players, created.tokens)
        return with_etag(body, 201, Location=f"/api/v1/games/{created.game.id}/")

    def list(self, request: Request) -> Response:
        GamesQuery(data=_query(request)).is_valid(raise_exception=True)
        # Games of an assignment are private until its deadline (``games.play.privacy``).
        public = only_public(self.get_queryset())
        page = self.paginate_queryset(self.filter_queryset(public))
        rows = page or []  # None only for a view that does not page
        return self.get_paginated_response([render_game(g, list(g.players.all())) for g in rows])

    def retrieve(self, request: Request, pk: str) -> Response:
        if "If-None-Match" in request.headers:
            # A client refreshing its copy: the version alone tells whether to send it.
            found = selectors.game_columns(pk, "version")
            if found is not None:
                self.check_object_permissions(request, private_of(pk, found))
                if unchanged(request, found["version"]):
                    return not_modified(found["version"])
        game = self._visible(request, pk)
        return with_etag(render_game(game, list(game.players.all())))

    def _visible(self, request: Request, pk: str) -> Game:
        """The game with its seats, if the caller may see it (``MaySeeGame``)."""
        game = selectors.game_shown(pk)
        if game is None:
            raise NotFound(gettext("no game with this id"))
        if game.due_at is not None:
            self.check_object_permissions(request, private_game(game))
        return game

    @extend_schema(
        summary="Advice for the current seat",
        description="Box games: the recommended move and the expected final score of every "
        "option (each distinct keep and each legal box), from the solved optimal-strategy "
        "tables (Yahtzee with any options, Yatzy, Forced Yatzy). That advice is "
        "solitaire-optimal: in a game of several seats it maximises the seat's own expected "
        "score and ignores the others'. Maxi Yatzy has no table: the hint is then the move "
        "of the strongest computer player (`method: heuristic`), with no expected values.\n\n"
        "Ten Thousand (`TenThousandHintOut`): every distinct option of the throw to decide "
        "on (or, before the turn's first throw, throwing and passing) with its value in the "
        "game's objective: the chance of winning while exactly two seats are in the game, "
        "the expected turns still to play alone; `method: approximate` with three or more "
        "seats, a final round or a target above 10,000.",
        responses={
            200: docs.box_or_ten_thousand("HintAnswer", HintOut, TenThousandHintOut),
            **docs.problems(404, 409, 429, strategy=True),
        },
        examples=[advice_docs.HINT_EXAMPLE, advice_docs.TEN_THOUSAND_HINT_EXAMPLE],
    )
    @action(detail=True, methods=["get"], pagination_class=None, filterset_class=None)
    def hint(self, request: Request, pk: str) -> Response:
        game = selectors.game_by_id(pk)
        if game is None:
            raise NotFound(gettext("no game with this id"))
        self.check_object_permissions(request, private_game(game))
        return Response(render_hint(game_hint(game)))

    @extend_schema(
        summary="Analysis: every decision scored against optimal play",
        description=advice_docs.ANALYSIS_DESCRIPTION,
        parameters=[AnalysisQuery],
        responses={
            200: docs.box_or_ten_thousand("AnalysisAnswer", AnalysisOut, TenThousandAnalysisOut),
            **docs.problems(404, 429, strategy=True),
            **advice_docs.ANALYSIS_QUERY_REFUSED,
            **advice_docs.ANALYSIS_UNAVAILABLE,
        },
        examples=[advice_docs.ANALYSIS_EXAMPLE, advice_docs.TEN_THOUSAND_ANALYSIS_EXAMPLE],
    )
    @action(detail=True, methods=["get"], pagination_class=None, filterset_class=None)
    def analysis(self, request: Request, pk: str) -> Response:
        query = AnalysisQuery(data=_query(request))
        query.is_valid(raise_exception=True)
        analysis = game_analysis(
            game_id=pk, viewer=viewer_of(request), **query.validated_data
        )
        return Response(render_analysis(analysis))

    @extend_schema(
        summary="The game's log",
        description="Events oldest first; page with `after` (the last `seq` you have).",
        parameters=[EventsQuery, IF_NONE_MATCH],
        responses={200: EventOut(many=True), 304: NOT_MODIFIED, **docs.problems(400, 404)},
        examples=[
            OpenApiExample(
                "A roll",
                value=[
                    {
                        "seq": 2,
                        "type": "rolled",
                        "seat": 0,
                        "data": {"dice": [3, 3, 5, 1, 6], "thrown": [0, 1, 2, 3, 4]},
                        "created_at": "2026-11-21T10:00:05Z",
                    }
                ],
                response_only=True,
            )
        ],
    )
    @action(detail=True, methods=["get"], pagination_class=None, filterset_class=None)
    def events(self, request: Request, pk: str) -> Response:
        query = EventsQuery(data=_query(request))
        query.is_valid(raise_exception=True)
        found = selectors.game_columns(pk, "last_seq")
        if found is None:
            raise NotFound(gettext("no game with this id"))
        self.check_object_permissions(request, private_of(pk, found))
        last_seq = found["last_seq"]
        if unchanged(request, last_seq):
            return not_modified(last_seq)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        events = selectors.game_events(pk, after=after, limit=limit)
        return Response([render_event(e) for e in events], headers={"ETag": f'"{last_seq}"'})

    @extend_schema(
        summary="Join a waiting game",
        description="Takes the next open seat; no token is needed. The answer carries the new "
        "seat's token, shown only here (tokens are stored only as hashes, so a join is not "
        "replayed by an `Idempotency-Key`). When the last open seat is taken the game starts.",
        request=JoinIn,
        responses={
            201: OpenApiResponse(GameOut, description="The game, the new seat with its token."),
            # 401: a bot takes a seat with its owner's key (or the teacher's).
            **docs.problems(400, 401, 404, 409, 413, 415, 422, 429, strategy=True),
        },
        examples=[OpenApiExample("Join as Cleo", value={"name": "Cleo"}, request_only=True)],
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        given = JoinIn(data=request.data)
        given.is_valid(raise_exception=True)
        bot = given.validated_data["bot"]
        with ComputerBudget(request) as budget:
            if bot is not None:  # a bot's seat (``games.arena.seating``)
                joined = seating.game_join_seated(
                    caller=caller_of(request), game_id=pk, bot_id=bot,
                    computers_may_play=budget.check_left,
                )
            else:
                command = given.save()
                assert isinstance(command, Join)  # what JoinIn saves
                joined = services.game_join(
                    game_id=pk, command=command, computers_may_play=budget.check_left
                )
            budget.spend(joined.game.ruleset, joined.computer_moves)
        return answer(joined, 201)


def _query(request: Request) -> dict[str, Any]:
    """The query string as a plain dict; a repeated parameter keeps all its values (a
    list, which no single-valued field accepts), so that it is refused, not half-read."""
    return {
        name: values[0] if len(values) == 1 else values
        for name, values in request.query_params.lists()
    }



