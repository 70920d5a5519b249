"""Receivers that cannot hold anyone up: an attempt has five seconds in all, a name that
does not resolve for now is tried again, a key holds at most 20 webhooks, a delivery taken by
a worker that died is taken again, and receivers that never answer delay nobody else's."""

import socket
import threading
import time

import pytest
from django.utils import timezone

from games.hooks import sending
from games.models import Delivery, Webhook
from games.work.deliveries import Deliveries
from tests.classrooms.conftest import ClassApi
from tests.webhook_receiver import Bare, Receiver

from .conftest import assert_problem, run_due_work
from .test_webhooks import register


@pytest.fixture
def classes(db: None, settings) -> ClassApi:
    from rest_framework.test import APIClient

    settings.WEBHOOK_ALLOW_PRIVATE = True
    return ClassApi(APIClient())


class Slow(Bare):
    """A receiver that answers 200 only after ``delay`` seconds, or sends its headers at once
    and then trickles its body a byte at a time (``trickle``)."""

    def __init__(self, *, delay: float = 0.0, trickle: float = 0.0) -> None:
        self.delay, self.trickle = delay, trickle
        super().__init__()

    def answer(self, conn: socket.socket, number: int) -> None:
        time.sleep(self.delay)
        if not self.trickle:
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            return
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n")
        for _ in range(20):
            time.sleep(self.trickle)
            conn.sendall(b"x")


def a_student_with_a_webhook(classes: ClassApi, url: str) -> str:
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    assert register(classes, key, url, ["turn.started"]).status_code == 201
    return key


@pytest.mark.parametrize("receiver", [{"delay": 1.5}, {"trickle": 0.1}], ids=["late", "trickle"])
def test_an_answer_after_the_time_of_an_attempt_is_no_answer(classes, monkeypatch, receiver):
    monkeypatch.setattr(sending, "TIMEOUT_SECONDS", 1)
    slow = Slow(**receiver)
    try:
        key = a_student_with_a_webhook(classes, slow.url)
        classes.create_with(key, ("Ann",))
        started = time.monotonic()
        run_due_work()
        assert time.monotonic() - started < 1.8  # the attempt was given up at its time
        delivery = Delivery.objects.get()
        assert slow.count == 1
        assert (delivery.status, delivery.attempts, delivery.last_status_code) == (
            "retrying", 1, None
        )
    finally:
        slow.close()


def test_a_name_that_does_not_resolve_for_now_is_tried_again(classes, monkeypatch):
    receiver = Receiver()
    try:
        key = a_student_with_a_webhook(classes, receiver.url.replace("127.0.0.1", "localhost"))
        classes.create_with(key, ("Ann",))

        async def no_answer(self, host, port=0, family=socket.AF_INET):
            raise OSError(socket.EAI_AGAIN, "Temporary failure in name resolution")

        real = sending.PublicResolver.resolve
        monkeypatch.setattr(sending.PublicResolver, "resolve", no_answer)
        run_due_work()
        delivery = Delivery.objects.get()
        assert (delivery.status, delivery.attempts) == ("retrying", 1)
        monkeypatch.setattr(sending.PublicResolver, "resolve", real)
        Delivery.objects.update(next_attempt_at=timezone.now())
        run_due_work()
        assert Delivery.objects.get().status == "delivered" and len(receiver.received) == 1
    finally:
        receiver.close()


def test_a_registration_waits_a_few_seconds_at_most_for_its_name(classes, monkeypatch):
    monkeypatch.setattr(sending, "LOOKUP_SECONDS", 0.3)
    monkeypatch.setattr(sending.socket, "getaddrinfo", lambda *a, **k: time.sleep(2))
    room = classes.open()
    started = time.monotonic()
    refused = register(classes, room.teacher_key, "https://slow.example/hook", ["game.finished"])
    assert time.monotonic() - started < 1.5
    assert_problem(refused, 400, "url_not_allowed")
    assert not Webhook.objects.exists()


def test_a_key_holds_at_most_twenty_webhooks(classes):
    receiver = Receiver()
    try:
        room = classes.open()
        for _ in range(20):
            assert register(classes, room.teacher_key, receiver.url, ["game.finished"]
                            ).status_code == 201
        refused = register(classes, room.teacher_key, receiver.url, ["game.finished"])
        assert_problem(refused, 400, "too_many_webhooks")
        assert Webhook.objects.count() == 20
        other = classes.join(room, "Ann")["api_key"]  # another key has its own twenty
        assert register(classes, other, receiver.url, ["turn.started"]).status_code == 201
    finally:
        receiver.close()


def test_a_delivery_whose_worker_died_is_taken_again_under_the_same_id(classes):
    receiver = Receiver()
    try:
        key = a_student_with_a_webhook(classes, receiver.url)
        classes.create_with(key, ("Ann",))
        (dead,) = sending.deliveries_take(limit=10, per_webhook=10)  # then the worker dies
        assert sending.deliveries_take(limit=10, per_webhook=10) == []  # held by its lease
        Delivery.objects.update(next_attempt_at=timezone.now())  # the lease runs out
        run_due_work()
        delivery = Delivery.objects.get()
        assert delivery.status == "delivered" and delivery.attempts == 1
        # The dead worker's attempt, written late, is not written at all.
        assert sending.delivery_record(dead, sending.Outcome(code=500)) is None
        delivery.refresh_from_db()
        assert delivery.status == "delivered" and delivery.attempts == 1
        assert receiver.received[0].headers["webhook-id"] == f"msg_{delivery.id.hex}"
    finally:
        receiver.close()


def test_one_receivers_backlog_takes_only_its_share_of_the_attempts(classes):
    hanging, healthy = Receiver(), Receiver()
    try:
        room = classes.open()
        keys = [classes.join(room, name)["api_key"] for name in ("Ann", "Ben")]
        register(classes, keys[0], hanging.url, ["turn.started"])
        register(classes, keys[1], healthy.url, ["turn.started"])
        for _ in range(10):
            classes.create_with(keys[0], ("Ann",))
        classes.create_with(keys[1], ("Ben",))
        taken = sending.deliveries_take(limit=6, per_webhook=4)
        by_url = [t.url for t in taken]
        assert by_url.count(hanging.url) == 4 and by_url.count(healthy.url) == 1
    finally:
        hanging.close()
        healthy.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_receivers_that_never_answer_delay_no_other_receivers_first_attempt(settings):
    """Thirty receivers that accept and never answer, with two events each, are being tried
    when a healthy receiver's event comes: it is sent within a second."""
    from rest_framework.test import APIClient

    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.THROTTLE_RATES = {}
    classes = ClassApi(APIClient())
    silent = socket.create_server(("127.0.0.1", 0), backlog=200)  # accepts, never answers
    healthy = Receiver()
    stop = threading.Event()
    worker = Deliveries(stop, interval=0.1, most=100, per_webhook=2)
    try:
        room = classes.open()
        hanging_keys = []
        for index in range(3):
            key = classes.join(room, f"S{index}")["api_key"]
            for _ in range(10):
                url = f"http://127.0.0.1:{silent.getsockname()[1]}/hook"
                assert register(classes, key, url, ["turn.started"]).status_code == 201
            hanging_keys.append(key)
        for key in hanging_keys:
            for _ in range(2):
                classes.create_with(key, ("x",))
        worker.start()
        time.sleep(0.5)  # the silent receivers' attempts are in flight
        ok_key = classes.join(room, "Ok")["api_key"]
        register(classes, ok_key, healthy.url, ["turn.started"])
        sent = time.monotonic()
        classes.create_with(ok_key, ("Ok",))
        while not healthy.received and time.monotonic() - sent < 5:
            time.sleep(0.05)
        assert healthy.received, "the healthy receiver's first attempt waited"
        assert time.monotonic() - sent < 1.5
    finally:
        stop.set()
        worker.join(timeout=10)
        silent.close()
        healthy.close()
        Delivery.objects.all().delete()
