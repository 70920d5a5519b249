"""Rate limits in the real service: gunicorn with two worker processes that keep being
replaced (``--max-requests``), so that successive requests meet processes with nothing in
memory; one limit must still hold for them all, in Redis or in the database cache."""

import io
import json
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.conftest import REDIS, TEST_REDIS_URL

from .service import (
    LiveService,
    gunicorn_command,
    manage,
    service_env,
    serving,
    throwaway_database,
)

pytestmark = pytest.mark.live
LIMIT = 12


def _serve(
    folder: Path, cache: str, settings: dict[str, str], *, max_requests: int = 0,
    servers: int = 1,
) -> Iterator[list[LiveService]]:
    """``servers`` gunicorn servers (two workers each) on one fresh database and cache."""
    with throwaway_database(folder) as database_url:
        if cache == "redis":
            settings = {
                **settings,
                "REDIS_URL": TEST_REDIS_URL,
                "CACHE_KEY_PREFIX": f"live-{secrets.token_hex(6)}",
            }
        env = service_env(folder, database_url, **settings)
        manage(env, "migrate", "--noinput")

        def command(port: int) -> list[str]:
            return gunicorn_command(port, "--max-requests", str(max_requests))

        with ExitStack() as stack:
            yield [
                stack.enter_context(serving(folder, env, command=command, name=f"server-{n}"))
                for n in range(servers)
            ]


CACHES = [
    pytest.param(
        "redis", marks=pytest.mark.skipif(not REDIS, reason="no Redis on 127.0.0.1:6379")
    ),
    "database",
]


@pytest.fixture(params=CACHES)
def limited_services(request, tmp_path_factory) -> Iterator[list[LiveService]]:
    """Two servers, as two hosts of one deployment would be: four worker processes."""
    folder = tmp_path_factory.mktemp(f"limits-{request.param}")
    # A daily window: the test never straddles its end (but at midnight UTC).
    yield from _serve(
        folder,
        request.param,
        {"THROTTLE_CREATE": f"{LIMIT}/day", "THROTTLE_FAILURES": ""},
        max_requests=4,
        servers=2,
    )


def _create(service: LiveService, forwarded: str) -> tuple[int, str | None]:
    """One create, on a new connection each time: any worker may answer.

    A worker that has served its ``--max-requests`` stops, and a connection it had accepted
    but not yet read is closed (the client sees a reset or a broken pipe): that request never
    reached the service (one being served is finished first), so it is sent again, as a
    client would.
    """
    for attempt in range(3):
        conn = service.connection(timeout=30)
        try:
            body = json.dumps({"ruleset": "yahtzee", "players": [{"name": "Ann"}]})
            conn.request(
                "POST", "/api/v1/games/", body=body,
                headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded},
            )
            answer = conn.getresponse()
            answer.read()
            return answer.status, answer.getheader("Retry-After")
        except ConnectionError:  # reset, broken pipe, or closed before the answer
            if attempt == 2:
                raise
            time.sleep(0.2)
        finally:
            conn.close()
    raise AssertionError("unreachable")


def test_one_limit_holds_across_worker_processes_and_forged_addresses(limited_services):
    answers = [
        _create(limited_services[i % 2], f"198.51.100.{i}, 10.0.{i}.1")
        for i in range(LIMIT + 8)
    ]
    statuses = [status for status, _ in answers]
    assert statuses.count(201) == LIMIT, statuses
    assert statuses.count(429) == 8, statuses
    assert all(int(retry) >= 1 for status, retry in answers if status == 429)
    # Both servers answered, each from its own worker processes.
    for service in limited_services:
        booted = set(re.findall(r"Booting worker with pid: (\d+)", service.log.read_text()))
        assert len(booted) >= 2, service.log_tail()
    assert [status for status, _ in answers[::2]].count(201) >= 1
    assert [status for status, _ in answers[1::2]].count(201) >= 1


@pytest.fixture(scope="module")
def default_service(tmp_path_factory) -> Iterator[LiveService]:
    folder = tmp_path_factory.mktemp("limits-default")
    for services in _serve(folder, "redis" if REDIS else "database", {}):
        yield services[0]


def test_a_bot_plays_back_to_back_under_the_default_limits(default_service):
    out = io.StringIO()
    call_command("play_bot", url=default_service.url, games=8, stdout=out)
    printed = out.getvalue()
    assert "games 8/8" in printed and "refused (429) 0" in printed


@pytest.fixture(params=CACHES)
def keyed_services(request, tmp_path_factory) -> Iterator[list[LiveService]]:
    """Two servers of two workers each, with a small ceiling for an address with keys."""
    folder = tmp_path_factory.mktemp(f"keyed-{request.param}")
    yield from _serve(
        folder,
        request.param,
        {"THROTTLE_CREATE": "3/day", "THROTTLE_KEYED_ADDRESS_FACTOR": "2",
         "THROTTLE_FAILURES": ""},
        servers=2,
    )


def test_one_address_with_many_classrooms_stays_under_its_ceiling(keyed_services):
    keys = []
    for n in range(4):
        status, room = keyed_services[n % 2].call("POST", "/api/v1/classrooms/", {"name": f"R{n}"})
        assert status == 201, room
        raised = keyed_services[n % 2].call(
            "PATCH", f"/api/v1/classrooms/{room['id']}/",
            {"quota": {"games_per_hour": 1_000_000}}, key=room["teacher_key"],
        )
        assert (raised[0], raised[1]["code"]) == (403, "quota_above_default")
        status, joined = keyed_services[n % 2].call(
            "POST", "/api/v1/classrooms/join/", {"join_code": room["join_code"], "name": "Ann"}
        )
        assert status == 201, joined
        keys += [room["teacher_key"], joined["api_key"]]
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    statuses = [
        keyed_services[i % 2].call("POST", "/api/v1/games/", body, key=keys[i % len(keys)])[0]
        for i in range(2 * len(keys))
    ]
    # Each key's own quota (6,000 an hour) is far away: the address's ceiling, 2 x 3 a day,
    # is what stops them, across both servers' worker processes.
    assert statuses.count(201) == 6, statuses
    assert statuses.count(429) == 2 * len(keys) - 6, statuses
