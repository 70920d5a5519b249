"""``GET /metrics``: the service's figures in Prometheus' text format, for operators only:
with ``Authorization: Bearer <METRICS_TOKEN>``; without the setting the path does not exist.
A wrong token is a failed credential of the address, as a wrong API key is: past
``THROTTLE_FAILURES`` its requests carrying a token get 429, the right token too, until the
window ends (``games.http.limits``).

The counters are every process's of the instance (``games.observe.metrics``); the figures
of the work due are read from the database now.
"""

import os
from collections.abc import Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.multiprocess import MultiProcessCollector

from games.db.clock import db_now
from games.http.api_keys import locked_out
from games.http.limits import failure_record
from games.http.permissions import Operator
from games.http.problems import problem_response
from games.http.translation import localized
from games.observe.metrics import WORK_KINDS
from games.play.errors import ServiceCode
from games.work.queue import work_due


class WorkQueue:
    """The work outside requests that is due and not done yet, per kind: how much, and how
    long the longest due has waited (from when it fell due, by the database's clock); and
    deliveries whose worker's lease ran out (the worker died) before they were taken again."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = db_now()
        due = work_due(now)
        depth = GaugeMetricFamily(
            "dice_task_queue_depth", "Work due and not done yet, by kind.", labels=["kind"]
        )
        age = GaugeMetricFamily(
            "dice_task_queue_oldest_seconds",
            "How long the longest due piece of work has waited since it fell due, by kind.",
            labels=["kind"],
        )
        stalled = GaugeMetricFamily(
            "dice_task_stalled",
            "Work taken by a worker that died (its lease ran out), not yet taken again.",
            labels=["kind"],
        )
        for kind in WORK_KINDS:
            found = due[kind]
            depth.add_metric([kind], found["count"])
            since = found["since"]
            age.add_metric([kind], max((now - since).total_seconds(), 0.0) if since else 0.0)
            # A clock's, a closing's or a game's figures' work holds its row's lock, which a
            # dead worker's connection gives up: only a delivery's lease outlives its worker.
            stalled.add_metric([kind], found.get("stalled", 0))
        yield depth
        yield age
        yield stalled


@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        return problem_response(
            ServiceCode.NOT_FOUND, gettext("nothing at {path}").format(path=request.path)
        )
    given = request.META.get("HTTP_AUTHORIZATION")
    if given is not None and (refused := locked_out(request)) is not None:
        return refused
    operator = Operator()
    if not operator.has_permission(request, None):
        if given is not None:
            failure_record(request)
        refused = problem_response(operator.code, localized(operator.message))
        refused["WWW-Authenticate"] = "Bearer"
        return refused
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        counted = CollectorRegistry()
        MultiProcessCollector(counted)
    else:
        counted = REGISTRY
    queue = CollectorRegistry()
    queue.register(WorkQueue())
    return HttpResponse(
        generate_latest(counted) + generate_latest(queue), content_type=CONTENT_TYPE_LATEST
    )
