"""Webhooks (docs/contract.md, "Webhooks"): registration per API key, events of the key's games sent
by the task worker as Standard Webhooks, signatures checked here by an independent
implementation, retries with growing waits, and private targets refused."""

import base64
import datetime as dt
import hashlib
import hmac

import pytest
from django.utils import timezone

from games.hooks import sending
from games.models import Delivery
from tests.classrooms.conftest import ClassApi
from tests.webhook_receiver import Receiver

from .conftest import assert_problem, run_due_work


@pytest.fixture
def receiver():
    found = Receiver()
    yield found
    found.close()


@pytest.fixture
def private_allowed(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    return settings


@pytest.fixture
def classes(db: None) -> ClassApi:
    from rest_framework.test import APIClient

    return ClassApi(APIClient())


def register(classes, key: str, url: str, events: list[str]):
    return classes.client.post("/api/v1/webhooks/", {"url": url, "events": events},
                               format="json", HTTP_X_API_KEY=key)


def signature_ok(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """The Standard Webhooks signature, computed here from the specification."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.{body.decode()}"
    expected = base64.b64encode(hmac.new(key, signed.encode(), hashlib.sha256).digest()).decode()
    return f"v1,{expected}" in headers["webhook-signature"].split(" ")


def test_a_key_registers_lists_and_deletes_its_webhooks(classes, private_allowed, receiver):
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    response = register(classes, key, receiver.url, ["turn.started", "game.finished"])
    assert response.status_code == 201, response.json()
    hook = response.json()
    assert hook["secret"].startswith("whsec_") and len(base64.b64decode(hook["secret"][6:])) >= 24
    listed = classes.client.get("/api/v1/webhooks/", HTTP_X_API_KEY=key).json()
    assert listed == [{k: hook[k] for k in ("id", "url", "events", "created_at")}]
    other = classes.join(room, "Ben")["api_key"]
    path = f"/api/v1/webhooks/{hook['id']}/"
    assert_problem(classes.client.delete(path, HTTP_X_API_KEY=other), 404, "not_found")
    assert classes.client.delete(path, HTTP_X_API_KEY=key).status_code == 204
    assert classes.client.get("/api/v1/webhooks/", HTTP_X_API_KEY=key).json() == []
    assert_problem(classes.client.get("/api/v1/webhooks/"), 401, "not_authenticated")


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/x", "http://localhost/x", "http://10.1.2.3/x", "http://169.254.169.254/",
     "http://[::1]/x", "http://192.168.0.10/x", "http://no-such-host.invalid/x"],
)
def test_a_private_or_unknown_target_is_refused(classes, url):
    room = classes.open()
    response = register(classes, room.teacher_key, url, ["game.finished"])
    assert_problem(response, 400, "url_not_allowed")
    assert classes.client.get("/api/v1/webhooks/", HTTP_X_API_KEY=room.teacher_key).json() == []


def test_only_a_teachers_key_hears_of_assignments(classes, private_allowed, receiver):
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    assert_problem(register(classes, key, receiver.url, ["assignment.closed"]), 400, "invalid")
    response = register(classes, room.teacher_key, receiver.url, ["assignment.closed"])
    assert response.status_code == 201


def test_events_of_a_students_game_are_delivered_signed(classes, private_allowed, receiver):
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    hook = register(classes, key, receiver.url, ["turn.started", "game.finished"]).json()
    teacher = register(classes, room.teacher_key, receiver.url, ["game.finished"]).json()
    game = classes.create_with(key, ("Ann",), ruleset="yatzy").json()
    assert Delivery.objects.filter(webhook_id=hook["id"], attempts=0).count() == 1  # only enqueued
    run_due_work()
    first = receiver.bodies()[0]
    assert first["type"] == "turn.started"
    assert first["data"] == {"game": game["id"], "seat": 0, "version": 1, "deadline": None}
    finished = classes.play_to_the_end(game)
    run_due_work()
    ends = [b for b in receiver.bodies() if b["type"] == "game.finished"]
    assert len(ends) == 2  # the student's webhook and the teacher's
    assert ends[0]["data"] == {"game": game["id"], "totals": [finished["players"][0]["total"]],
                               "winners": [0]}
    secrets = {hook["id"]: hook["secret"], teacher["id"]: teacher["secret"]}
    for request in receiver.received:
        headers, body = request.headers, request.body
        delivery = Delivery.objects.get(pk=headers["webhook-id"].removeprefix("msg_"))
        assert signature_ok(secrets[str(delivery.webhook_id)], headers, body)
        assert abs(int(headers["webhook-timestamp"]) - timezone.now().timestamp()) < 60
    assert Delivery.objects.exclude(status="delivered").count() == 0
    shown = classes.client.get(f"/api/v1/webhooks/{hook['id']}/deliveries/",
                               HTTP_X_API_KEY=key).json()
    assert {d["status"] for d in shown} == {"delivered"} and shown[0]["attempts"] == 1


def test_a_failing_receiver_is_tried_again_with_the_same_id(classes, private_allowed, receiver):
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    register(classes, key, receiver.url, ["turn.started"])
    receiver.statuses = [500, 302]
    classes.create_with(key, ("Ann",))
    run_due_work()
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("retrying", 1, 500)
    wait = delivery.next_attempt_at - timezone.now()
    assert dt.timedelta(seconds=5) < wait <= dt.timedelta(seconds=30)
    for expected_attempts in (2, 3):
        Delivery.objects.filter(status="retrying").update(next_attempt_at=timezone.now())
        run_due_work()
        delivery.refresh_from_db()
        assert delivery.attempts == expected_attempts
    assert delivery.status == "delivered" and delivery.last_status_code == 200
    assert len({request.headers["webhook-id"] for request in receiver.received}) == 1


def test_a_delivery_fails_after_its_last_retry(classes, private_allowed):
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    register(classes, key, "http://127.0.0.1:9/closed", ["turn.started"])  # nobody listens
    classes.create_with(key, ("Ann",))
    run_due_work()
    delivery = Delivery.objects.get()
    assert delivery.status == "retrying" and delivery.last_status_code is None
    waits = [delivery.next_attempt_at - timezone.now()]
    for _ in sending.RETRY_WAITS:
        before = timezone.now()
        Delivery.objects.filter(status="retrying").update(next_attempt_at=before)
        run_due_work()
        delivery.refresh_from_db()
        if delivery.next_attempt_at:
            waits.append(delivery.next_attempt_at - before)
    assert delivery.status == "failed" and delivery.attempts == len(sending.RETRY_WAITS) + 1
    assert waits == sorted(waits)  # growing
    assert sum(sending.RETRY_WAITS, dt.timedelta()) >= dt.timedelta(hours=24)


def test_a_target_pointed_at_a_private_address_later_is_not_sent(classes, settings, receiver):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    register(classes, key, receiver.url, ["turn.started"])
    settings.WEBHOOK_ALLOW_PRIVATE = False  # as if the name now resolved to a private address
    classes.create_with(key, ("Ann",))
    run_due_work()
    assert receiver.received == []
    assert Delivery.objects.get().status == "failed"


def test_a_teacher_hears_that_an_assignment_closed(classes, private_allowed, receiver):
    room = classes.open()
    register(classes, room.teacher_key, receiver.url, ["assignment.closed"])
    work = classes.teacher(f"/api/v1/classrooms/{room.id}/assignments/", room.teacher_key,
                           "post", {"title": "W", "ruleset": "yatzy", "games": 1,
                                    "due_at": (timezone.now() + dt.timedelta(days=1)).isoformat()}
                           ).json()
    from games.models import Assignment

    # A second back: the database's clock, which decides what is due, may read the same
    # moment to the millisecond only (SQLite), which would leave it not due yet.
    Assignment.objects.filter(pk=work["id"]).update(due_at=timezone.now() - dt.timedelta(seconds=1))
    Delivery.objects.filter(status="retrying").update(next_attempt_at=timezone.now())
    run_due_work()
    assert receiver.bodies()[-1]["data"] == {"classroom": room.id, "assignment": work["id"]}


def test_an_operator_sees_deliveries_and_sends_a_failed_one_again(
    classes, private_allowed, receiver, admin_client
):
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    hook = register(classes, key, receiver.url, ["turn.started"]).json()
    classes.create_with(key, ("Ann",))
    Delivery.objects.update(status="failed", attempts=9, next_attempt_at=None)
    page = admin_client.get("/admin/games/delivery/?status=failed").content.decode()
    assert "turn.started" in page and hook["secret"] not in page
    delivery = Delivery.objects.get()
    assert hook["secret"] not in admin_client.get(
        f"/admin/games/webhook/{hook['id']}/change/").content.decode()
    answer = admin_client.post("/admin/games/delivery/", {
        "action": "send_again", "_selected_action": [str(delivery.pk)],
    })
    assert answer.status_code == 302
    run_due_work()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("delivered", 1)
    assert len(receiver.received) == 1
