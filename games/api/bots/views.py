"""Bots over HTTP (docs/contract.md, "Bots and the key's own stream"): thin views over
``games.arena.registry``. Every path needs an API key of a classroom (``KeyHolder``): a bot
belongs to the key's owner, a student or the teacher."""

import uuid

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.bots.bodies import BotOut, render_bot
from games.api.bots.requests import BotChangeIn, BotIn
from games.api.schema import docs
from games.arena import registry
from games.http.auth import ApiKeyAuthentication, permitted_caller
from games.http.permissions import KeyHolder, ProblemRefusals

KEY_ERRORS = {
    **docs.problems(429),
    (401, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
        "(`invalid_api_key`).",
    ),
}
NOT_YOURS = {
    (404, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No live bot with this id that the key's owner (or the classroom's "
        "teacher) manages (`not_found`).",
    ),
}
NAME_TAKEN = "`409 name_taken`: another live bot of the classroom has this name."
BOT_EXAMPLE = {
    "id": "5d6c0a1e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", "name": "Gus",
    "rulesets": ["yahtzee", "ten-thousand"],
    "owner": {"classroom": "7e1d2c3b-4a5f-4e6d-9c8b-7a6f5e4d3c2b",
              "student": "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"},
    "created_at": "2026-11-21T10:00:00Z",
}


class BotKeyView(ProblemRefusals):
    """A path of the key's owner's bots (``KeyHolder``)."""

    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [KeyHolder]


class BotsView(BotKeyView):
    def get_permissions(self) -> list[BasePermission]:
        # A registration's body is checked before its key (``post``).
        return [] if self.request.method == "POST" else [KeyHolder()]

    @extend_schema(
        summary="Register a bot",
        description="A bot of the key's owner (a student, or the teacher) in its classroom: "
        "it takes seats in games of its `rulesets` (`POST /games/` with a player `{\"bot\": "
        "id}`, or a join with `{\"bot\": id}`), and the owner's stream (`GET /me/stream/`) "
        f"gives each seat's token. {NAME_TAKEN} One key registers at most 10 live bots "
        "(`409 too_many_bots`).",
        request=BotIn,
        responses={
            201: BotOut, **KEY_ERRORS, **docs.problems(400, 409, 413, 415),
        },
        examples=[
            OpenApiExample("Gus", request_only=True,
                           value={"name": "Gus", "rulesets": ["yahtzee", "ten-thousand"]}),
            OpenApiExample("Registered", response_only=True, status_codes=["201"],
                           value=BOT_EXAMPLE),
        ],
    )
    def post(self, request: Request) -> Response:
        given = BotIn(data=request.data)
        given.is_valid(raise_exception=True)
        self.require(request, KeyHolder())
        bot = registry.bot_register(caller=permitted_caller(request), **given.validated_data)
        return Response(render_bot(bot), status=201, headers={
            "Location": f"/api/v1/bots/{bot.id}/",
        })

    @extend_schema(
        operation_id="bots_list",
        summary="This key's bots",
        description="The live bots of the key's owner, oldest first; a teacher's key: every "
        "live bot of the classroom.",
        responses={200: BotOut(many=True), **KEY_ERRORS},
    )
    def get(self, request: Request) -> Response:
        found = registry.bots_of(caller=permitted_caller(request))
        return Response([render_bot(bot) for bot in found])


class BotView(BotKeyView):
    @extend_schema(
        operation_id="bots_retrieve",
        summary="A bot",
        responses={200: BotOut, **KEY_ERRORS, **NOT_YOURS},
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        return Response(render_bot(registry.bot_of(caller=permitted_caller(request), bot_id=pk)))

    @extend_schema(
        summary="Rename a bot or change its rulesets",
        description=f"Its owner or the teacher. {NAME_TAKEN} Seats it holds keep their names.",
        request=BotChangeIn,
        responses={200: BotOut, **KEY_ERRORS, **NOT_YOURS, **docs.problems(400, 409, 413, 415)},
        examples=[OpenApiExample("Yatzy too", request_only=True,
                                 value={"rulesets": ["yahtzee", "yatzy"]})],
    )
    def patch(self, request: Request, pk: uuid.UUID) -> Response:
        given = BotChangeIn(data=request.data)
        given.is_valid(raise_exception=True)
        bot = registry.bot_update(
            caller=permitted_caller(request), bot_id=pk, **given.validated_data
        )
        return Response(render_bot(bot))

    @extend_schema(
        summary="Delete a bot",
        description="Its owner or the teacher. It takes no new seat; the games it played keep "
        "it, and its name is free again.",
        responses={204: None, **KEY_ERRORS, **NOT_YOURS},
    )
    def delete(self, request: Request, pk: uuid.UUID) -> Response:
        registry.bot_delete(caller=permitted_caller(request), bot_id=pk)
        return Response(status=204)
