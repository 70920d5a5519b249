"""What the worker removes, so that no table grows without end: deliveries that ended
(delivered or failed) more than 30 days ago, and idempotency records older than a day (a
client retries a move within minutes; each record holds a snapshot of its game).

Rows go in batches, each its own short statement, so that pruning a large backlog holds no
lock for long; every worker prunes now and then, which is harmless when several do.
"""

import datetime as dt

from django.db import models
from django.db.models.functions import Now

from games.models import Delivery, IdempotencyRecord

DELIVERIES_KEPT = dt.timedelta(days=30)
IDEMPOTENCY_KEPT = dt.timedelta(hours=24)
BATCH = 1000


def prune() -> dict[str, int]:
    """Removes what is past keeping; answers how many rows of each kind went."""
    ended = Delivery.objects.exclude(status=Delivery.Status.RETRYING)
    return {
        "deliveries": _delete(ended.filter(created_at__lt=Now() - DELIVERIES_KEPT)),
        "idempotency_records": _delete(
            IdempotencyRecord.objects.filter(created_at__lt=Now() - IDEMPOTENCY_KEPT)
        ),
    }


def _delete(rows: models.QuerySet) -> int:
    deleted = 0
    while True:
        batch = list(rows.values_list("pk", flat=True)[:BATCH])
        if not batch:
            return deleted
        deleted += rows.model.objects.filter(pk__in=batch).delete()[0]
        if len(batch) < BATCH:
            return deleted
