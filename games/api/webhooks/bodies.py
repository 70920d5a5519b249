"""A webhook and its deliveries, as answered."""

from typing import Annotated, TypedDict

from games.api.schema.shapes import Choice, DateTime, Url, Uuid, iso_time, serializer_for
from games.hooks import services
from games.models import Delivery, Webhook

DELIVERY_STATUSES = ["delivered", "retrying", "failed"]


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
