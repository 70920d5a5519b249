"""Webhooks over HTTP (docs/contract.md, "Webhooks"): thin views over
``games.hooks.services``. Every path needs an API key (`X-API-Key`): a webhook belongs to
the key that registered it (``KeyHolder``)."""

import uuid

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.schema import docs
from games.api.webhooks.bodies import (
    DeliveryOut,
    WebhookCreatedBody,
    WebhookCreatedOut,
    WebhookOut,
    render_delivery,
    render_webhook,
)
from games.api.webhooks.requests import EVENT_NOTES, WebhookIn
from games.hooks import services
from games.http.auth import ApiKeyAuthentication, permitted_caller
from games.http.permissions import KeyHolder, ProblemRefusals

KEY_ERRORS = {
    **docs.problems(404, 429),
    (401, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
        "(`invalid_api_key`).",
    ),
}


# A path of the key's own webhooks (``KeyHolder``).
class KeyView(ProblemRefusals):
    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [KeyHolder]

    @staticmethod
    def key_id(request: Request) -> int:
        return permitted_caller(request).key_id


class WebhooksView(KeyView):
    def get_permissions(self) -> list[BasePermission]:
        # A registration's body is checked before its key (``post``).
        return [] if self.request.method == "POST" else [KeyHolder()]

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
        self.require(request, KeyHolder())
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
