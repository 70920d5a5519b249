"""Turn clocks in the running service: with nobody moving and no request but reads, the
task worker started beside the server finishes the turn within 5 seconds of its deadline."""

import datetime as dt
import time

from .conftest import LiveService


def test_a_clock_fires_within_five_seconds_of_its_deadline_with_no_move(
    live_service: LiveService,
):
    timeouts = live_service.counted("dice_clock_timeouts_total")
    created = [
        live_service.call("POST", "/api/v1/games/", {
            "ruleset": "yatzy", "players": [{"name": "Ann"}, {"name": "Ben"}],
            "clock": {"turn_seconds": 10},
        })[1]
        for _ in range(3)
    ]
    deadlines = [dt.datetime.fromisoformat(game["clock"]["deadline"]) for game in created]
    time.sleep(10)
    delays = []
    for game, deadline in zip(created, deadlines, strict=True):
        for _ in range(100):  # reads only: they fire nothing
            _status, log = live_service.call("GET", f"/api/v1/games/{game['id']}/events/")
            timed_out = [event for event in log if event["type"] == "timed_out"]
            if timed_out:
                break
            time.sleep(0.1)
        assert timed_out, live_service.log_tail()
        fired = dt.datetime.fromisoformat(timed_out[0]["created_at"])
        delays.append((fired - deadline).total_seconds())
        _status, shown = live_service.call("GET", f"/api/v1/games/{game['id']}/")
        assert shown["current_seat"] == 1 and shown["clock"]["deadline"] is not None
    assert all(0 <= delay < 5 for delay in delays), delays
    # Counted by the task worker's process, shown by the server's.
    assert live_service.counted("dice_clock_timeouts_total") - timeouts >= 3
