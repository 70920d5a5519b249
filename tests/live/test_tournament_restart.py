"""A tournament survives its workers being killed (``kill -9``) mid-run, again and again
(PostgreSQL): every game of the schedule is started once, every bot turn is played once by
greedy as its clock runs out, and the tournament finishes with every record verifying."""

import json
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.conftest import on_postgres

from .service import LiveService, manage, service_env, serving, throwaway_database, working

pytestmark = [
    pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (DATABASE_URL)"),
    pytest.mark.slow,
]


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveService, dict, Path]]:
    folder = tmp_path_factory.mktemp("arena")
    with throwaway_database(folder) as database_url:
        env = service_env(
            folder, database_url, THROTTLE_CREATE="", THROTTLE_MOVES="",
            THROTTLE_CLASSROOMS="", THROTTLE_RECORDS="",
        )
        manage(env, "migrate", "--noinput")
        with serving(folder, env) as service:
            yield service, env, folder


def add_bot(database_url: str, classroom: str, name: str) -> str:
    """A teacher's bot, as registering one stores it."""
    bot_id = str(uuid.uuid4())
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO games_bot (id, classroom_id, student_id, name, name_key, rulesets,"
            " created_at) VALUES (%s, %s, NULL, %s, %s, %s, now())",
            [bot_id, classroom, name, name.casefold(), json.dumps(["yatzy"])],
        )
    return bot_id


def hurry(database_url: str, tournament: str) -> tuple[str, int, int]:
    """Every running clock of the tournament runs out now (bots that never move); answers
    the tournament's status, games started and finished."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE games_game SET deadline = now() WHERE tournament_id = %s"
            " AND deadline > now()", [tournament],
        )
        found = conn.execute(
            "SELECT t.status, t.started, (SELECT count(*) FROM games_game g"
            " WHERE g.tournament_id = t.id AND g.status = 'finished')"
            " FROM games_tournament t WHERE t.id = %s", [tournament],
        ).fetchone()
    assert found is not None
    return found[0], found[1], found[2]


def run_until(database_url: str, tournament: str, done, seconds: float) -> tuple[str, int, int]:
    end = time.monotonic() + seconds
    while True:
        state = hurry(database_url, tournament)
        if done(*state) or time.monotonic() > end:
            return state
        time.sleep(0.2)


def test_a_tournament_outlives_its_workers_killed_mid_run(arena):
    service, env, folder = arena
    status, room = service.call("POST", "/api/v1/classrooms/", {"name": "Arena"})
    assert status == 201, room
    key = room["teacher_key"]
    bots = [add_bot(service.database_url, room["id"], name) for name in ("Ann", "Ben", "Cy")]
    status, cup = service.call(
        "POST", f"/api/v1/classrooms/{room['id']}/tournaments/",
        {"title": "Cup", "ruleset": "yatzy", "seats": 2, "boards": 2,
         "entrants": [{"bot": b} for b in bots] + [{"computer": "greedy"}],
         "clock": {"turn_seconds": 10}},
        key=key,
    )
    assert status == 201, cup
    assert cup["progress"]["games"] == 24
    url, tid = service.database_url, cup["id"]
    # Killed once its games are under way, then again after more have finished.
    for name, finished in (("first", 2), ("second", 8)):
        with working(folder, env, name=name, interval=0.2) as worker:
            state = run_until(url, tid, lambda s, started, f, n=finished: f >= n, 90)
            assert state[2] >= finished, service.log_tail()
            worker.send_signal(signal.SIGKILL)
            worker.wait()
    assert hurry(url, tid)[0] == "running"
    with working(folder, env, name="third", interval=0.2), working(
        folder, env, name="fourth", interval=0.2
    ):
        state = run_until(url, tid, lambda s, started, f: s == "finished", 180)
    assert state == ("finished", 24, 24), (folder / "third.log").read_text()[-3000:]
    status, over = service.call("GET", f"/api/v1/classrooms/{room['id']}/tournaments/{tid}/",
                                key=key)
    assert status == 200 and over["progress"] == {"games": 24, "finished": 24}
    games = []
    for page in (1, 2):
        status, body = service.call(
            "GET", f"/api/v1/classrooms/{room['id']}/tournaments/{tid}/games/"
            f"?page={page}&page_size=12", key=key,
        )
        games += body["results"]
    assert sorted(g["tournament_game"] for g in games) == list(range(1, 25))
    with psycopg.connect(url, autocommit=True) as conn:
        # Every bot seat's 15 turns of Yatzy were each timed out, and played, exactly once.
        counts = conn.execute(
            "SELECT p.bot_id IS NOT NULL,"
            " (SELECT count(*) FROM games_event e WHERE e.game_id = p.game_id"
            "  AND e.seat = p.seat AND e.type = 'timed_out'),"
            " (SELECT count(*) FROM games_event e WHERE e.game_id = p.game_id"
            "  AND e.seat = p.seat AND e.type IN ('scored', 'scratched'))"
            " FROM games_player p JOIN games_game g ON g.id = p.game_id"
            " WHERE g.tournament_id = %s", [tid],
        ).fetchall()
    assert {row for row in counts if row[0]} == {(True, 15, 15)}
    assert {row for row in counts if not row[0]} == {(False, 0, 15)}
    for game in games:
        status, record = service.call("GET", f"/api/v1/games/{game['id']}/record/")
        assert status == 200 and record["dice"]["secret"] is not None
        status, verified = service.call("POST", "/api/v1/records/verify/", record)
        assert verified["valid"] is True, verified
