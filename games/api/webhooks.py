"""Webhooks over HTTP (API.md, "Webhooks"): thin views over ``games.hooks.services``. Every
path needs an API key (`X-API-Key`): a webhook belongs to the key that registered it."""

import uuid
from typing import Annotated, TypedDict

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.render import iso_time
from games.api.schema import docs
from games.api.schema.shapes import Choice, DateTime, Url, Uuid, serializer_for
from games.hooks import services
from games.http.auth import ApiKeyAuthentication, request_caller
from games.http.strict import StrictSerializer
from games.models import Delivery, Webhook

DELIVERY_STATUSES = ["delivered", "retrying", "failed"]
EVENT_NOTES = (
    "`turn.started`: a seat of this key's games is to move (`{game, seat, version, "
    "deadline}`); `game.finished` (`{game, totals, winners}`); `assignment.closed` "
    "(`{classroom, assignment}`, a teacher's key only). A student's key covers the "
    "student's games; a teacher's key, every game of the classroom's students."
)


class WebhookIn(StrictSerializer):
    url = serializers.URLField(
        max_length=2000, help_text="Where to POST each event: http:// or https://, a public host."
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(services.EVENTS)),
        min_length=1, max_length=len(services.EVENTS), help_text=EVENT_NOTES,
    )


class WebhookBody(TypedDict):
    id: Uuid
    url: Url
    events: list[Annotated[str, Choice(services.EVENTS)]]
    created_at: DateTime


class WebhookCreatedBody(WebhookBody):
    secret: Annotated[
        str, "`whsec_<base64>`: verifies each delivery's signature. Shown only here."
    ]


class DeliveryBody(TypedDict):
    id: Annotated[Uuid, "The delivery; its `webhook-id` header is `msg_` and its hex."]
    event: Annotated[str, Choice(services.EVENTS)]
    attempts: int
    status: Annotated[str, Choice(DELIVERY_STATUSES)]
    last_status_code: Annotated[int | None, "The receiver's last answer; null for none."]
    next_attempt_at: DateTime | None
    created_at: DateTime


WebhookOut = serializer_for(WebhookBody)
WebhookCreatedOut = serializer_for(WebhookCreatedBody)
DeliveryOut = serializer_for(DeliveryBody)
KEY_ERRORS = {
    **docs.problems(404, 429),
    (401, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
        "(`invalid_api_key`).",
    ),
}


def render_webhook(webhook: Webhook) -> WebhookBody:
    return {"id": str(webhook.id), "url": webhook.url, "events": list(webhook.events),
            "created_at": iso_time(webhook.created_at)}


def render_delivery(delivery: Delivery) -> DeliveryBody:
    return {
        "id": str(delivery.id),
        "event": delivery.event,
        "attempts": delivery.attempts,
        "status": delivery.status,
        "last_status_code": delivery.last_status_code,
        "next_attempt_at": iso_time(delivery.next_attempt_at) if delivery.next_attempt_at
        else None,
        "created_at": iso_time(delivery.created_at),
    }


class KeyView(APIView):
    authentication_classes = [ApiKeyAuthentication]

    @staticmethod
    def key_id(request: Request) -> int | None:
        caller = request_caller(request)
        return caller.key_id if caller is not None else None


class WebhooksView(KeyView):
    @extend_schema(
        summary="Register a webhook",
        description="Each event is POSTed to `url` as Standard Webhooks specify: `{type, "
        "timestamp, data}` with the headers `webhook-id`, `webhook-timestamp` and "
        "`webhook-signature`, signed with the secret shown only in this answer; a 2xx within "
        "5 seconds delivers it (the whole attempt, name lookup to the answer's last byte, "
        "within those 5 seconds), anything else is tried again with growing waits for 31 "
        "hours. A host that resolves to a non-public address, or does not resolve within 3 "
        "seconds, is refused (`400 url_not_allowed`); at each delivery it is resolved and "
        "checked again. A key holds at most 20 webhooks (`400 too_many_webhooks`). "
        + EVENT_NOTES,
        request=WebhookIn,
        responses={201: WebhookCreatedOut, **KEY_ERRORS, **docs.problems(400, 413, 415)},
        examples=[OpenApiExample("Tell my bot", request_only=True, value={
            "url": "https://bot.example.org/hooks/dice", "events": ["turn.started"],
        })],
    )
    def post(self, request: Request) -> Response:
        given = WebhookIn(data=request.data)
        given.is_valid(raise_exception=True)
        webhook = services.webhook_register(key_id=self.key_id(request), **given.validated_data)
        body: WebhookCreatedBody = {**render_webhook(webhook), "secret": webhook.secret}
        return Response(body, status=201)

    @extend_schema(
        operation_id="webhooks_list",
        summary="This key's webhooks",
        responses={200: WebhookOut(many=True), **KEY_ERRORS},
    )
    def get(self, request: Request) -> Response:
        found = services.webhooks_of(key_id=self.key_id(request))
        return Response([render_webhook(webhook) for webhook in found])


class WebhookView(KeyView):
    @extend_schema(summary="Delete a webhook", responses={204: None, **KEY_ERRORS})
    def delete(self, request: Request, pk: uuid.UUID) -> Response:
        services.webhook_delete(key_id=self.key_id(request), webhook_id=pk)
        return Response(status=204)


class DeliveriesView(KeyView):
    @extend_schema(
        summary="A webhook's deliveries",
        description="The latest 100, newest first.",
        responses={200: DeliveryOut(many=True), **KEY_ERRORS},
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        found = services.deliveries_of(key_id=self.key_id(request), webhook_id=pk)
        return Response([render_delivery(d) for d in found])
