"""No table grows without end: the worker prunes deliveries that ended more than 30 days ago
and idempotency records older than a day, and keeps everything younger or still running."""

import datetime as dt

from django.utils import timezone

from games.models import Delivery, IdempotencyRecord, Webhook
from games.work import housekeeping
from tests.classrooms.conftest import ClassApi


def test_old_deliveries_and_idempotency_records_are_pruned(api):
    game = api.create(("Ann",))
    api.ok(game, "roll", HTTP_IDEMPOTENCY_KEY="old")
    api.ok(game, "roll", HTTP_IDEMPOTENCY_KEY="new")
    IdempotencyRecord.objects.filter(key="old").update(
        created_at=timezone.now() - dt.timedelta(hours=25)
    )
    classes = ClassApi(api.client)
    room = classes.open()
    from games.models import ApiKey

    hook = Webhook.objects.create(
        api_key=ApiKey.objects.get(classroom_id=room.id), url="https://example.com/", secret="s"
    )
    month_ago = timezone.now() - dt.timedelta(days=31)
    for status in ("delivered", "failed", "retrying", "delivered"):
        Delivery.objects.create(webhook=hook, event="game.finished", payload={}, status=status)
    Delivery.objects.exclude(pk=Delivery.objects.order_by("-created_at").first().pk).update(
        created_at=month_ago
    )
    pruned = housekeeping.prune()
    assert pruned == {"deliveries": 2, "idempotency_records": 1}
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    # Kept: the recent delivery, and the old one still being tried.
    assert sorted(Delivery.objects.values_list("status", flat=True)) == ["delivered", "retrying"]
    assert housekeeping.prune() == {"deliveries": 0, "idempotency_records": 0}
