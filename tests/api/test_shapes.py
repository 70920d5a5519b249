"""Every kind of answer has the one shape declared for it (the ``bodies`` of each resource
of ``games.api``), and the schema states exactly those shapes.

Real games of every ruleset are played to the end, with their logs, hints and analysis, and
every body is checked against its shape recursively (``tests.shapes``): a render that
changes a body without changing its shape fails here, and so does a shape that declares a
key that no answer has.
"""

import random
import shutil
from typing import Any

import pytest

from games.api.classrooms.bodies import GamesPageBody
from games.api.games.advice_bodies import (
    AnalysisBody,
    HintBody,
    TenThousandAnalysisBody,
    TenThousandHintBody,
)
from games.api.games.bodies import EventBody, GameBody
from games.api.leaderboard.bodies import LeaderboardEntryBody
from games.api.operations.health import HealthBody
from games.api.records.bodies import RecordBody, VerdictBody
from games.api.rulesets.bodies import AdviceBody, RulesetBody, ScoreBody, TenThousandAdviceBody
from games.api.schema.shapes import derived, keys_of
from games.http.problems import ProblemBody
from scoring import RULESETS
from scoring.boxgames.strategy import prepare_table
from scoring.tenthousand.points import best_free_selection
from scoring.tenthousand.strategy.tables import load_tables
from tests.shapes import ShapeCheck

from .conftest import Api

BOX_GAMES = ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy"]
HINTED = {"forced-yatzy", "maxi-yatzy", "ten-thousand"}  # a table, or no table needed


@pytest.fixture(scope="module")
def tables(tmp_path_factory, strategy_tables):
    folder = tmp_path_factory.mktemp("strategy-tables")
    prepare_table("forced-yatzy", {}, folder)
    # Ten Thousand's tables take half a minute: a copy of the shared folder's.
    shutil.copy(load_tables(350, strategy_tables).path, folder)
    return folder


class Shaped:
    """A client that checks every answer against the shape it should have."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.shapes = ShapeCheck()

    def get(self, path: str, shape: Any, status: int = 200) -> Any:
        return self._checked(self.api.client.get(path), shape, status)

    def post(self, path: str, body: dict, shape: Any, status: int = 200) -> Any:
        return self._checked(self.api.client.post(path, body, format="json"), shape, status)

    def move(self, game: dict, action: str, body: dict | None = None, seat: int = 0) -> dict:
        return self._checked(self.api.move(game, action, body, seat=seat), GameBody, 200)

    def _checked(self, response: Any, shape: Any, status: int) -> Any:
        assert response.status_code == status, response.content
        body = response.json()
        self.shapes.check(body, shape)
        return body


@pytest.fixture
def shaped(api: Api, settings, tables) -> Shaped:
    settings.STRATEGY_DIR = tables
    return Shaped(api)


def create(shaped: Shaped, ruleset: str, players: list[dict], **fields: Any) -> dict:
    body = {"ruleset": ruleset, "players": players, **fields}
    return shaped.post("/api/v1/games/", body, GameBody, 201)


def play_box_game(shaped: Shaped, game: dict, rng: random.Random) -> dict:
    shown = game
    while shown["status"] == "active":
        seat = shown["current_seat"]
        shown = shaped.move(game, "roll", seat=seat)
        while shown["turn"]["rolls_left"] and rng.random() < 0.6:
            hold = [i for i in range(len(shown["turn"]["dice"])) if rng.random() < 0.5]
            shaped.move(game, "hold", {"hold": hold}, seat=seat)
            if game["ruleset"] in HINTED:
                shaped.get(f"/api/v1/games/{game['id']}/hint/", HintBody)
            shown = shaped.move(game, "roll", {"hold": hold}, seat=seat)
        action = "scratch" if rng.random() < 0.1 else "score"
        box = rng.choice(sorted(shown["choices"]))
        shown = shaped.move(game, action, {"category": box}, seat=seat)
    return shown


def play_ten_thousand(shaped: Shaped, game: dict, rng: random.Random) -> dict:
    shown = game
    while shown["status"] == "active":
        turn = shown["turn"]
        if turn["dice"] is None:
            shown = shaped.move(game, "roll")
            continue
        shaped.get(f"/api/v1/games/{game['id']}/hint/", TenThousandHintBody)
        take = best_free_selection(turn["dice"], turn["set_aside"]).positions
        if turn["can_bank"] and rng.random() < 0.4:
            shown = shaped.move(game, "bank", {"set_aside": take})
        else:
            shown = shaped.move(game, "roll", {"set_aside": take})
    return shown


@pytest.mark.slow
def test_every_answer_of_a_game_has_its_shape(shaped):
    games = []
    for ruleset in BOX_GAMES:
        players = [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}]
        game = create(shaped, ruleset, players, seed=3)
        if ruleset in HINTED:
            shaped.get(f"/api/v1/games/{game['id']}/hint/", HintBody)
        assert play_box_game(shaped, game, random.Random(3))["status"] == "finished"
        games.append(game)
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "classic"}]
    game = create(shaped, "ten-thousand", players, seed=5, options={"target": 2000})
    assert play_ten_thousand(shaped, game, random.Random(4))["status"] == "finished"
    games.append(game)
    assert {game["ruleset"] for game in games} == set(RULESETS)
    for game in games:
        shaped.get(f"/api/v1/games/{game['id']}/", GameBody)
        shaped.get(f"/api/v1/games/{game['id']}/events/", list[EventBody])
        record = shaped.get(f"/api/v1/games/{game['id']}/record/", RecordBody)
        shaped.post("/api/v1/records/verify/", record, VerdictBody, 200)
    record["totals"] = [total + 1 for total in record["totals"]]
    assert not shaped.post("/api/v1/records/verify/", record, VerdictBody, 200)["valid"]
    forced = games[BOX_GAMES.index("forced-yatzy")]
    shaped.get(f"/api/v1/games/{games[-1]['id']}/analysis/", TenThousandAnalysisBody)
    shaped.get(f"/api/v1/games/{forced['id']}/analysis/", AnalysisBody)
    shaped.get(f"/api/v1/games/{forced['id']}/analysis/?seats=all", AnalysisBody)
    clocked = create(shaped, "yatzy", [{"name": "Ann"}], clock={"turn_seconds": 60})
    assert shaped.get(f"/api/v1/games/{clocked['id']}/", GameBody)["clock"]["deadline"]
    # A lobby: a waiting game, a seat joined (with its token), a seat that leaves.
    lobby = create(shaped, "yahtzee", [{"name": "Ann"}], open_seats=1)
    joined = shaped.post(f"/api/v1/games/{lobby['id']}/join/", {"name": "Ben"}, GameBody, 201)
    assert joined["status"] == "active" and joined["players"][1]["token"]
    shaped.move(lobby, "leave")
    shaped.get("/api/v1/games/?page_size=2", GamesPageBody)
    assert shaped.shapes.unseen() == {}


def test_every_other_answer_has_its_shape(shaped):
    shaped.get("/api/v1/health/", HealthBody)
    for ruleset in shaped.get("/api/v1/rulesets/", list[RulesetBody]):
        shaped.get(f"/api/v1/rulesets/{ruleset['id']}/", RulesetBody)
    calculator = "/api/v1/rulesets/{}/score/"
    card = {"yahtzee": 50, "sixes": 30}
    shaped.post(calculator.format("yahtzee"), {"dice": [6] * 5, "scorecard": card}, ScoreBody)
    shaped.post(calculator.format("ten-thousand"), {"dice": [1, 5, 2]}, ScoreBody)
    advice = "/api/v1/rulesets/forced-yatzy/advice/"
    shaped.post(advice, {"dice": None}, AdviceBody)
    shaped.post(advice, {"dice": [1, 1, 3, 4, 6], "rolls_left": 2}, AdviceBody)
    ten = "/api/v1/rulesets/ten-thousand/advice/"
    shaped.post(ten, {"totals": [0]}, TenThousandAdviceBody)
    shaped.post(ten, {"totals": [0, 50], "turn_points": 50, "dice": [1, 3]}, TenThousandAdviceBody)
    # A leaderboard of one unseeded game, played to the end (its answers are checked above).
    game = shaped.api.create(ruleset="forced-yatzy")
    while shaped.api.play_turn(game)["status"] == "active":
        pass
    shaped.get("/api/v1/leaderboard/?ruleset=forced-yatzy", list[LeaderboardEntryBody])
    problems = [
        shaped.post("/api/v1/games/", {"ruleset": "yahtzee"}, ProblemBody, 400),
        shaped.get("/api/v1/games/00000000-0000-4000-8000-000000000000/", ProblemBody, 404),
        shaped.get("/api/v1/nowhere", ProblemBody, 404),
        shaped.get(f"/api/v1/games/{game['id']}/hint/", ProblemBody, 409),
        shaped.get("/api/v1/leaderboard/?ruleset=chess", ProblemBody, 400),
        shaped.post("/api/v1/games/", {f"x{i}": 0 for i in range(9)}, ProblemBody, 400),
    ]
    assert any("errors" in problem for problem in problems)
    assert shaped.shapes.unseen() == {}


def test_a_body_that_drifts_from_its_shape_is_caught(api):
    game = api.create()
    check = ShapeCheck().check
    check(game, GameBody)
    drifted = [
        {**game, "extra": 1},
        {key: value for key, value in game.items() if key != "round"},
        {**game, "version": "4"},
        {**game, "round": None},
        {**game, "status": "paused"},
        {**game, "turn": {**game["turn"], "dice": [7, 1, 1, 1, 1]}},
        {**game, "players": [{**game["players"][0], "seat": True}]},
        {**game, "created_at": "yesterday"},
    ]
    for body in drifted:
        with pytest.raises(AssertionError):
            check(body, GameBody)


def test_the_schema_states_each_response_as_its_shape(client):
    components = client.get("/api/v1/schema/?format=json").json()["components"]["schemas"]
    serializers = {serializer.__name__: shape for shape, serializer in derived().items()}
    responses = {name for name in components if name.endswith("Out")}
    assert responses == set(serializers)  # no response is stated but by a shape
    for name, shape in serializers.items():
        keys = keys_of(shape)
        component = components[name]
        assert list(component["properties"]) == list(keys), name
        assert set(component.get("required", [])) == {k for k, (_, r) in keys.items() if r}
        for key, (value, _) in keys.items():
            stated = component["properties"][key]
            nullable = stated.get("nullable", False) or {"$ref": NULL} in stated.get("oneOf", [])
            assert nullable == value.nullable, f"{name}.{key}"


NULL = "#/components/schemas/NullEnum"


def test_every_example_of_an_answer_has_its_shape(client):
    """The docs' examples are written by hand: they must have the shapes too."""
    schema = client.get("/api/v1/schema/?format=json").json()
    shapes = {serializer.__name__: shape for shape, serializer in derived().items()}
    shapes["PaginatedGameOutList"] = GamesPageBody  # drf-spectacular's own page of games
    check = ShapeCheck()
    checked = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for response in operation["responses"].values():
                for content in response.get("content", {}).values():
                    stated = content.get("schema", {})
                    name = stated.get("items", stated).get("$ref", "").rsplit("/", 1)[-1]
                    if name not in shapes:
                        continue
                    shape = list[shapes[name]] if "items" in stated else shapes[name]
                    for title, example in content.get("examples", {}).items():
                        check.check(example["value"], shape, f"{method} {path}: {title}")
                        checked += 1
    assert checked >= 28
