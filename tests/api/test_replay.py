"""The log alone replays a game: every move, every die, every card and total."""

import random
from typing import Any

import pytest

from scoring import get_ruleset
from scoring.commands import command_for

from .test_every_ruleset import play_box_game


class LoggedDice:
    """Throws exactly the faces a `rolled` event recorded, at the positions it threw."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def replay(log: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """Rebuild the final state from the log, checking every event the engine gives again."""
    created = log[0]["data"]
    ruleset = get_ruleset(created["ruleset"])
    options = created["options"]
    seats = len(created["players"])
    state = ruleset.new_state(seats=seats, options=options)
    expected: list[dict[str, Any]] = []
    pending: list[int] | None = None
    for event in log[1:]:
        kind, seat, data = event["type"], event["seat"], event["data"]
        if expected:
            assert (kind, seat, data) == expected.pop(0), "the engine disagrees with the log"
            continue
        if kind == "joined":
            seats += 1
            state = ruleset.new_state(seats=seats, options=options)
            continue
        if kind == "started":
            continue
        if kind == "set_aside":
            pending = data["dice"]
            continue
        if kind == "rolled":
            if pending is not None:
                args = {"set_aside": pending}
            elif state["dice"] is None:
                args = {}
            else:
                args = {"hold": [i for i in range(ruleset.dice) if i not in data["thrown"]]}
            dice = LoggedDice([data["dice"][i] for i in data["thrown"]])
            outcome = ruleset.move(
                state, seat=seat, command=command_for("roll", args), options=options, rng=dice
            )
        elif kind == "banked":
            outcome = ruleset.move(
                state,
                seat=seat,
                command=command_for("bank", {"set_aside": pending}),
                options=options,
                rng=LoggedDice([]),
            )
        elif kind in ("held", "scored", "scratched", "passed"):
            action = {"held": "hold", "scored": "score", "scratched": "scratch", "passed": "pass"}[
                kind
            ]
            args = {
                "held": {"hold": data.get("held")},
                "scored": {"category": data.get("category")},
                "scratched": {"category": data.get("category")},
                "passed": {},
            }[kind]
            outcome = ruleset.move(
                state, seat=seat, command=command_for(action, args), options=options,
                rng=LoggedDice([]),
            )
        elif kind == "left":
            ends = any(e["type"] == "finished" for e in log if e["seq"] == event["seq"] + 1)
            outcome = ruleset.leave(state, seat=seat, options=options, end=ends)
        else:
            raise AssertionError(f"an event the engine did not announce: {kind}")
        pending = None
        produced = [(e.type, e.seat, e.data) for e in outcome.events]
        set_aside_first = produced and produced[0][0] == "set_aside"
        assert (produced[1] if set_aside_first else produced[0])[0] == kind
        expected = produced[2:] if set_aside_first else produced[1:]
        state = outcome.state
    assert not expected, "the log ends before the engine's events do"
    return ruleset, state


def assert_replays(api, game: dict[str, Any]) -> None:
    log = api.events(game)
    shown = api.get(game)
    ruleset, state = replay(log)
    view = ruleset.view(state, options=shown["options"])
    assert view.totals == [p["total"] for p in shown["players"]]
    assert view.winners == shown["winners"]
    for seat, player in enumerate(shown["players"]):
        assert dict(view.players[seat].items()) == {
            k: v for k, v in player.items() if k in view.players[seat]
        }


@pytest.mark.parametrize("ruleset", ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy"])
def test_a_box_game_replays_from_its_log(api, ruleset):
    game = api.create(("Ann", "Ben"), ruleset=ruleset)
    play_box_game(api, game, random.Random(7))
    assert_replays(api, game)


def test_a_ten_thousand_game_replays_from_its_log(api):
    from scoring.tenthousand.points import best_free_selection

    game = api.create(("Ann", "Ben"), ruleset="ten-thousand", options={"target": 1500})
    rng = random.Random(3)
    shown = game
    while shown["status"] != "finished":
        seat, turn = shown["current_seat"], shown["turn"]
        if turn["dice"] is None:
            shown = api.ok(game, "roll", seat=seat)
        elif rng.random() < 0.1:
            shown = api.ok(game, "pass", seat=seat)
        else:
            take = best_free_selection(turn["dice"], turn["set_aside"]).positions
            action = "bank" if turn["can_bank"] and rng.random() < 0.5 else "roll"
            shown = api.ok(game, action, {"set_aside": take}, seat=seat)
    assert_replays(api, game)


def test_a_game_with_joins_and_a_leaver_replays_from_its_log(api):
    game = api.create(("Ann",), open_seats=2)
    ben = api.client.post(f"/api/v1/games/{game['id']}/join/", {"name": "Ben"}, format="json")
    cleo = api.client.post(f"/api/v1/games/{game['id']}/join/", {"name": "Cleo"}, format="json")
    tokens = [
        game["players"][0]["token"],
        ben.json()["players"][1]["token"],
        cleo.json()["players"][2]["token"],
    ]
    api.play_turn(game, seat=0)
    api.ok(game, "leave", token=tokens[1])
    api.ok(game, "roll", token=tokens[2])
    api.ok(game, "hold", {"hold": [0, 1]}, token=tokens[2])
    api.ok(game, "roll", token=tokens[2])
    api.ok(game, "scratch", {"category": "chance"}, token=tokens[2])
    api.ok(game, "leave", token=tokens[0])
    api.ok(game, "leave", token=tokens[2])
    assert api.get(game)["status"] == "finished"
    assert_replays(api, game)
