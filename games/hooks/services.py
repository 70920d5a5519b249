"""Webhooks: register one for an API key, list, delete and read their deliveries; and the
events that games and assignments emit to them (docs/contract.md, "Webhooks").

Emitting an event only writes its deliveries, due at once, in the transaction of the change
that caused it: a worker's sweep sends them (``games.hooks.sending``), so a slow or dead
receiver never slows a move, and an event is sent exactly when its change is kept.
"""

import base64
import secrets
import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.hooks.sending import NotAllowed, public_address
from games.models import ApiKey, Delivery, Game, Player, Webhook
from games.play.errors import ServiceCode, ServiceError
from scoring import ProblemCode
from scoring.match import GameStatus

EVENTS = ("turn.started", "game.finished", "assignment.closed", "tournament.finished")
TEACHER_EVENTS = {"assignment.closed", "tournament.finished"}
LATEST = 100
# The webhooks one API key may hold.
MOST_PER_KEY = 20
# Where the turn stands: whether a new turn (or a new seat to move) began with a change.
Position = tuple[str, int | None, int | None]


def webhook_register(*, key_id: int, url: str, events: Sequence[str]) -> Webhook:
    """A webhook of the caller's key; its secret signs every delivery (shown only now). A
    key holds at most ``MOST_PER_KEY``."""
    key = _key_of(key_id)
    teacher_only = sorted(set(events) & TEACHER_EVENTS)
    if teacher_only and key.role != ApiKey.Role.TEACHER:
        raise ServiceError(
            ProblemCode.INVALID, gettext_noop("only a teacher's key receives {event}"),
            field="events", event=teacher_only[0],
        )
    try:
        public_address(url)
    except NotAllowed as refused:
        raise ServiceError(
            ServiceCode.URL_NOT_ALLOWED, refused.message, field="url", **refused.params
        ) from None
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()
    with transaction.atomic():
        # The key's row is locked, so that registrations racing each other count in turn.
        key = ApiKey.objects.select_for_update().get(pk=key.pk)
        if Webhook.objects.filter(api_key=key).count() >= MOST_PER_KEY:
            raise ServiceError(
                ServiceCode.TOO_MANY_WEBHOOKS,
                gettext_noop(
                    "a key holds at most {most} webhooks: delete one to register another"
                ),
                most=MOST_PER_KEY,
            )
        return Webhook.objects.create(api_key=key, url=url, events=list(dict.fromkeys(events)),
                                      secret=secret)


def webhooks_of(*, key_id: int) -> list[Webhook]:
    return list(Webhook.objects.filter(api_key=_key_of(key_id)).order_by("-created_at"))


def webhook_of(*, key_id: int, webhook_id: uuid.UUID) -> Webhook:
    webhook = Webhook.objects.filter(api_key=_key_of(key_id), pk=webhook_id).first()
    if webhook is None:
        raise ServiceError(
            ServiceCode.NOT_FOUND, gettext_noop("no webhook of this key has this id")
        )
    return webhook


def webhook_delete(*, key_id: int, webhook_id: uuid.UUID) -> None:
    webhook_of(key_id=key_id, webhook_id=webhook_id).delete()


def deliveries_of(*, key_id: int, webhook_id: uuid.UUID) -> list[Delivery]:
    webhook = webhook_of(key_id=key_id, webhook_id=webhook_id)
    return list(webhook.deliveries.order_by("-created_at")[:LATEST])


def deliveries_send_again(*, ids: Sequence[uuid.UUID]) -> int:
    """Deliveries sent again from now on, their retries afresh (an operator's choice, once a
    receiver is back); those in an attempt right now are left to it. Answers how many."""
    return Delivery.objects.filter(pk__in=ids, lease__isnull=True).update(
        status=Delivery.Status.RETRYING, attempts=0, next_attempt_at=Now()
    )


# -- emitting ------------------------------------------------------------------------------


def position(game: Game) -> Position:
    return (game.status, game.state.get("current"), game.state.get("round"))


def game_changed(game: Game, players: Sequence[Player], before: Position | None) -> None:
    """The events of a change to ``game`` (``before``: where it stood; None for a new game)
    for the webhooks of its student's key and its classroom's teacher key. A game created
    without a student's key has no webhook: that costs nothing."""
    if game.student_id is None:
        return
    found: list[tuple[str, dict[str, Any]]] = []
    now = position(game)
    if game.status == GameStatus.ACTIVE and now != before:
        seat = now[1]
        if seat is not None and seat < len(players) and players[seat].computer is None:
            found.append(("turn.started", {
                "game": str(game.id), "seat": seat, "version": game.version,
                "deadline": _iso(game.deadline),
            }))
    if game.status == GameStatus.FINISHED and (before is None or before[0] != game.status):
        view_totals = [player.total for player in players]
        found.append(("game.finished", {
            "game": str(game.id), "totals": view_totals, "winners": list(game.winners),
        }))
    if not found:
        return
    hooks = Webhook.objects.filter(
        Q(api_key__student_id=game.student_id)
        | Q(api_key__role=ApiKey.Role.TEACHER, api_key__classroom_id=game.classroom_id),
        api_key__revoked_at__isnull=True,
    )
    _emit(hooks, found)


def assignment_closed(*, classroom_id: uuid.UUID, assignment_id: uuid.UUID) -> None:
    _emit(_teachers(classroom_id), [("assignment.closed", {
        "classroom": str(classroom_id), "assignment": str(assignment_id),
    })])


def tournament_finished(*, classroom_id: uuid.UUID, tournament_id: uuid.UUID) -> None:
    _emit(_teachers(classroom_id), [("tournament.finished", {
        "classroom": str(classroom_id), "tournament": str(tournament_id),
    })])


def _teachers(classroom_id: uuid.UUID) -> Any:
    """The webhooks of the classroom's teacher key."""
    return Webhook.objects.filter(
        api_key__role=ApiKey.Role.TEACHER, api_key__classroom_id=classroom_id,
        api_key__revoked_at__isnull=True,
    )


def _emit(hooks: Any, found: list[tuple[str, dict[str, Any]]]) -> None:
    moment = timezone.now()
    for hook in hooks:
        for event, data in found:
            if event not in hook.events:
                continue
            payload = {"type": event, "timestamp": _iso(moment), "data": data}
            Delivery.objects.create(
                webhook=hook, event=event, payload=payload, next_attempt_at=Now()
            )


def _key_of(key_id: int) -> ApiKey:
    """The caller's key (the view's permission saw that the request carries one)."""
    return ApiKey.objects.get(pk=key_id)


def _iso(moment: Any) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None
