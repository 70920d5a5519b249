"""The moves of a game over HTTP: the POST actions that change a game through the one
service that plays (``games.play.services.game_play``). Each parses its body strictly into
the engine's command, reads the retry and version headers, and renders the game after the
move. A mixin of ``GameViewSet`` (``views.py``), so that the moves, alike in their schema
and their flow, read together apart from the game's reads."""

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.games.bodies import GameOut, render_game
from games.api.games.conditional import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    idempotency_key,
    if_match,
    with_etag,
)
from games.api.games.requests import (
    BankIn,
    CommandIn,
    HoldIn,
    LeaveIn,
    PassIn,
    RollIn,
    ScoreBoxIn,
    ScratchBoxIn,
    StartIn,
)
from games.api.schema import docs
from games.http.auth import SeatTokenAuthentication, request_seat_token
from games.http.throttles import ComputerBudget
from games.play import services
from scoring.commands import Command

F = TypeVar("F", bound=Callable[..., Any])


def move_schema(
    summary: str, request: Any, description: str, examples: list[OpenApiExample]
) -> Callable[[F], F]:
    """The schema every move shares (its headers, the game as the answer, the refusals a
    move can meet), around what each says of itself."""
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


# The moves, each ``POST /games/{id}/<move>/`` with the seat's token. A comment, not a
# docstring: the schema would show it as the description of every path of GameViewSet.
class MoveActions:
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

    def _play(self, request: Request, pk: str, body: type[CommandIn]) -> Response:
        with ComputerBudget(request) as budget:
            played = services.game_play(
                game_id=pk,
                token=request_seat_token(request),
                command=command_of(body, request),
                if_match=if_match(request),
                idempotency_key=idempotency_key(request),
                computers_may_play=budget.check_left,
            )
            budget.spend(played.game.ruleset, played.computer_moves)
        return answer(played)


def command_of(body: type[CommandIn], request: Request) -> Command:
    """The request's body, validated strictly, as the engine's typed command."""
    given = body(data=request.data)
    given.is_valid(raise_exception=True)
    return given.save()


def answer(played: services.Played, status: int = 200) -> Response:
    """The game after a move or a join, tagged with its version; a replayed retry says so."""
    replayed = {"Idempotent-Replayed": "true"} if played.replayed else {}
    return with_etag(render_game(played.game, played.players, played.tokens), status, **replayed)
