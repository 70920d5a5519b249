"""Rate limits: what they count, per whom, and that a forged header escapes none."""

import threading
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory, override_settings
from django.utils import timezone

import config.settings as defaults
from games.http.limits import client_address, parse_rates
from tests.conftest import on_postgres

from .conftest import assert_problem

FORGED = ["203.0.113.7", "198.51.100.1, 10.0.0.1", "garbage", "[2001:db8::1]:443"]


def address(remote: str = "192.0.2.1", forwarded: str | None = None) -> str:
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **extra))


@pytest.mark.parametrize("forwarded", FORGED)
def test_without_proxies_the_forwarded_header_is_ignored(settings, forwarded):
    settings.NUM_PROXIES = 0
    assert address("192.0.2.1", forwarded) == "192.0.2.1"


def test_an_address_a_server_took_from_the_header_counts_as_one_client(settings):
    # uvicorn and gunicorn rewrite the peer from X-Forwarded-For for local peers; with
    # NUM_PROXIES=0 every such request is one client, whatever the header says.
    settings.NUM_PROXIES = 0
    assert address("203.0.113.7", "203.0.113.7") == "forwarded"
    assert address("198.51.100.9", "10.1.1.1, 198.51.100.9:5555") == "forwarded"


def test_behind_one_proxy_the_entry_it_appended_is_the_client(settings):
    settings.NUM_PROXIES = 1
    assert address("10.0.0.2", "203.0.113.7, 198.51.100.1") == "198.51.100.1"
    assert address("10.0.0.2") == "10.0.0.2"
    settings.NUM_PROXIES = 2
    assert address("10.0.0.2", "203.0.113.7, 198.51.100.1") == "203.0.113.7"


def test_ipv6_clients_count_per_64_network(settings):
    settings.NUM_PROXIES = 0
    assert address("2001:db8:1:2:aaaa::1") == address("2001:db8:1:2:bbbb::2")
    assert address("2001:db8:1:2::1") != address("2001:db8:1:3::1")
    assert address("::ffff:192.0.2.5") == "192.0.2.5"
    assert address("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::"


def test_rates_read_several_windows():
    assert [(w.count, w.seconds) for w in parse_rates("300/minute, 3000/hour")] == [
        (300, 60),
        (3000, 3600),
    ]
    assert parse_rates("") == ()
    with pytest.raises(Exception, match="not '<count>"):
        parse_rates("many/minute")


def test_the_defaults_guard_costly_requests_and_leave_moves_free():
    rates = defaults.THROTTLE_RATES
    assert rates["moves"] == ""
    assert all(rates[scope] for scope in ("create", "advice", "classrooms", "failures"))
    assert defaults.NUM_PROXIES == 0
    assert defaults.REST_FRAMEWORK["NUM_PROXIES"] == 0


def test_a_bot_plays_games_back_to_back_under_the_default_limits(classes, settings):
    settings.THROTTLE_RATES = dict(defaults.THROTTLE_RATES)
    for _ in range(3):
        classes.play_to_the_end(classes.create())
    # Creating far more games than a bot can play in a minute is still within the limit.
    for _ in range(120):
        assert classes.client.post(
            "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Bot"}]}, format="json"
        ).status_code == 201


def test_over_the_create_limit_the_answer_is_429_with_retry_after(classes, settings):
    settings.THROTTLE_RATES = {"create": "2/minute"}
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    for forwarded in FORGED[:2]:
        response = classes.client.post(
            "/api/v1/games/", body, format="json", HTTP_X_FORWARDED_FOR=forwarded
        )
        assert response.status_code == 201
    refused = classes.client.post(
        "/api/v1/games/", body, format="json", HTTP_X_FORWARDED_FOR=FORGED[2]
    )
    assert_problem(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 61
    other = classes.client.post("/api/v1/games/", body, format="json", REMOTE_ADDR="192.0.2.44")
    assert other.status_code == 201


def test_joining_a_game_counts_as_creating(classes, settings):
    settings.THROTTLE_RATES = {"create": "2/minute"}
    game = classes.create(open_seats=2)
    assert classes.client.post(
        f"/api/v1/games/{game['id']}/join/", {"name": "Ben"}, format="json"
    ).status_code == 201
    refused = classes.client.post(
        f"/api/v1/games/{game['id']}/join/", {"name": "Cleo"}, format="json"
    )
    assert_problem(refused, 429, "throttled")


def test_advice_and_hints_are_limited(classes, settings):
    settings.THROTTLE_RATES = {"advice": "1/minute"}
    path = "/api/v1/rulesets/chess/advice/"
    assert classes.client.post(path, {}, format="json").status_code == 404
    refused = classes.client.post(path, {}, format="json")
    assert_problem(refused, 429, "throttled")
    game = classes.create()
    assert_problem(classes.client.get(f"/api/v1/games/{game['id']}/hint/"), 429, "throttled")


def test_with_a_key_limits_count_per_key_and_follow_the_quota(classes, settings):
    settings.THROTTLE_RATES = {"create": "3/minute"}
    room = classes.open()
    for name in ("Ann", "Ben"):
        classes.join(room, name)
    path = f"/api/v1/classrooms/{room.id}/"
    classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 2}})
    ann, ben = classes.key_of(room, "Ann"), classes.key_of(room, "Ben")
    assert [classes.create_with(ann).status_code for _ in range(2)] == [201, 201]
    assert_problem(classes.create_with(ann), 429, "throttled")
    # Ben, at the same address, has a count of his own; so has the address without a key.
    assert [classes.create_with(ben).status_code for _ in range(2)] == [201, 201]
    assert [classes.create().get("id") is not None for _ in range(3)] == [True] * 3
    # The teacher raises the quota: it holds at once.
    classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 10}})
    assert classes.create_with(ann).status_code == 201


def test_moves_with_a_valid_token_are_not_limited_by_default(classes, settings):
    settings.THROTTLE_RATES = dict(defaults.THROTTLE_RATES) | {"failures": "2/minute"}
    game = classes.create()
    finished = classes.play_to_the_end(game)
    assert finished["status"] == "finished"


def test_wrong_tokens_keys_and_codes_stop_the_address_for_a_while(classes, settings):
    settings.THROTTLE_RATES = {"failures": "3/minute"}
    game = classes.create()
    assert_problem(classes.move(game, "roll", token="wrong"), 401, "invalid_token")
    assert_problem(classes.create_with("dk_wrong"), 401, "invalid_api_key")
    wrong_code = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": "WRONG123", "name": "Ann"}, format="json"
    )
    assert_problem(wrong_code, 404, "not_found")
    # Three failures: the next request carrying credentials is refused unchecked, even with
    # the right token; one carrying none still passes.
    refused = classes.move(game, "roll")
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) >= 1
    assert classes.get(game)["version"] == game["version"]
    assert classes.client.get(f"/api/v1/games/{game['id']}/").status_code == 200
    # Another address is not affected.
    assert classes.move(game, "roll", REMOTE_ADDR="192.0.2.99").status_code == 200


def test_a_missing_token_is_not_a_failure(classes, settings):
    settings.THROTTLE_RATES = {"failures": "1/minute"}
    game = classes.create()
    for _ in range(3):
        response = classes.client.post(f"/api/v1/games/{game['id']}/roll/", {}, format="json")
        assert_problem(response, 401, "not_authenticated")
    assert classes.move(game, "roll").status_code == 200


def test_joining_classrooms_is_limited_per_address(classes, settings):
    settings.THROTTLE_RATES = {"classrooms": "3/minute"}
    room = classes.open()
    classes.join(room, "Ann")
    classes.join(room, "Ben")
    refused = classes.client.post(
        "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": "Cleo"}, format="json"
    )
    assert_problem(refused, 429, "throttled")


def test_a_cache_that_cannot_be_reached_lets_requests_through(classes, settings):
    settings.THROTTLE_RATES = {"create": "1/minute", "failures": "1/minute"}
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:1/0",
                "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
            }
        }
    ):
        assert classes.create()["id"]
        assert classes.create()["id"]


@pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_the_database_cache_counts_every_concurrent_increment(settings):
    settings.CACHES = {
        "default": {"BACKEND": "games.db.cache.DatabaseCache", "LOCATION": "dice_cache"}
    }
    from django.core.management import call_command

    call_command("createcachetable", verbosity=0)
    cache.add("counter", 0, 60)
    barrier = threading.Barrier(8)

    def raise_it() -> None:
        try:
            barrier.wait()
            for _ in range(25):
                cache.incr("counter")
        finally:
            connection.close()

    threads = [threading.Thread(target=raise_it) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.get("counter") == 200


def test_the_database_cache_keeps_a_counters_expiry(db, settings, monkeypatch):
    settings.CACHES = {
        "default": {"BACKEND": "games.db.cache.DatabaseCache", "LOCATION": "dice_cache"}
    }
    cache.add("counter", 0, 30)  # long enough for a loaded machine to reach the next line
    assert cache.incr("counter") == 1
    # The cache's clock, not the test, moves on past the counter's thirty seconds.
    later = timezone.now() + timedelta(seconds=31)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with pytest.raises(ValueError):
        cache.incr("counter")


# -- limits no caller can lift -------------------------------------------------------------


def test_a_teacher_may_lower_the_quota_but_not_raise_it_above_the_default(classes, settings):
    settings.CLASSROOM_QUOTA = defaults.CLASSROOM_QUOTA | {
        "games_per_hour": 100, "advice_per_hour": 200
    }
    room = classes.open()
    path = f"/api/v1/classrooms/{room.id}/"
    assert classes.teacher(path, room.teacher_key).json()["quota"] == {
        "games_per_hour": 100, "advice_per_hour": 200, "computer_moves_per_hour": 600000
    }
    lowered = classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 5}})
    assert lowered.json()["quota"] == {
        "games_per_hour": 5, "advice_per_hour": 200, "computer_moves_per_hour": 600000
    }
    # Back up to the default is a raise within it; one past it is refused, changing nothing.
    back = classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 100}})
    assert back.json()["quota"]["games_per_hour"] == 100
    for quota in ({"games_per_hour": 101}, {"advice_per_hour": 5, "games_per_hour": 1_000_000}):
        refused = classes.teacher(path, room.teacher_key, "patch", {"quota": quota})
        assert_problem(refused, 403, "quota_above_default")
    both = {"quota": {"games_per_hour": 1, "advice_per_hour": 201}, "joining": "closed"}
    assert_problem(classes.teacher(path, room.teacher_key, "patch", both), 403,
                   "quota_above_default")
    read = classes.teacher(path, room.teacher_key).json()
    assert read["quota"] == {
        "games_per_hour": 100, "advice_per_hour": 200, "computer_moves_per_hour": 600000
    }
    assert read["joining"] == "open"


def test_a_quota_an_operator_raised_stays_and_the_teacher_may_only_lower_it(classes, settings):
    from games.models import Classroom

    settings.CLASSROOM_QUOTA = defaults.CLASSROOM_QUOTA | {
        "games_per_hour": 100, "advice_per_hour": 200
    }
    room = classes.open()
    Classroom.objects.filter(pk=room.id).update(quota={"games_per_hour": 5000})  # the admin
    path = f"/api/v1/classrooms/{room.id}/"
    assert classes.teacher(path, room.teacher_key).json()["quota"]["games_per_hour"] == 5000
    ok = classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 4000}})
    assert ok.json()["quota"]["games_per_hour"] == 4000
    refused = classes.teacher(path, room.teacher_key, "patch", {"quota": {"games_per_hour": 5000}})
    assert_problem(refused, 403, "quota_above_default")


def test_the_operators_defaults_hold_for_every_classroom_that_did_not_lower_them(
    classes, settings
):
    settings.THROTTLE_RATES = {}
    settings.CLASSROOM_QUOTA = defaults.CLASSROOM_QUOTA | {
        "games_per_hour": 2, "advice_per_hour": 200
    }
    room = classes.open()
    classes.join(room, "Ann")
    ann = classes.key_of(room, "Ann")
    assert [classes.create_with(ann).status_code for _ in range(2)] == [201, 201]
    assert_problem(classes.create_with(ann), 429, "throttled")


def test_keys_do_not_multiply_what_one_address_may_do(classes, settings):
    # Anonymous: 2 games a minute per address; with keys, 3 times that per address in all,
    # however many classrooms and keys it opens (each key's own quota is far larger).
    settings.THROTTLE_RATES = {"create": "2/minute"}
    settings.THROTTLE_KEYED_ADDRESS_FACTOR = 3
    keys = []
    for index in range(4):
        room = classes.open(f"room {index}")
        keys.append(room.teacher_key)
        keys.append(classes.join(room, "Ann")["api_key"])
    answers = [classes.create_with(key).status_code for key in keys]
    assert answers.count(201) == 6
    assert answers[6:] == [429, 429]
    # Another address, with the same keys, has a ceiling of its own.
    other = classes.client.post(
        "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}, format="json",
        HTTP_X_API_KEY=keys[-1], REMOTE_ADDR="192.0.2.77",
    )
    assert other.status_code == 201


def test_the_default_ceiling_is_ten_times_the_anonymous_limits():
    assert defaults.THROTTLE_KEYED_ADDRESS_FACTOR == 10
    assert defaults.THROTTLE_RATES["records"] == "30/minute"
    assert defaults.CLASSROOM_QUOTA == {
        "games_per_hour": 6000, "advice_per_hour": 10000, "computer_moves_per_hour": 600000
    }


def test_records_and_their_checks_have_limits_of_their_own(classes, settings):
    settings.THROTTLE_RATES = {"records": "2/minute"}
    game = classes.create()
    path = f"/api/v1/games/{game['id']}/record/"
    assert [classes.client.get(path).status_code for _ in range(2)] == [200, 200]
    assert_problem(classes.client.get(path), 429, "throttled")
    record = classes.client.get(path, REMOTE_ADDR="192.0.2.9").json()
    verify = "/api/v1/records/verify/"
    checks = [classes.client.post(verify, record, format="json").status_code for _ in range(3)]
    assert checks == [200, 200, 429]
    # A key counts on its own, and its address still has a ceiling (10 times, by default).
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    answers = [
        classes.client.get(path, HTTP_X_API_KEY=key, REMOTE_ADDR="192.0.2.10").status_code
        for _ in range(3)
    ]
    assert answers == [200, 200, 429]
