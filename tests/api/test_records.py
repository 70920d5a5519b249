"""Verifiable dice and game records over HTTP (docs/contract.md, "Verifiable dice and records"):
the game's ``dice``, the client seed, the secret kept hidden until the end, the record, its
check, and the README's stand-alone verifier run on records of whole games."""

import copy
import hashlib
import hmac
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from scoring.verifiable import seeded_secret

from .conftest import assert_problem
from .playing import play_box_turn, play_to_end

README = Path(__file__).resolve().parents[2] / "README.md"

# (ruleset, options, players, seed): persons and computers, seeded and not, every ruleset.
WHOLE_GAMES = {
    "yahtzee-two-persons": ("yahtzee", {}, [{"name": "Ann"}, {"name": "Ben"}], None),
    "yahtzee-person-and-computer": (
        "yahtzee", {"joker": "free"}, [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}], 3
    ),
    "yatzy-with-random-computer": (
        "yatzy", {}, [{"name": "Bot", "computer": "random"}, {"name": "Ann"}], None
    ),
    "forced-yatzy-seeded": ("forced-yatzy", {}, [{"name": "Ann"}], 7),
    "maxi-yatzy": (
        "maxi-yatzy", {}, [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}], None
    ),
    "ten-thousand-person-and-computer": (
        "ten-thousand", {"target": 1500}, [{"name": "Ann"}, {"name": "Bot", "computer": "classic"}],
        None,
    ),
    "ten-thousand-computers-only": (
        "ten-thousand", {"target": 3000, "final_round": True},
        [{"name": "A", "computer": "random"}, {"name": "B", "computer": "greedy"}], 11,
    ),
}


def reference_face(secret: bytes, client_seed: str, *where: int) -> int:
    """docs/contract.md's derivation, written out again here."""
    message = ":".join([client_seed, *map(str, where)])
    retry = 0
    while True:
        suffix = f":{retry}" if retry else ""
        for byte in hmac.new(secret, (message + suffix).encode(), hashlib.sha256).digest():
            if byte < 252:
                return 1 + byte % 6
        retry += 1


def create(api, ruleset: str, options: dict, players: list, seed, **more) -> dict:
    body = {"ruleset": ruleset, "options": options, "players": players, "seed": seed, **more}
    response = api.client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def whole_game(api, name: str, **more) -> tuple[dict, dict]:
    """A game of ``WHOLE_GAMES`` played to its end: its creation answer and its record."""
    ruleset, options, players, seed = WHOLE_GAMES[name]
    game = create(api, ruleset, options, players, seed, **more)
    play_to_end(api, game, random.Random(name))
    return game, record_of(api, game)


def record_of(api, game: dict) -> dict:
    response = api.client.get(f"/api/v1/games/{game['id']}/record/")
    assert response.status_code == 200
    return response.json()


def verify(api, record: object):
    return api.client.post("/api/v1/records/verify/", record, format="json")


def verdict(api, record: object) -> dict:
    response = verify(api, record)
    assert response.status_code == 200, response.content
    return response.json()


def thrown_dice(record: dict) -> int:
    return sum(len(e["data"]["thrown"]) for e in record["events"] if e["type"] == "rolled")


# -- the game's dice -------------------------------------------------------------------------


def test_a_new_game_commits_to_a_secret_it_does_not_show(api):
    game = api.create()
    assert game["dice"]["algorithm"] == "hmac-sha256-v1"
    assert re.fullmatch(r"[0-9a-f]{64}", game["dice"]["commitment"])
    assert re.fullmatch(r"[0-9a-f]{16}", game["dice"]["client_seed"])
    assert game["dice"]["secret"] is None
    assert api.ok(game, "roll")["dice"] == game["dice"]


def test_every_die_of_a_game_comes_from_the_secret_it_committed_to(api):
    game, record = whole_game(api, "yahtzee-two-persons")
    dice = record["dice"]
    secret = bytes.fromhex(dice["secret"])
    assert hashlib.sha256(secret).hexdigest() == dice["commitment"] == game["dice"]["commitment"]
    turns, throws = [0, 0], [0, 0]
    for event in record["events"]:
        seat = event["seat"]
        if event["type"] == "rolled":
            for position in event["data"]["thrown"]:
                face = reference_face(
                    secret, dice["client_seed"], seat, turns[seat], throws[seat], position
                )
                assert event["data"]["dice"][position] == face
            throws[seat] += 1
        elif event["type"] in ("scored", "scratched"):
            turns[seat], throws[seat] = turns[seat] + 1, 0
    assert turns == [13, 13]


def test_the_secret_is_shown_once_the_game_is_abandoned(api):
    game = api.create(("Ann", "Ben"))
    api.ok(game, "roll")
    assert api.get(game)["dice"]["secret"] is None
    api.ok(game, "leave")  # Ben alone: the game goes on
    assert api.get(game)["dice"]["secret"] is None
    Game.objects.filter(pk=game["id"]).update(status="abandoned")
    secret = api.get(game)["dice"]["secret"]
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == game["dice"]["commitment"]


@pytest.mark.parametrize("client_seed", ["a", "table 7", "~!#$%^&*()_+{}|<>?", "x" * 64])
def test_a_client_seed_goes_into_every_die(api, client_seed):
    game = api.create(seed=5, client_seed=client_seed)
    assert game["dice"]["client_seed"] == client_seed
    first = api.ok(game, "roll")["turn"]["dice"]
    secret = seeded_secret(5)
    assert first == [reference_face(secret, client_seed, 0, 0, 0, p) for p in range(5)]


@pytest.mark.parametrize(
    "client_seed",
    ["", "x" * 65, "a:b", "é", "tab\there", "new\nline", 7, ["a"], {"a": 1}, True],
    ids=["empty", "too-long", "colon", "non-ascii", "tab", "newline", "number", "list",
         "object", "boolean"],
)
def test_a_client_seed_out_of_form_is_refused_and_nothing_is_created(api, client_seed):
    before = Game.objects.count()
    response = api.client.post(
        "/api/v1/games/",
        {"ruleset": "yahtzee", "players": [{"name": "Ann"}], "client_seed": client_seed},
        format="json",
    )
    body = assert_problem(response, 400, "invalid")
    assert body["errors"][0]["field"] == "client_seed"
    assert Game.objects.count() == before


def test_seeded_games_stay_reproducible(api):
    first, second = api.create(seed=42), api.create(seed=42)
    assert first["dice"] == second["dice"]
    assert first["dice"]["commitment"] == hashlib.sha256(seeded_secret(42)).hexdigest()
    for game in (first, second):
        api.ok(game, "roll")
        api.ok(game, "roll", {"hold": [0, 2]})
    assert api.get(first)["turn"] == api.get(second)["turn"]
    assert api.create(seed=43)["dice"]["commitment"] != first["dice"]["commitment"]


def test_the_same_secret_gives_the_same_faces_whatever_was_held(api):
    """Two games of one seed: whatever each holds, a die thrown at the same place in both
    shows the same face in both."""
    games = [api.create(seed=9), api.create(seed=9)]
    holds = ([0, 1], [3])
    shown = [api.ok(game, "roll")["turn"]["dice"] for game in games]
    assert shown[0] == shown[1]
    second = [
        api.ok(g, "roll", {"hold": h})["turn"]["dice"] for g, h in zip(games, holds, strict=True)
    ]
    for position in range(5):
        if position not in holds[0] and position not in holds[1]:
            assert second[0][position] == second[1][position]
    assert second[0][0:2] == shown[0][0:2] and second[1][3] == shown[1][3]


def test_a_game_created_before_the_derived_dice_keeps_playing(api):
    """The migration marks the games already stored "legacy": they keep their drawn dice."""
    game = api.create(("Ann", "Ben"), seed=4)
    Game.objects.filter(pk=game["id"]).update(dice_algorithm="legacy", dice_secret="",
                                               client_seed="")
    rolled = api.ok(game, "roll")
    assert rolled["dice"] == {
        "algorithm": "legacy", "commitment": None, "client_seed": None, "secret": None
    }
    assert all(1 <= face <= 6 for face in rolled["turn"]["dice"])
    api.ok(game, "score", {"category": next(iter(rolled["choices"]))})
    checked = verdict(api, record_of(api, game))
    assert checked == {"valid": True, "checked": {"dice": "unchecked", "moves": 2}}


# -- the secret stays hidden ---------------------------------------------------------------


@pytest.mark.slow
def test_no_answer_or_admin_page_shows_the_secret_before_the_end(api, client, caplog):
    caplog.set_level("DEBUG")
    admin = get_user_model().objects.create_superuser("admin", "a@example.com", "pw")
    client.force_login(admin)
    ruleset, options, players, _ = WHOLE_GAMES["yahtzee-person-and-computer"]
    game = create(api, ruleset, options, players, None)
    secret = Game.objects.get(pk=game["id"]).dice_secret
    base = f"/api/v1/games/{game['id']}"
    pages = [
        f"{base}/", f"{base}/events/", f"{base}/record/", f"{base}/record/?download=1",
        f"{base}/hint/", "/api/v1/games/", f"/admin/games/game/{game['id']}/change/",
        "/admin/games/game/", f"/admin/games/game/?q={game['id']}",
    ]
    seen = [json.dumps(game)]
    shown, rng = game, random.Random(1)
    while shown["status"] == "active":
        seen.extend(client.get(page).content.decode() for page in pages)
        shown = play_box_turn(api, game, shown, rng)
        if shown["status"] == "active":
            seen.append(json.dumps(shown))
    assert len(seen) > 100
    assert not any(secret in text for text in seen)
    assert not any(secret in record.getMessage() for record in caplog.records)
    assert shown["dice"]["secret"] == secret
    assert secret in client.get(f"{base}/record/").content.decode()
    assert secret in client.get(f"/admin/games/game/{game['id']}/change/").content.decode()


# -- the record ------------------------------------------------------------------------------


def test_a_record_holds_the_whole_game(api, django_assert_num_queries):
    game, record = whole_game(api, "maxi-yatzy")
    final = api.get(game)
    with django_assert_num_queries(3):
        api.client.get(f"/api/v1/games/{game['id']}/record/")
    assert record["format"] == "dice-games-record/1"
    assert record["id"] == game["id"] and record["ruleset"] == "maxi-yatzy"
    assert record["options"] == final["options"]
    assert record["players"] == [
        {"seat": 0, "name": "Ann", "computer": None},
        {"seat": 1, "name": "Bot", "computer": "greedy"},
    ]
    assert record["dice"] == final["dice"] and record["dice"]["secret"]
    assert record["events"] == api.events(game)
    assert record["status"] == "finished"
    assert record["totals"] == [p["total"] for p in final["players"]]
    assert record["winners"] == final["winners"]


def test_a_record_downloads_as_a_file(api):
    game = api.create()
    response = api.client.get(f"/api/v1/games/{game['id']}/record/?download=1")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="game-{game["id"]}.json"'
    plain = api.client.get(f"/api/v1/games/{game['id']}/record/")
    assert "Content-Disposition" not in plain


def test_the_record_of_no_game_is_not_found(api):
    missing = "00000000-0000-0000-0000-000000000000"
    assert_problem(api.client.get(f"/api/v1/games/{missing}/record/"), 404, "not_found")
    assert api.client.get("/api/v1/games/not-a-uuid/record/").status_code == 404


# -- checking records ------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(WHOLE_GAMES))
def test_whole_games_of_every_ruleset_verify(api, name, tmp_path):
    _game, record = whole_game(api, name)
    assert record["status"] == "finished" and record["dice"]["secret"]
    # A move writes one of these first (a Ten Thousand bank or throw after a selection
    # writes set_aside, then banked or rolled).
    moves = sum(
        e["type"] in {"held", "scored", "scratched", "passed", "set_aside"}
        or (e["type"] == "rolled" and not _after_set_aside(record, e))
        for e in record["events"]
    )
    assert verdict(api, record) == {
        "valid": True, "checked": {"dice": thrown_dice(record), "moves": moves}
    }
    said = f"ok: {thrown_dice(record)} dice match the secret"
    assert run_readme_verifier(record, tmp_path) == (0, said)


def _after_set_aside(record: dict, event: dict) -> bool:
    return event["seq"] > 1 and record["events"][event["seq"] - 2]["type"] == "set_aside"


def test_a_game_still_played_verifies_its_moves_only(api):
    game = api.create(("Ann", "Ben"))
    api.ok(game, "roll")
    api.ok(game, "roll", {"hold": [1]})
    api.ok(game, "hold", {"hold": [2, 3]})
    record = record_of(api, game)
    assert record["dice"]["secret"] is None and record["status"] == "active"
    assert verdict(api, record) == {"valid": True, "checked": {"dice": "unchecked", "moves": 3}}


def finished(api, name: str) -> dict:
    return whole_game(api, name)[1]


def first_event(record: dict, kind: str, **where) -> dict:
    return next(
        e for e in record["events"]
        if e["type"] == kind and all(e["data"].get(k) == v for k, v in where.items())
    )


def problems(api, record: dict) -> list[dict]:
    answer = verdict(api, record)
    assert answer["valid"] is False and "checked" not in answer
    return answer["problems"]


def test_a_changed_die_is_found(api):
    record = finished(api, "yahtzee-two-persons")
    rolled = first_event(record, "rolled")
    position = rolled["data"]["thrown"][0]
    rolled["data"]["dice"][position] = rolled["data"]["dice"][position] % 6 + 1
    assert problems(api, record)[0]["code"] == "die_mismatch"
    assert problems(api, record)[0]["seq"] == rolled["seq"]


def test_a_changed_die_in_a_game_not_over_breaks_its_moves(api):
    """Without the secret a die cannot be checked, but the score it gave can."""
    game = api.create()
    rolled = api.ok(game, "roll")
    box = max(rolled["choices"], key=lambda b: rolled["choices"][b])
    api.ok(game, "score", {"category": box})
    record = record_of(api, game)
    record["events"][1]["data"]["dice"] = [6, 6, 6, 6, 6]
    assert record["events"][1]["data"]["dice"] != rolled["turn"]["dice"]
    found = problems(api, record)[0]
    assert found["seq"] == 3 and found["code"] in {"score_mismatch", "die_mismatch"}


@pytest.mark.parametrize(
    "name", ["yahtzee-person-and-computer", "ten-thousand-person-and-computer"]
)
def test_a_changed_score_is_found(api, name):
    record = finished(api, name)
    kind = "banked" if "ten-thousand" in name else "scored"
    event = next(e for e in record["events"] if e["type"] == kind and e["data"]["points"] > 0)
    event["data"]["points"] += 50
    assert problems(api, record)[0] == {
        "seq": event["seq"], "code": "score_mismatch", "detail": problems(api, record)[0]["detail"]
    }


@pytest.mark.parametrize("field", ["totals", "winners"])
def test_changed_totals_or_winners_are_found(api, field):
    record = finished(api, "ten-thousand-computers-only")
    record[field] = [0, 0] if field == "totals" else [1 - record["winners"][0]]
    assert [(p["seq"], p["code"]) for p in problems(api, record)] == [(None, "total_mismatch")]


@pytest.mark.parametrize("field", ["totals", "winners"])
def test_changed_totals_or_winners_in_the_log_are_found(api, field):
    record = finished(api, "yatzy-with-random-computer")
    end = record["events"][-1]
    assert end["type"] == "finished"
    end["data"][field] = [7] * len(end["data"][field])
    assert [(p["seq"], p["code"]) for p in problems(api, record)] == [
        (end["seq"], "total_mismatch")
    ]


@pytest.mark.parametrize("part", ["secret", "commitment"])
def test_a_changed_secret_or_commitment_is_found(api, part):
    record = finished(api, "forced-yatzy-seeded")
    shown = record["dice"][part]
    record["dice"][part] = ("0" if shown[0] != "0" else "1") + shown[1:]
    assert problems(api, record)[0] == {
        "seq": None, "code": "commitment_mismatch",
        "detail": "the secret's SHA-256 is not the commitment",
    }


def test_a_move_against_the_rules_is_found(api):
    record = finished(api, "yahtzee-two-persons")
    scored = [e for e in record["events"] if e["type"] in ("scored", "scratched")]
    first, later = scored[0], next(e for e in scored if e["seat"] == scored[0]["seat"]
                                   and e is not scored[0])
    later["data"]["category"] = first["data"]["category"]  # a box filled twice
    assert problems(api, record)[0]["seq"] == later["seq"]
    assert problems(api, record)[0]["code"] == "illegal_move"


def test_a_thirty_first_hold_in_a_turn_is_found(api):
    record = finished(api, "yahtzee-two-persons")
    rolled = first_event(record, "rolled")
    index = record["events"].index(rolled)
    holds = [
        {"seq": 0, "type": "held", "seat": rolled["seat"], "data": {"held": [0]},
         "created_at": rolled["created_at"]}
        for _ in range(31)
    ]
    record["events"][index + 1:index + 1] = holds
    for seq, event in enumerate(record["events"], start=1):
        event["seq"] = seq
    found = problems(api, record)[0]
    assert (found["seq"], found["code"]) == (holds[-1]["seq"], "illegal_move")
    assert "30 hold" in found["detail"]


def test_a_move_out_of_turn_is_found(api):
    record = finished(api, "yahtzee-two-persons")
    rolled = first_event(record, "rolled")
    rolled["seat"] = 1
    found = problems(api, record)[0]
    assert (found["seq"], found["code"]) == (rolled["seq"], "illegal_move")


@pytest.mark.parametrize(
    "change",
    ["a gap in the log", "options out of range", "seats out of order", "a seat that is not"],
)
def test_what_the_types_cannot_say_is_a_problem_not_a_refusal(api, change):
    record = finished(api, "yahtzee-two-persons")
    if change == "a gap in the log":
        record["events"][3]["seq"] = 40
    elif change == "options out of range":
        record["options"]["joker"] = "sometimes"
    elif change == "seats out of order":
        record["players"][1]["seat"] = 0
    else:
        first_event(record, "rolled")["seat"] = -1
    assert problems(api, record)[0]["code"] == "illegal_move"


def test_a_changed_status_is_found(api):
    record = finished(api, "maxi-yatzy")
    record["status"] = "active"
    assert [p["code"] for p in problems(api, record)] == ["status_mismatch"]


def test_a_record_with_its_secret_verifies_after_a_json_round_trip(api):
    record = finished(api, "ten-thousand-computers-only")
    again = json.loads(json.dumps(record, indent=2, sort_keys=True))
    assert verdict(api, again)["valid"] is True


# -- what is not a record --------------------------------------------------------------------


def _malformed(record: dict) -> dict[str, object]:
    def without(key: str) -> dict:
        changed = copy.deepcopy(record)
        del changed[key]
        return changed

    def changed(path: tuple, value: object) -> dict:
        altered = copy.deepcopy(record)
        target = altered
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
        return altered

    return {
        "a list": [record],
        "a number": 7,
        "no format": without("format"),
        "another format": changed(("format",), "dice-games-record/2"),
        "no events": without("events"),
        "events not a list": changed(("events",), {"1": {}}),
        "an event not an object": changed(("events", 0), "created"),
        "a seq not a number": changed(("events", 1, "seq"), "2"),
        "an event without data": changed(("events", 1, "data"), None),
        "an unknown ruleset": changed(("ruleset",), "poker"),
        "options not an object": changed(("options",), ["joker"]),
        "a player without computer": changed(("players", 0), {"seat": 0, "name": "Ann"}),
        "players not a list": changed(("players",), "Ann"),
        "dice not an object": changed(("dice",), None),
        "an unknown algorithm": changed(("dice", "algorithm"), "md5"),
        "a bad client seed": changed(("dice", "client_seed"), "a:b"),
        "status unknown": changed(("status",), "won"),
        "totals not numbers": changed(("totals",), ["a"]),
    }


def test_what_is_not_a_record_is_refused(api):
    record = finished(api, "yahtzee-two-persons")
    for name, document in _malformed(record).items():
        response = verify(api, document)
        assert response.status_code == 400, name
        assert_problem(response, 400, "invalid")


@pytest.mark.parametrize(
    "body, code",
    [(b"{not json", "parse_error"), (b"", "invalid"), (b'"record"', "invalid")],
    ids=["not-json", "empty", "a-string"],
)
def test_a_body_that_is_no_record_is_refused(api, body, code):
    response = api.client.post(
        "/api/v1/records/verify/", body, content_type="application/json"
    )
    assert_problem(response, 400, code)


def test_a_record_over_a_megabyte_is_refused_unread(api):
    record = finished(api, "yahtzee-two-persons")
    record["padding"] = "x" * 1_000_000
    response = verify(api, record)
    body = assert_problem(response, 400, "invalid")
    assert "1000000 bytes" in body["detail"]


# -- the README's verifier -------------------------------------------------------------------


def readme_verifier() -> str:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"<!-- verifier: begin -->\n```python\n(.*?)```\n<!-- verifier: end -->",
                      text, re.DOTALL)
    assert block, "the README's verifier is marked <!-- verifier: begin/end -->"
    return block.group(1)


def run_readme_verifier(record: dict, folder: Path) -> tuple[int, str]:
    script, saved = folder / "verify_record.py", folder / "game.json"
    script.write_text(readme_verifier(), encoding="utf-8")
    saved.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(script), str(saved)], capture_output=True, text=True,
        timeout=60,
    )
    return done.returncode, done.stdout.strip()


def test_the_readme_verifier_is_short_and_uses_the_standard_library_only():
    code = readme_verifier()
    assert len(code.splitlines()) < 60
    imported = set(re.findall(r"^import (\w+)|^from (\w+)", code, re.MULTILINE))
    assert {name for pair in imported for name in pair if name} <= {
        "hashlib", "hmac", "json", "sys"
    }


def test_the_readme_verifier_finds_a_changed_die(api, tmp_path):
    record = finished(api, "ten-thousand-person-and-computer")
    rolled = [e for e in record["events"] if e["type"] == "rolled"][-1]
    position = rolled["data"]["thrown"][-1]
    rolled["data"]["dice"][position] = rolled["data"]["dice"][position] % 6 + 1
    code, said = run_readme_verifier(record, tmp_path)
    assert code == 1 and said.startswith(f"event {rolled['seq']}: die {position} should show")
