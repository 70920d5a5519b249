"""The analysis endpoint over HTTP: a game's decisions scored with the values ``hint``
gives in the same positions, the seats asked for, strict query, errors, query budget.

Most games here are Forced Yatzy (its table solves in a fraction of a second); one Yahtzee
game checks the whole path with the Joker rules' ruleset (its table takes seconds).
"""

import random
from pathlib import Path
from typing import Any

import pytest

from scoring.boxgames.strategy import prepare_table
from scoring.boxgames.strategy.analysis import accuracy_of, label_of

from .conftest import Api, assert_problem

SEAT_FIELDS = {
    "seat", "name", "computer", "total", "expected_start", "expected_loss", "accuracy", "luck",
    "counts",
}
DECISION_FIELDS = {
    "seq", "seat", "round", "kind", "dice", "rolls_left", "chosen", "best", "chosen_value",
    "best_value", "loss", "label",
}


@pytest.fixture(scope="module", autouse=True)
def tables(strategy_tables: Path) -> None:
    """The tables these games are analysed with, ready before any request, as a served
    service has them (built once into STRATEGY_DIR, then read from there)."""
    for ruleset_id in ("forced-yatzy", "yahtzee"):
        prepare_table(ruleset_id, {}, strategy_tables)


def create(api: Api, players: list[dict], ruleset: str = "forced-yatzy", **fields: Any) -> dict:
    body = {"ruleset": ruleset, "players": players, **fields}
    response = api.client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def analysis(api: Api, game: dict, query: str = "") -> dict:
    response = api.client.get(f"/api/v1/games/{game['id']}/analysis/{query}")
    assert response.status_code == 200, response.json()
    return response.json()


def hint(api: Api, game: dict) -> dict:
    return api.client.get(f"/api/v1/games/{game['id']}/hint/").json()


def play_carelessly(api: Api, game: dict, rng: random.Random, seat: int = 0) -> dict:
    """Play the seat's turns to the end with random, often poor, moves; at every roll
    remember the hint's value of each option, by the seq of the event that will record
    the decision. Returns {seq: (hint, chosen option key, dice)}."""
    seen: dict[int, tuple[dict, Any, list[int]]] = {}
    state = api.get(game)
    while state["status"] == "active" and state["current_seat"] == seat:
        state = api.ok(game, "roll", seat=seat)
        while True:
            advice = hint(api, game)
            dice = state["turn"]["dice"]
            next_seq = api.events(game)[-1]["seq"] + 1
            if state["turn"]["rolls_left"] and rng.random() < 0.6:
                if rng.random() < 0.3:  # a hold alone is not a decision
                    api.ok(game, "hold", {"hold": [0]}, seat=seat)
                    next_seq += 1
                held = [i for i in range(5) if rng.random() < 0.5]
                seen[next_seq] = (advice, tuple(sorted(dice[i] for i in held)), dice)
                state = api.ok(game, "roll", {"hold": held}, seat=seat)
                continue
            box = rng.choice(sorted(state["choices"]))
            action = "scratch" if rng.random() < 0.25 else "score"
            seen[next_seq] = (advice, (action, box), dice)
            state = api.ok(game, action, {"category": box}, seat=seat)
            break
    return seen


def check_against_hints(answer: dict, seen: dict, seat: int = 0) -> None:
    decisions = [d for d in answer["decisions"] if d["seat"] == seat]
    assert [d["seq"] for d in decisions] == sorted(seen)
    for d in decisions:
        advice, chosen, dice = seen[d["seq"]]
        assert d["dice"] == sorted(dice)
        values = {}
        for option in advice["options"]:
            if option["action"] == "roll":
                key = tuple(sorted(dice[i] for i in option["hold"]))
            else:
                key = ("score", option["category"])
            values[key] = option["expected_final"]
        # hint values are given to 4 decimals, the analysis to 6.
        assert d["best_value"] == pytest.approx(advice["expected_final"], abs=1e-4)
        if chosen[0] == "scratch":
            assert d["kind"] == "box" and d["chosen"] == chosen[1]
            assert d["chosen_value"] <= values[("score", chosen[1])] + 1e-4
        elif chosen[0] == "score":
            assert d["kind"] == "box" and d["chosen"] == chosen[1]
            assert d["chosen_value"] == pytest.approx(values[chosen], abs=1e-4)
        else:
            assert d["kind"] == "keep" and tuple(d["chosen"]) == chosen
            assert d["chosen_value"] == pytest.approx(values[chosen], abs=1e-4)
        assert d["loss"] == pytest.approx(d["best_value"] - d["chosen_value"], abs=1e-9)
        assert d["label"] == label_of(d["loss"])


def check_seats(answer: dict) -> None:
    for seat in answer["seats"]:
        assert set(seat) == SEAT_FIELDS
        mine = [d for d in answer["decisions"] if d["seat"] == seat["seat"]]
        assert seat["expected_loss"] == pytest.approx(sum(d["loss"] for d in mine), abs=1e-6)
        assert seat["counts"] == {
            label: sum(d["label"] == label for d in mine)
            for label in ("best", "inaccuracy", "mistake", "blunder")
        }
        assert seat["luck"] == pytest.approx(
            seat["total"] - seat["expected_start"] + seat["expected_loss"], abs=1e-6
        )
        expected = accuracy_of(seat["expected_loss"], seat["expected_start"]) if mine else None
        assert seat["accuracy"] == expected


# -- the answer ----------------------------------------------------------------------------


def test_every_decision_of_a_careless_game_has_the_values_the_hint_gave(api: Api) -> None:
    game = create(api, [{"name": "Ann"}], seed=3)
    seen = play_carelessly(api, game, random.Random(3))
    answer = analysis(api, game)
    assert answer["method"] == "optimal"
    assert set(answer) == {"method", "seats", "decisions"}
    assert all(set(d) == DECISION_FIELDS for d in answer["decisions"])
    check_against_hints(answer, seen)
    check_seats(answer)
    (seat,) = answer["seats"]
    assert (seat["seat"], seat["name"], seat["computer"]) == (0, "Ann", None)
    assert seat["total"] == api.get(game)["players"][0]["total"]
    assert seat["expected_start"] == pytest.approx(122.5585, abs=1e-3)
    assert seat["expected_loss"] > 0 and seat["counts"]["best"] < len(answer["decisions"])
    # The log agrees: each decision's seq is a roll or a filled box of its seat.
    log = {e["seq"]: e for e in api.events(game)}
    for d in answer["decisions"]:
        kind = log[d["seq"]]["type"]
        assert kind == "rolled" if d["kind"] == "keep" else kind in {"scored", "scratched"}


@pytest.mark.slow
def test_a_yahtzee_game_is_analysed_with_the_hint_values(api: Api) -> None:
    game = create(api, [{"name": "Ann"}], "yahtzee", seed=8)
    seen = play_carelessly(api, game, random.Random(8))
    answer = analysis(api, game)
    check_against_hints(answer, seen)
    check_seats(answer)
    assert answer["seats"][0]["expected_start"] == pytest.approx(254.5877, abs=1e-3)


def test_persons_by_default_computers_when_asked(api: Api) -> None:
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "optimal"},
               {"name": "Rnd", "computer": "random"}]
    game = create(api, players, seed=5)
    play_carelessly(api, game, random.Random(5))
    persons = analysis(api, game)
    assert [s["name"] for s in persons["seats"]] == ["Ann"]
    assert {d["seat"] for d in persons["decisions"]} == {0}
    everyone = analysis(api, game, "?seats=all")
    assert [(s["name"], s["computer"]) for s in everyone["seats"]] == [
        ("Ann", None), ("Bot", "optimal"), ("Rnd", "random")
    ]
    bot = everyone["seats"][1]
    assert bot["expected_loss"] == 0 and bot["accuracy"] == 100
    assert bot["counts"]["best"] == sum(d["seat"] == 1 for d in everyone["decisions"]) > 0
    check_seats(everyone)
    assert analysis(api, game, "?seats=persons") == persons


def test_a_seat_that_left_keeps_the_decisions_it_made(api: Api) -> None:
    game = create(api, [{"name": "Ann"}, {"name": "Ben"}], seed=2)
    for _ in range(2):
        api.play_turn(game, seat=0)
        api.play_turn(game, seat=1)
    api.ok(game, "roll", seat=0)  # a roll with no decision on it: Ann leaves
    api.ok(game, "leave", seat=0)
    api.play_turn(game, seat=1)
    answer = analysis(api, game)
    ann, _ben = answer["seats"]
    assert sum(ann["counts"].values()) == 2 and ann["total"] < 100
    assert sum(d["seat"] == 1 for d in answer["decisions"]) == 3
    check_seats(answer)


def test_a_game_before_its_first_roll_has_seats_and_no_decision(api: Api) -> None:
    game = create(api, [{"name": "Ann"}], open_seats=1)
    answer = analysis(api, game)
    assert answer["decisions"] == []
    (seat,) = answer["seats"]
    assert seat["accuracy"] is None and seat["counts"]["best"] == 0
    assert seat["luck"] == pytest.approx(-seat["expected_start"])


def test_the_answer_costs_three_queries(api: Api, django_assert_num_queries: Any) -> None:
    game = create(api, [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}], seed=1)
    play_carelessly(api, game, random.Random(1))
    analysis(api, game)  # the table is loaded
    with django_assert_num_queries(3):
        analysis(api, game, "?seats=all")


# -- refusals ------------------------------------------------------------------------------


def test_rulesets_without_a_solved_strategy_are_refused(api: Api) -> None:
    game = create(api, [{"name": "Ann"}], "maxi-yatzy")
    response = api.client.get(f"/api/v1/games/{game['id']}/analysis/")
    problem = assert_problem(response, 409, "analysis_unavailable")
    assert "forced-yatzy" in problem["detail"]


def test_an_unknown_game_is_not_found(api: Api) -> None:
    response = api.client.get("/api/v1/games/3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10/analysis/")
    assert_problem(response, 404, "not_found")


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("?seats=bots", "invalid"),
        ("?seats=", "invalid"),
        ("?seats=ALL", "invalid"),
        ("?seats=all&seats=persons", "invalid"),
        ("?seat=all", "unknown_field"),
        ("?seats=all&page=2", "unknown_field"),
    ],
)
def test_the_query_is_strict(api: Api, query: str, code: str) -> None:
    game = create(api, [{"name": "Ann"}])
    response = api.client.get(f"/api/v1/games/{game['id']}/analysis/{query}")
    assert_problem(response, 400, code)


def test_only_get_is_allowed(api: Api) -> None:
    game = create(api, [{"name": "Ann"}])
    response = api.client.post(f"/api/v1/games/{game['id']}/analysis/", {}, format="json")
    assert_problem(response, 405, "method_not_allowed")
