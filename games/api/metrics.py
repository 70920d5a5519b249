"""``GET /metrics``: the service's figures in Prometheus' text format, for operators only:
with ``Authorization: Bearer <METRICS_TOKEN>``; without the setting the path does not exist.
A wrong token is a failed credential of the address, as a wrong API key is: past
``THROTTLE_FAILURES`` its requests carrying a token get 429, the right token too, until the
window ends (``games.http.limits``).

The counters are every process's of the instance (``games.observe.metrics``); the task
queue's figures are read from the database now.
"""

import hmac
import os

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_safe
from django_tasks_db.models import DBTaskResult
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.multiprocess import MultiProcessCollector

from games.http.api_keys import locked_out
from games.http.limits import failure_record
from games.http.problems import problem_response


class TaskQueue:
    """The tasks due and not yet taken by a worker, and how long the oldest has waited."""

    def collect(self):  # noqa: ANN201
        now = timezone.now()
        due = DBTaskResult.objects.ready()
        waiting = due.count()
        times = [run_after for run_after, in due.order_by("run_after").values_list("run_after")[:1]]
        enqueued = due.order_by("enqueued_at").values_list("enqueued_at", flat=True)[:1]
        since = [t for t in [*times, *enqueued] if t is not None and t <= now]
        depth = GaugeMetricFamily("dice_task_queue_depth", "Tasks due, not yet taken.")
        depth.add_metric([], waiting)
        age = GaugeMetricFamily(
            "dice_task_queue_oldest_seconds", "How long the oldest task due has waited."
        )
        age.add_metric([], (now - min(since)).total_seconds() if waiting and since else 0.0)
        yield depth
        yield age


@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        return problem_response("not_found", f"nothing at {request.path}")
    given = request.META.get("HTTP_AUTHORIZATION")
    if given is not None and (refused := locked_out(request)) is not None:
        return refused
    if not hmac.compare_digest((given or "").encode(), f"Bearer {token}".encode()):
        if given is not None:
            failure_record(request)
        refused = problem_response("not_authenticated", "send Authorization: Bearer <token>")
        refused["WWW-Authenticate"] = "Bearer"
        return refused
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        counted = CollectorRegistry()
        MultiProcessCollector(counted)
    else:
        counted = REGISTRY
    queue = CollectorRegistry()
    queue.register(TaskQueue())
    return HttpResponse(
        generate_latest(counted) + generate_latest(queue), content_type=CONTENT_TYPE_LATEST
    )
