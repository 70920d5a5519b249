"""What the service counts for its operators, in Prometheus' terms (``GET /metrics``).

Every process of an instance counts its own work: the server's workers and the task
workers. Where ``PROMETHEUS_MULTIPROC_DIR`` names a folder (``make run`` and compose set it,
and empty it when the instance starts), each process keeps its figures there and ``/metrics``
adds them up; without it, a process shows only its own. Queue figures are read from the
database when ``/metrics`` is read (``games.api.operations.metrics``).
"""

from prometheus_client import Counter, Gauge, Histogram, values

from games.observe.processes import process_name
from scoring import RULESETS

# Each process's files are named by its host and PID (``games.observe.processes``); set
# before any figure is made.
if values.get_value_class() is not values.MutexValue:
    values.ValueClass = values.MultiProcessValue(process_identifier=process_name)

REQUESTS = Counter(
    "dice_http_requests_total", "HTTP requests answered, by route, method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "dice_http_request_duration_seconds", "Time to answer an HTTP request, by route.",
    ["route"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
MOVES = Counter("dice_moves_total", "Moves played (computers' and clocks' too), by ruleset.",
                ["ruleset"])
OPEN_STREAMS = Gauge("dice_open_streams", "Live event streams open now.",
                     multiprocess_mode="livesum")
WEBHOOK_DELIVERIES = Counter(
    "dice_webhook_attempts_total", "Webhook delivery attempts, by outcome.", ["outcome"]
)
CLOCK_TIMEOUTS = Counter("dice_clock_timeouts_total", "Turns a clock played for a seat.")
PLAYS = Counter(
    "dice_plays_total",
    "Commands played on a game, by how the game was had: as this process kept it (kept), "
    "read under its lock (read), or kept and then read again (read_again).",
    ["path"],
)
# The paths, each bound once: a move counts itself without looking its label up.
PLAYED_KEPT, PLAYED_READ, PLAYED_READ_AGAIN = (
    PLAYS.labels(path) for path in ("kept", "read", "read_again")
)
WORK_FAILURES = Counter(
    "dice_work_failures_total",
    "Pieces of work outside requests that failed (each is tried again), by kind.", ["kind"],
)

# The kinds of work outside requests, and what can come of a webhook attempt.
WORK_KINDS = ("clock", "closing", "tournament", "figures", "delivery")
WEBHOOK_OUTCOMES = ("delivered", "refused", "unanswered", "failed")

# Every labelled family shows from the start, each known label value at 0, so that a rate
# or an alert works before the first event.
for _ruleset in RULESETS:
    MOVES.labels(_ruleset)
for _outcome in WEBHOOK_OUTCOMES:
    WEBHOOK_DELIVERIES.labels(_outcome)
for _kind in WORK_KINDS:
    WORK_FAILURES.labels(_kind)
