"""GET /metrics in the running service: the figures of every process of the instance (the
server's workers and the task worker) added up."""

from .conftest import LiveService


def test_moves_served_by_any_worker_process_are_counted_once(live_service: LiveService):
    before = live_service.counted("dice_moves_total", ruleset="maxi-yatzy")
    made = 0
    for _ in range(6):  # new connections: the server's processes share them out
        status, game = live_service.call("POST", "/api/v1/games/", {
            "ruleset": "maxi-yatzy", "players": [{"name": "Ann"}],
        })
        assert status == 201
        token = game["players"][0]["token"]
        for _ in range(2):
            status, _body = live_service.call(
                "POST", f"/api/v1/games/{game['id']}/roll/", {}, token=token
            )
            assert status == 200
            made += 1
    assert live_service.counted("dice_moves_total", ruleset="maxi-yatzy") - before == made
    status, _refused = live_service.call("GET", "/metrics")
    assert status == 401
