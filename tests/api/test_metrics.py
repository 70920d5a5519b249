"""GET /metrics (docs/contract.md, "Metrics"): Prometheus' text format for operators holding the
token; the figures follow the work done."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from .conftest import assert_problem, run_due_work

TOKEN = "operators-only-token"


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def figures(api) -> dict[tuple[str, tuple], float]:
    response = api.client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_metrics_are_not_found_without_a_token_set(api, settings):
    settings.METRICS_TOKEN = ""
    assert_problem(api.client.get("/metrics"), 404, "not_found")


def test_metrics_need_the_token(api, token):
    assert_problem(api.client.get("/metrics"), 401, "not_authenticated")
    wrong = api.client.get("/metrics", HTTP_AUTHORIZATION="Bearer guess")
    assert_problem(wrong, 401, "not_authenticated")


def test_wrong_metrics_tokens_lock_the_address_out_like_wrong_keys(api, token, settings):
    settings.THROTTLE_RATES = {"failures": "3/minute"}
    for _ in range(2):
        wrong = api.client.get("/metrics", HTTP_AUTHORIZATION="Bearer guess")
        assert_problem(wrong, 401, "not_authenticated")
    # No token at all is no guess: it is not counted.
    assert_problem(api.client.get("/metrics"), 401, "not_authenticated")
    # A wrong API key is the third failure of the same count...
    assert_problem(api.client.get("/api/v1/me/", HTTP_X_API_KEY="dk_wrong"), 401,
                   "invalid_api_key")
    # ...so now the right token is refused too, and so is a key, until the window ends.
    refused = api.client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert_problem(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 61
    assert_problem(api.client.get("/api/v1/me/", HTTP_X_API_KEY="dk_wrong"), 429, "throttled")
    # Another address is not affected.
    other = api.client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}",
                           REMOTE_ADDR="192.0.2.50")
    assert other.status_code == 200


def test_the_figures_follow_the_work_done(api, token):
    before = figures(api)
    game = api.create(("Ann", "Ben"), ruleset="yatzy", clock={"turn_seconds": 60})
    api.ok(game, "roll")
    api.ok(game, "roll", {"hold": [0]})
    api.ok(game, "scratch", {"category": "ones"})
    after = figures(api)

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)

    assert grew("dice_moves_total", ruleset="yatzy") == 3
    assert grew("dice_http_requests_total", route="game-roll", method="POST", status="200") == 2
    assert grew("dice_http_request_duration_seconds_count", route="game-roll") == 2
    assert grew("dice_http_requests_total", route="game-list", method="POST", status="201") == 1
    for kind in ("clock", "closing", "delivery"):
        assert after[("dice_task_queue_depth", (("kind", kind),))] >= 0
        assert ("dice_task_queue_oldest_seconds", (("kind", kind),)) in after
        assert ("dice_task_stalled", (("kind", kind),)) in after
    assert ("dice_open_streams", ()) in after


def test_a_clock_timeout_is_counted(api, token):
    import datetime as dt

    from django.utils import timezone

    from games.models import Game

    before = figures(api)
    game = api.create(("Ann",), clock={"turn_seconds": 60})
    Game.objects.filter(pk=game["id"]).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    run_due_work()
    after = figures(api)
    assert after[("dice_clock_timeouts_total", ())] - before.get(
        ("dice_clock_timeouts_total", ()), 0
    ) == 1


def test_every_family_shows_before_any_event_with_its_known_labels_at_zero(api, token):
    """A rate or an alert works from the start: each ruleset's moves, each webhook outcome,
    each kind of work's failures and queue figures are there before anything happened."""
    shown = figures(api)
    for ruleset in ("yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy", "ten-thousand"):
        assert ("dice_moves_total", (("ruleset", ruleset),)) in shown
    for outcome in ("delivered", "refused", "unanswered", "failed"):
        assert ("dice_webhook_attempts_total", (("outcome", outcome),)) in shown
    for kind in ("clock", "closing", "delivery"):
        assert ("dice_work_failures_total", (("kind", kind),)) in shown
        assert shown[("dice_task_queue_depth", (("kind", kind),))] == 0
        assert shown[("dice_task_stalled", (("kind", kind),))] == 0
    assert ("dice_clock_timeouts_total", ()) in shown
    for path in ("kept", "read", "read_again"):
        assert ("dice_plays_total", (("path", path),)) in shown


def test_waits_count_from_when_work_fell_due_and_stalled_work_apart(api, token):
    import datetime as dt

    from django.utils import timezone

    from games.models import Game

    game = api.create(("Ann",), clock={"turn_seconds": 60})
    Game.objects.filter(pk=game["id"]).update(deadline=timezone.now() - dt.timedelta(seconds=30))
    shown = figures(api)
    assert shown[("dice_task_queue_depth", (("kind", "clock"),))] == 1
    assert 29 <= shown[("dice_task_queue_oldest_seconds", (("kind", "clock"),))] < 40
    run_due_work()
    assert figures(api)[("dice_task_queue_depth", (("kind", "clock"),))] == 0


def test_a_delivery_whose_worker_died_counts_as_stalled(api, token, settings):
    from django.utils import timezone

    from games.models import Delivery
    from tests.api.test_webhook_receivers import a_student_with_a_webhook
    from tests.classrooms.conftest import ClassApi

    settings.WEBHOOK_ALLOW_PRIVATE = True
    classes = ClassApi(api.client)
    a_student_with_a_webhook(classes, "http://127.0.0.1:9/hook")
    Delivery.objects.create(
        webhook_id=Delivery._meta.get_field("webhook").related_model.objects.get().pk,
        event="turn.started", payload={}, next_attempt_at=timezone.now(),
        lease="5f0a3a4e-0000-4000-8000-000000000000",  # taken, and its lease ran out
    )
    shown = figures(api)
    assert shown[("dice_task_stalled", (("kind", "delivery"),))] == 1
    assert shown[("dice_task_queue_depth", (("kind", "delivery"),))] == 1
