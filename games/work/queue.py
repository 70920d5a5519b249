"""What work is due and not done yet, read for ``GET /metrics``: the same rows the sweeps
take their work from (a clock's game, a closing's assignment, a tournament's next step, a
finished student or tournament game without its figures, a delivery to try again), counted
in one query per kind."""

import datetime as dt
from typing import Any

from django.db.models import Count, Min, Q

from games.models import Assignment, Delivery, Game, Tournament
from scoring.match import GameStatus


def work_due(now: dt.datetime) -> dict[str, dict[str, Any]]:
    """Per kind (``games.observe.metrics.WORK_KINDS``): ``count``, the pieces due at ``now``
    (the database's clock), and ``since``, when the longest waiting fell due (None if none);
    deliveries add ``stalled``, those whose worker's lease ran out before they were done."""
    return {
        "clock": Game.objects.filter(deadline__lte=now, status=GameStatus.ACTIVE).aggregate(
            count=Count("pk"), since=Min("deadline")
        ),
        "closing": Assignment.objects.filter(closed_at__isnull=True, due_at__lte=now).aggregate(
            count=Count("pk"), since=Min("due_at")
        ),
        "tournament": Tournament.objects.filter(
            status__in=(Tournament.Status.SCHEDULED, Tournament.Status.RUNNING),
            next_step_at__lte=now,
        ).aggregate(count=Count("pk"), since=Min("next_step_at")),
        "figures": Game.objects.filter(
            Q(student__isnull=False) | Q(tournament__isnull=False),
            status=GameStatus.FINISHED, figures_kept=False,
        ).aggregate(count=Count("pk"), since=Min("finished_at")),
        "delivery": Delivery.objects.filter(
            status=Delivery.Status.RETRYING, next_attempt_at__lte=now
        ).aggregate(
            count=Count("pk"),
            since=Min("next_attempt_at"),
            stalled=Count("pk", filter=Q(lease__isnull=False)),
        ),
    }
