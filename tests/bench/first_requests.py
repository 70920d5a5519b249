"""Time a running service's first requests that need an optimal-strategy table.

Start the service (``make run PORT=8123``), then, before anything else talks to it:

    .venv/bin/python tests/bench/first_requests.py --url http://127.0.0.1:8123

It prints, in this order, the time of: the first hint (a Yahtzee game rolled once, then
``GET .../hint/``), the first game of an ``optimal`` computer seat (``POST /games/`` with one
optimal Yahtzee seat: the whole game is played within that request), the same again (tables
now in memory), and the first use of tables of other options and rulesets. Each line gives
the status and the seconds; the last line gives the command to rerun it. Only the Python
standard library is used, so any Python 3.11 runs it.
"""

import argparse
import json
import shlex
import sys
import time
import urllib.error
import urllib.request
from typing import Any


def call(url: str, method: str, path: str, body: Any = None, token: str | None = None):
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url + path, data=data, headers=headers, method=method)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    return status, json.loads(raw) if raw else None, time.perf_counter() - started


def wait_until_up(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if call(url, "GET", "/api/v1/health/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    sys.exit(f"no healthy service at {url} within {seconds:g} s")


def report(label: str, status: int, body: Any, seconds: float) -> None:
    extra = ""
    if isinstance(body, dict) and "code" in body:
        extra = f" ({body['code']})"
    elif isinstance(body, dict) and body.get("status") == "finished":
        extra = f" (finished, total {body['players'][0]['total']})"
    elif isinstance(body, dict) and "expected_final" in body:
        extra = f" (expected final {body['expected_final']})"
    print(f"{label:<52} {status} {seconds * 1000:8.0f} ms{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--wait", type=float, default=900, help="seconds to wait for health")
    args = parser.parse_args()
    url = args.url.rstrip("/")
    wait_until_up(url, args.wait)

    person = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    game = call(url, "POST", "/api/v1/games/", person)[1]
    call(url, "POST", f"/api/v1/games/{game['id']}/roll/", {}, game["players"][0]["token"])
    report("first hint (yahtzee)", *call(url, "GET", f"/api/v1/games/{game['id']}/hint/"))

    def optimal(ruleset: str, options: dict | None = None) -> tuple:
        body = {"ruleset": ruleset, "players": [{"name": "Bot", "computer": "optimal"}]}
        return call(url, "POST", "/api/v1/games/", {**body, "options": options or {}})

    report("first optimal computer game (yahtzee, 13 turns)", *optimal("yahtzee"))
    report("second optimal computer game (yahtzee)", *optimal("yahtzee"))
    report("first optimal game, other options (joker free)", *optimal("yahtzee", {"joker": "free"}))
    report("first optimal game (yatzy)", *optimal("yatzy"))
    report("first optimal game (forced-yatzy)", *optimal("forced-yatzy"))
    advice = {"dice": [3, 3, 5, 1, 3], "rolls_left": 2}
    report("first advice (yatzy)", *call(url, "POST", "/api/v1/rulesets/yatzy/advice/", advice))
    print(f"rerun: {shlex.join([sys.executable, *sys.argv])}")


if __name__ == "__main__":
    main()
