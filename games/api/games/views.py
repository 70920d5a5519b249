"""Games over HTTP: create, list and read them, move in them, follow their log. Thin views:
parse the request, call one service, render the answer."""

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.db.models import Q, QuerySet
from django.db.models.functions import Now
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
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
from games.api.games.filters import GameFilter
from games.api.games.requests import (
    AnalysisQuery,
    BankIn,
    CommandIn,
    EventsQuery,
    GameCreateIn,
    GamesQuery,
    HoldIn,
    JoinIn,
    LeaveIn,
    PassIn,
    RollIn,
    ScoreBoxIn,
    ScratchBoxIn,
    StartIn,
)
from games.api.schema import docs
from games.http.auth import SeatTokenAuthentication, caller_of, request_seat_token
from games.http.permissions import MaySeeGame, ProblemRefusals, viewer_of
from games.http.throttles import (
    AdviceThrottle,
    ComputerBudget,
    CreateThrottle,
    MoveThrottle,
    create_estimate,
)
from games.models import Event, Game
from games.play import services
from games.play.advice import game_hint
from games.play.analysis import game_analysis
from games.play.clocks import Clock
from games.play.privacy import PRIVACY_COLUMNS, private_game, private_of
from games.play.selectors import with_seats
from scoring.commands import Command, Join
from scoring.match import Seat

UUID_RE = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
F = TypeVar("F", bound=Callable[..., Any])
ETAG_RE = re.compile(r'^\s*(?:W/)?"?(\d{1,10})"?\s*$')
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='`"<version>"`: refuse the move with 412 if the game has changed since.',
)


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255},
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (at most 255 characters): a retry with the same key and "
    "request returns the first answer without moving again.",
)


CHANGES = {"roll", "hold", "score", "scratch", "bank", "pass_turn", "leave", "start", "join"}
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='`"<etag>"` of the copy you have: answers 304 with no body if it is current.',
)


NOT_MODIFIED = OpenApiResponse(description="Your copy is current (no body).")
ETAG = {"ETag": {"schema": {"type": "string"}, "description": 'The game\'s version, as `"12"`.'}}


def with_etag(body: Mapping[str, Any], status: int = 200, **headers: str) -> Response:
    return Response(body, status=status, headers={"ETag": f'"{body["version"]}"', **headers})


def move_schema(
    summary: str, request: Any, description: str, examples: list[OpenApiExample]
) -> Callable[[F], F]:
    return extend_schema(
        summary=summary,
        description=description,
        request=request,
        parameters=[IF_MATCH, IDEMPOTENCY_KEY],
        responses={
            200: OpenApiResponse(GameOut, description="The game after the move."),
            **docs.problems(400, 401, 404, 409, 412, 413, 415, 422, 429, strategy=True),
        },
        examples=[*examples, docs.GAME_EXAMPLE, docs.PROBLEM_EXAMPLE],
    )


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
class GameViewSet(ProblemRefusals, viewsets.GenericViewSet):
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
        return with_seats(Game.objects.select_related("student").order_by("-created_at", "id"))

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
        players = [Seat(p["name"], p["computer"]) for p in data["players"]]
        with ComputerBudget(request) as budget:
            budget.reserve(create_estimate(
                ruleset_id=data["ruleset"], players=players, open_seats=data["open_seats"]
            ))
            created = services.game_create(
                ruleset_id=data["ruleset"],
                options=data["options"],
                players=players,
                open_seats=data["open_seats"],
                seed=data["seed"],
                client_seed=data["client_seed"],
                clock=Clock(**data["clock"]) if data["clock"] else None,
                student_id=student.id if student is not None else None,
                classroom_id=student.classroom_id if student is not None else None,
            )
            budget.spend(created.game.ruleset, created.computer_moves)
        body = render_game(created.game, created.players, created.tokens)
        return with_etag(body, 201, Location=f"/api/v1/games/{created.game.id}/")

    def list(self, request: Request) -> Response:
        GamesQuery(data=_query(request)).is_valid(raise_exception=True)
        # Games of an assignment are private until its deadline (``games.play.privacy``).
        public = self.get_queryset().filter(Q(due_at__isnull=True) | Q(due_at__lte=Now()))
        page = self.paginate_queryset(self.filter_queryset(public))
        rows = page or []  # None only for a view that does not page
        return self.get_paginated_response([render_game(g, list(g.players.all())) for g in rows])

    def retrieve(self, request: Request, pk: str) -> Response:
        if "If-None-Match" in request.headers:
            # A client refreshing its copy: the version alone tells whether to send it.
            found = Game.objects.filter(pk=pk).values("version", *PRIVACY_COLUMNS).first()
            if found is not None:
                self.check_object_permissions(request, private_of(pk, found))
                if _unchanged(request, found["version"]):
                    return not_modified(found["version"])
        game = self._visible(request, pk)
        return with_etag(render_game(game, list(game.players.all())))

    def _visible(self, request: Request, pk: str) -> Game:
        """The game with its seats, if the caller may see it (``MaySeeGame``)."""
        game = self.get_queryset().filter(pk=pk).first()
        if game is None:
            raise NotFound("no game with this id")
        if game.due_at is not None:
            self.check_object_permissions(request, private_game(game))
        return game

    @move_schema(
        "Roll the dice",
        RollIn,
        "Box games: throws every die not held; with `hold`, first sets the held dice to exactly "
        "those positions. The first roll of a turn throws all dice.\n\n"
        "Ten Thousand: with `set_aside`, first sets aside that scoring selection of the last "
        "throw, then throws the free dice (all six again once all are set aside). A throw in "
        "which no die can score busts: the turn ends with no points and play passes on.",
        [
            OpenApiExample("Keep the first two dice", value={"hold": [0, 1]}, request_only=True),
            OpenApiExample(
                "Ten Thousand: set aside a 1 and a 5, throw the rest",
                value={"set_aside": [0, 3]},
                request_only=True,
            ),
        ],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def roll(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, RollIn)

    @move_schema(
        "Hold dice",
        HoldIn,
        "Sets the held dice to exactly these positions, without rolling.",
        [OpenApiExample("Hold three dice", value={"hold": [0, 2, 3]}, request_only=True)],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def hold(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, HoldIn)

    @move_schema(
        "Score a box",
        ScoreBoxIn,
        "Fills the box with the points the current dice take there (see `choices`); ends the turn.",
        [OpenApiExample("Full house", value={"category": "full_house"}, request_only=True)],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def score(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, ScoreBoxIn)

    @move_schema(
        "Scratch a box",
        ScratchBoxIn,
        "Fills the box with 0; ends the turn.",
        [
            OpenApiExample(
                "Give up the Yahtzee box", value={"category": "yahtzee"}, request_only=True
            )
        ],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def scratch(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, ScratchBoxIn)

    @move_schema(
        "Bank the turn (Ten Thousand)",
        BankIn,
        "Sets aside that scoring selection of the last throw, then adds the turn's points to "
        "the total, if they reach the game's `bank_minimum`.",
        [
            OpenApiExample(
                "Set aside three 4s and bank", value={"set_aside": [1, 2, 5]}, request_only=True
            )
        ],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def bank(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, BankIn)

    @move_schema(
        "Pass (Ten Thousand)",
        PassIn,
        "Ends the turn with no points.",
        [OpenApiExample("Pass", value={}, request_only=True)],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="pass",
        url_name="pass",
        authentication_classes=[SeatTokenAuthentication],
    )
    def pass_turn(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, PassIn)

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
        examples=[docs.HINT_EXAMPLE, docs.TEN_THOUSAND_HINT_EXAMPLE],
    )
    @action(detail=True, methods=["get"], pagination_class=None, filterset_class=None)
    def hint(self, request: Request, pk: str) -> Response:
        game = Game.objects.filter(pk=pk).first()
        if game is None:
            raise NotFound("no game with this id")
        self.check_object_permissions(request, private_game(game))
        return Response(render_hint(game_hint(game)))

    @extend_schema(
        summary="Analysis: every decision scored against optimal play",
        description=docs.ANALYSIS_DESCRIPTION,
        parameters=[AnalysisQuery],
        responses={
            200: docs.box_or_ten_thousand("AnalysisAnswer", AnalysisOut, TenThousandAnalysisOut),
            **docs.problems(404, 429, strategy=True),
            **docs.ANALYSIS_QUERY_REFUSED,
            **docs.ANALYSIS_UNAVAILABLE,
        },
        examples=[docs.ANALYSIS_EXAMPLE, docs.TEN_THOUSAND_ANALYSIS_EXAMPLE],
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
        found = Game.objects.filter(pk=pk).values("last_seq", *PRIVACY_COLUMNS).first()
        if found is None:
            raise NotFound("no game with this id")
        self.check_object_permissions(request, private_of(pk, found))
        last_seq = found["last_seq"]
        if _unchanged(request, last_seq):
            return not_modified(last_seq)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        events = Event.objects.filter(game_id=pk, seq__gt=after).order_by("seq")[:limit]
        return Response([render_event(e) for e in events], headers={"ETag": f'"{last_seq}"'})

    @move_schema(
        "Leave the game",
        LeaveIn,
        "The seat resigns: its later turns are skipped, its total stands and it cannot win; "
        "the game goes on among the others and ends when no person is left to play.",
        [OpenApiExample("Leave", value={}, request_only=True)],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def leave(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, LeaveIn)

    @move_schema(
        "Start a waiting game",
        StartIn,
        "A seated person starts the game now; the seats still open are dropped.",
        [OpenApiExample("Start", value={}, request_only=True)],
    )
    @action(detail=True, methods=["post"], authentication_classes=[SeatTokenAuthentication])
    def start(self, request: Request, pk: str) -> Response:
        return self._play(request, pk, StartIn)

    @extend_schema(
        summary="Join a waiting game",
        description="Takes the next open seat; no token is needed. The answer carries the new "
        "seat's token, shown only here (tokens are stored only as hashes, so a join is not "
        "replayed by an `Idempotency-Key`). When the last open seat is taken the game starts.",
        request=JoinIn,
        responses={
            201: OpenApiResponse(GameOut, description="The game, the new seat with its token."),
            **docs.problems(400, 404, 409, 413, 415, 422, 429, strategy=True),
        },
        examples=[OpenApiExample("Join as Cleo", value={"name": "Cleo"}, request_only=True)],
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        command = _command(JoinIn, request)
        assert isinstance(command, Join)  # what JoinIn saves
        with ComputerBudget(request) as budget:
            joined = services.game_join(
                game_id=pk, command=command, computers_may_play=budget.check_left
            )
            budget.spend(joined.game.ruleset, joined.computer_moves)
        return _answer(joined, 201)

    def _play(self, request: Request, pk: str, body: type[CommandIn]) -> Response:
        with ComputerBudget(request) as budget:
            played = services.game_play(
                game_id=pk,
                token=request_seat_token(request),
                command=_command(body, request),
                if_match=_if_match(request),
                idempotency_key=_idempotency_key(request),
                computers_may_play=budget.check_left,
            )
            budget.spend(played.game.ruleset, played.computer_moves)
        return _answer(played)


def _command(body: type[CommandIn], request: Request) -> Command:
    """The request's body, validated strictly, as the engine's typed command."""
    given = body(data=request.data)
    given.is_valid(raise_exception=True)
    return given.save()


def _answer(played: services.Played, status: int = 200) -> Response:
    replayed = {"Idempotent-Replayed": "true"} if played.replayed else {}
    return with_etag(render_game(played.game, played.players, played.tokens), status, **replayed)


def _query(request: Request) -> dict[str, Any]:
    """The query string as a plain dict; a repeated parameter keeps all its values (a
    list, which no single-valued field accepts), so that it is refused, not half-read."""
    return {
        name: values[0] if len(values) == 1 else values
        for name, values in request.query_params.lists()
    }


def not_modified(tag: int) -> Response:
    return Response(status=304, headers={"ETag": f'"{tag}"'})


def _unchanged(request: Request, tag: int) -> bool:
    """Whether ``If-None-Match`` names the current tag (or ``*``)."""
    header = request.headers.get("If-None-Match")
    if header is None:
        return False
    for candidate in header.split(","):
        match = ETAG_RE.match(candidate)
        if candidate.strip() == "*" or (match and int(match.group(1)) == tag):
            return True
    return False


def _if_match(request: Request) -> int | None:
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    match = ETAG_RE.match(header)
    return int(match.group(1)) if match else -1  # -1 never matches a version: 412


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 255:
        raise ValidationError({"Idempotency-Key": ["must be 1 to 255 characters"]})
    return key
