"""GET /metrics (API.md, "Metrics"): Prometheus' text format for operators holding the
token; the figures follow the work done."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from .conftest import assert_problem, run_due_tasks

TOKEN = "operators-only-token"


@pytest.fixture
def token(settings):  # noqa: ANN001, ANN201
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def figures(api) -> dict[tuple[str, tuple], float]:  # noqa: ANN001
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
    assert after[("dice_task_queue_depth", ())] >= 0
    assert ("dice_task_queue_oldest_seconds", ()) in after
    assert ("dice_open_streams", ()) in after


def test_a_clock_timeout_is_counted(api, token):
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from games.models import Game

    before = figures(api)
    game = api.create(("Ann",), clock={"turn_seconds": 60})
    Game.objects.filter(pk=game["id"]).update(deadline=timezone.now())
    DBTaskResult.objects.update(run_after=timezone.now())
    run_due_tasks()
    after = figures(api)
    assert after[("dice_clock_timeouts_total", ())] - before.get(
        ("dice_clock_timeouts_total", ()), 0
    ) == 1
