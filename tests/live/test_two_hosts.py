"""Two instances of the service, each a gunicorn with its own task worker, behind a real
HAProxy (Debian's), on one PostgreSQL and one Redis: what one host does, the other sees;
work outside requests is done once; and one host going away loses no acknowledged move.

PostgreSQL only (SQLite is one machine's file), and HAProxy must be installed
(``apt-get install haproxy``; ``.ci/run`` installs it).
"""

import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from tests.conftest import postgres_only
from tests.processes import stop
from tests.webhook_receiver import Receiver

from .service import (
    LiveService,
    free_port,
    gunicorn_command,
    manage,
    service_env,
    serving,
    throwaway_database,
    working,
)
from .test_stream import EventStream

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
pytestmark = [
    postgres_only,
    pytest.mark.skipif(not Path(HAPROXY).exists(),
                       reason="HAProxy not found: apt-get install haproxy"),
]

CONFIG = """
global
    maxconn 512
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout tunnel 1h
    # A health check may take this long (by default it has the 300 ms between checks: on a
    # loaded machine two slow answers in a row marked both hosts down). A host that is gone
    # refuses the connection at once, so it is still found out within two checks.
    timeout check 3s
    retries 3
    option redispatch
frontend front
    bind 127.0.0.1:{port}
    default_backend hosts
backend hosts
    balance roundrobin
    option httpchk GET /api/v1/health/
    http-check expect status 200
    default-server inter 300 fall 2 rise 2
    server a 127.0.0.1:{a} check
    server b 127.0.0.1:{b} check
"""


@dataclass
class Deployment:
    balanced: LiveService
    hosts: dict[str, LiveService]
    stacks: dict[str, ExitStack]

    def stop_host(self, name: str) -> None:
        self.stacks[name].close()


@contextmanager
def deployment(folder: Path) -> Iterator[Deployment]:
    with ExitStack() as outer, throwaway_database(folder) as database_url:
        prefix = f"two-hosts-{uuid.uuid4().hex[:8]}"
        shared = {
            "THROTTLE_CREATE": "", "THROTTLE_MOVES": "", "THROTTLE_ADVICE": "",
            "THROTTLE_CLASSROOMS": "", "THROTTLE_FAILURES": "", "THROTTLE_RECORDS": "",
            "WEBHOOK_ALLOW_PRIVATE": "true",
            "CACHE_KEY_PREFIX": prefix,
        }
        if _redis_answers():
            shared["REDIS_URL"] = "redis://127.0.0.1:6379/0"
        hosts: dict[str, LiveService] = {}
        stacks: dict[str, ExitStack] = {}
        for name in ("a", "b"):
            own = folder / name
            own.mkdir()
            env = service_env(own, database_url, **shared)
            if name == "a":
                manage(env, "migrate", "--noinput")
            stack = ExitStack()
            hosts[name] = stack.enter_context(serving(own, env, command=gunicorn_command))
            stack.enter_context(working(own, env))
            outer.callback(stack.close)
            stacks[name] = stack
        port = free_port()
        config = folder / "haproxy.cfg"
        config.write_text(CONFIG.format(port=port, a=_port(hosts["a"]), b=_port(hosts["b"])))
        with (folder / "haproxy.log").open("wb") as log:
            balancer = subprocess.Popen([HAPROXY, "-f", str(config), "-db"], stdout=log,
                                        stderr=subprocess.STDOUT)
        outer.callback(stop, balancer)
        balanced = LiveService(f"http://127.0.0.1:{port}", folder / "haproxy.log", database_url)
        _wait_for(lambda: balanced.call("GET", "/api/v1/health/")[0] == 200)
        yield Deployment(balanced, hosts, stacks)


def _port(service: LiveService) -> int:
    return int(service.url.rsplit(":", 1)[1])


def _redis_answers() -> bool:
    try:
        return bool(redis.Redis(host="127.0.0.1", port=6379, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def _wait_for(check, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("not within the time allowed")


def test_two_hosts_behind_a_load_balancer(tmp_path: Path) -> None:
    receiver = Receiver(statuses=[500])  # the first delivery is refused, then all taken
    with deployment(tmp_path) as deployed:
        lb, a, b = deployed.balanced, deployed.hosts["a"], deployed.hosts["b"]

        # A clock, set now, fires once though both hosts' workers watch the queue.
        _, clocked = lb.call("POST", "/api/v1/games/", {
            "ruleset": "yatzy", "players": [{"name": "Ann"}, {"name": "Ben"}],
            "clock": {"turn_seconds": 10},
        })

        # A webhook: each event delivered once, its first attempt refused and retried.
        _, room = lb.call("POST", "/api/v1/classrooms/", {"name": "5B"})
        _, joined = lb.call("POST", "/api/v1/classrooms/join/",
                            {"join_code": room["join_code"], "name": "Ann"})
        key = joined["api_key"]
        status, hook = lb.call("POST", "/api/v1/webhooks/",
                               {"url": receiver.url, "events": ["turn.started"]}, key=key)
        assert status == 201, hook

        # A stream opened on one host gets the moves made through the other.
        _, game = lb.call("POST", "/api/v1/games/", {
            "ruleset": "yahtzee", "players": [{"name": "Ann"}],
        }, key=key)
        token = game["players"][0]["token"]
        with EventStream(a, game["id"]) as stream:
            assert stream.next_event().event == "created"
            status, _ = b.call("POST", f"/api/v1/games/{game['id']}/roll/", {}, token=token)
            assert status == 200
            assert stream.next_event(timeout=5).event == "rolled"

        # One host goes away mid-game: every acknowledged move is kept, and the game goes
        # on through the other.
        acknowledged = 1  # the roll above
        moves = [("score", {"category": "chance"})] + [("roll", {}), ("scratch", None)] * 4
        for index, (action, body) in enumerate(moves):
            if index == 3:
                deployed.stop_host("a")
            if action == "scratch":
                _, shown = lb.call("GET", f"/api/v1/games/{game['id']}/")
                body = {"category": next(iter(shown["choices"]))}
            status, _ = lb.call("POST", f"/api/v1/games/{game['id']}/{action}/", body,
                                token=token)
            acknowledged += status == 200
        _, log = lb.call("GET", f"/api/v1/games/{game['id']}/events/")
        kept = [e for e in log if e["type"] in ("rolled", "scored", "scratched")]
        assert len(kept) == acknowledged >= len(moves) - 2, (acknowledged, [e["type"] for e in log])

        # By now the clock's deadline has passed: it fired once.
        _wait_for(lambda: any(e["type"] == "timed_out"
                              for e in b.call("GET", f"/api/v1/games/{clocked['id']}/events/")[1]))
        time.sleep(1)
        _, clock_log = b.call("GET", f"/api/v1/games/{clocked['id']}/events/")
        assert [e["type"] for e in clock_log].count("timed_out") == 1

        # The webhook: one delivery per turn started, each taken once; the refused first
        # attempt is tried again (within 30 s) under the same id.
        def all_delivered() -> bool:
            path = f"/api/v1/webhooks/{hook['id']}/deliveries/"
            found = b.call("GET", path, key=key)[1]
            return bool(found) and all(d["status"] == "delivered" for d in found)

        _wait_for(all_delivered, timeout=45)
        _, deliveries = b.call("GET", f"/api/v1/webhooks/{hook['id']}/deliveries/", key=key)
        delivered = [r.headers["webhook-id"] for r in receiver.received if r.status == 200]
        assert len(delivered) == len(set(delivered))  # none twice
        assert len(delivered) == len(deliveries)
        assert receiver.received[0].headers["webhook-id"] in delivered
        assert max(d["attempts"] for d in deliveries) == 2
    receiver.close()
