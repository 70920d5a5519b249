"""Every piece of the fast path can be turned off, and the service answers alike without it.

For each setting that turns a piece off (``tests.bench.pieces``: the threaded bridge, quick
requests on the loop, the accept pacing, pipelined writes, prepared statements, kept games,
the hand-written SQL, the streams' news), and for all
of them off at once (the plain Django way), a server plays the same short game over HTTP as
one with every piece on: a creation, a turn's rolls and holds, a box scored, a refused move,
a read and the game's event stream opened. Every answer must have the same status, media
type and shape (its keys and their JSON types, dice aside) as with every piece on; the
refused move must change nothing.
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bench.pieces import ALL_OFF, PIECES
from tests.conftest import on_postgres

from .service import LiveService, manage, service_env, serving, throwaway_database

pytestmark = pytest.mark.live

CONFIGURATIONS = {
    **{f"without {piece}": settings for piece, settings in PIECES.items()},
    "all off": ALL_OFF,
}


def shape(value: Any) -> Any:
    """What a client's code depends on in a JSON value: its keys and their types."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        # A list's items all share a shape here; an empty list says nothing more.
        return [shape(value[0])] if value else []
    return type(value).__name__


def answer(service: LiveService, method: str, path: str, body: Any = None,
           token: str | None = None) -> tuple[int, str, Any]:
    """One request's status, media type and decoded body."""
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    connection = service.connection()
    try:
        payload = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    media = (response.getheader("Content-Type") or "").split(";")[0]
    return response.status, media, json.loads(raw) if raw else None


def stream_opening(service: LiveService, at: str) -> tuple[int, str, Any]:
    """The status and media type of the game's event stream, and its first event's lines
    (the retry hint before it aside) but for its data."""
    connection = service.connection(timeout=10)
    try:
        connection.request("GET", at + "stream/", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        media = (response.getheader("Content-Type") or "").split(";")[0]
        lines: list[str] = []
        while response.status == 200 and not any(line.startswith("data:") for line in lines):
            line = response.fp.readline().decode().strip()
            if line.startswith(("id:", "event:", "data:")):
                lines.append(line if not line.startswith("data:") else "data:")
    finally:
        connection.close()
    return response.status, media, lines


def short_game(service: LiveService) -> list[tuple[int, str, Any]]:
    """The answers to a short game, in order, as status, media type and body shape."""
    seen: list[tuple[int, str, Any]] = []

    def call(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        status, media, found = answer(service, method, path, body, token)
        seen.append((status, media, shape(found)))
        return found

    game = call("POST", "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Ann"}]})
    at, token = f"/api/v1/games/{game['id']}/", game["players"][0]["token"]
    call("POST", at + "roll/", {}, token)
    call("POST", at + "roll/", {"hold": [0, 1]}, token)
    rolled = call("POST", at + "hold/", {"hold": [0, 1, 2]}, token)
    rolled = call("POST", at + "roll/", {}, token)
    box = next(iter(rolled["choices"]))
    scored = call("POST", at + "score/", {"category": box}, token)
    # The next turn has no roll yet: a box cannot be scored, and nothing changes.
    call("POST", at + "score/", {"category": box}, token)
    read = call("GET", at)
    assert read["version"] == scored["version"]
    call("POST", at + "roll/", {"hold": "not a list"}, token)
    seen.append(stream_opening(service, at))
    return seen


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A migrated database and the environment of its servers."""
    if not on_postgres():
        pytest.skip("the fast path's pieces are PostgreSQL's and gunicorn's")
    folder = tmp_path_factory.mktemp("switches")
    with throwaway_database(folder) as database_url:
        env = service_env(folder, database_url, THROTTLE_CREATE="", THROTTLE_MOVES="")
        manage(env, "migrate", "--noinput")
        yield folder, env


@pytest.fixture(scope="module")
def all_on(started: tuple[Path, dict[str, str]]) -> list[tuple[int, str, Any]]:
    folder, env = started
    with serving(folder, env, name="all-on") as service:
        return short_game(service)


def test_with_every_piece_on_the_short_game_is_played_and_refused_moves_are_problems(all_on):
    statuses = [status for status, _, _ in all_on]
    assert statuses == [201, 200, 200, 200, 200, 200, 409, 200, 400, 200], statuses
    assert all_on[6][1] == all_on[8][1] == "application/problem+json"
    assert all_on[9] == (200, "text/event-stream", ["id: 1", "event: created", "data:"])


@pytest.mark.parametrize("switched", CONFIGURATIONS.values(), ids=CONFIGURATIONS.keys())
def test_a_piece_turned_off_answers_as_with_every_piece_on(started, all_on, switched):
    folder, env = started
    with serving(folder, {**env, **switched}, name="switched") as service:
        assert short_game(service) == all_on
