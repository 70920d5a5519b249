"""Playing Yahtzee over HTTP: the moves and the rule errors they give."""

import pytest

from .conftest import assert_problem


def test_the_first_roll_throws_all_five_dice(api):
    game = api.ok(api.create(), "roll")
    assert len(game["turn"]["dice"]) == 5 and all(1 <= d <= 6 for d in game["turn"]["dice"])
    assert game["turn"]["rolls_used"] == 1 and game["turn"]["rolls_left"] == 2
    assert set(game["choices"]) == set(game["players"][0]["scorecard"])
    event = api.events(game)[-1]
    assert event["type"] == "rolled" and event["seat"] == 0
    assert event["data"] == {"dice": game["turn"]["dice"], "thrown": [0, 1, 2, 3, 4]}


def test_held_dice_keep_their_faces(api):
    game = api.create()
    first = api.ok(game, "roll")["turn"]["dice"]
    second = api.ok(game, "roll", {"hold": [1, 3]})
    assert second["turn"]["held"] == [False, True, False, True, False]
    assert [second["turn"]["dice"][i] for i in (1, 3)] == [first[1], first[3]]
    assert api.events(game)[-1]["data"]["thrown"] == [0, 2, 4]


def test_hold_sets_exactly_the_held_dice(api):
    game = api.create()
    api.ok(game, "roll")
    api.ok(game, "hold", {"hold": [0, 4]})
    held = api.ok(game, "hold", {"hold": [2]})
    assert held["turn"]["held"] == [False, False, True, False, False]
    assert api.events(game)[-1] == {**api.events(game)[-1], "type": "held", "data": {"held": [2]}}


def test_the_thirty_first_hold_of_a_turn_is_refused_and_changes_nothing(api):
    game = api.create()
    api.ok(game, "roll")
    for count in range(30):
        api.ok(game, "hold", {"hold": [count % 5]})
    before, log = api.get(game), api.events(game)
    assert_problem(api.move(game, "hold", {"hold": [1]}), 409, "too_many_holds")
    assert api.get(game) == before and api.events(game) == log
    assert api.ok(game, "roll")["turn"]["rolls_used"] == 2


def test_scoring_fills_the_box_and_passes_the_turn(api):
    game = api.create(("Ann", "Ben"))
    rolled = api.ok(game, "roll")
    box, points = next(iter(rolled["choices"].items()))
    scored = api.ok(game, "score", {"category": box})
    assert scored["players"][0]["scorecard"][box] == points
    assert scored["current_seat"] == 1 and scored["round"] == 1
    assert scored["turn"]["dice"] is None and scored["choices"] == {}
    event = api.events(game)[-1]
    assert event["type"] == "scored" and event["seat"] == 0
    assert event["data"] == {
        "category": box,
        "points": points,
        "dice": rolled["turn"]["dice"],
        "yahtzee_bonus": 0,
    }


def test_scratching_fills_the_box_with_zero(api):
    game = api.create()
    api.ok(game, "roll")
    scratched = api.ok(game, "scratch", {"category": "chance"})
    assert scratched["players"][0]["scorecard"]["chance"] == 0
    assert api.events(game)[-1]["type"] == "scratched"


def test_a_solitaire_game_ends_after_thirteen_turns(api):
    game = api.create()
    for _ in range(13):
        last = api.play_turn(game)
    assert last["status"] == "finished" and last["finished_at"]
    assert last["winners"] == [0] and last["current_seat"] is None
    card = last["players"][0]
    assert all(v is not None for v in card["scorecard"].values())
    upper = sum(card["scorecard"][b] for b in ("ones", "twos", "threes", "fours", "fives", "sixes"))
    assert card["upper_total"] == upper
    assert (
        card["total"]
        == sum(card["scorecard"].values()) + card["upper_bonus"] + card["yahtzee_bonus"]
    )
    finished = api.events(game)[-1]
    assert finished["type"] == "finished"
    assert finished["data"] == {"winners": [0], "totals": [card["total"]]}
    assert_problem(api.move(game, "roll"), 409, "game_not_active")


def test_seats_play_in_turn_and_rounds_advance(api):
    game = api.create(("Ann", "Ben", "Cleo"))
    for seat in range(3):
        assert api.get(game)["current_seat"] == seat
        api.play_turn(game, seat=seat)
    after = api.get(game)
    assert after["round"] == 2 and after["current_seat"] == 0


def test_a_multi_seat_game_finishes_with_every_box_filled(api):
    from games.models import Player, ScoreEntry

    game = api.create(("Ann", "Ben"), seed=3)
    for _ in range(13):
        for seat in (0, 1):
            last = api.play_turn(game, seat=seat)
    assert last["status"] == "finished"
    totals = [p["total"] for p in last["players"]]
    assert last["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    assert ScoreEntry.objects.filter(game_id=game["id"]).count() == 26
    assert [p.total for p in Player.objects.filter(game_id=game["id"]).order_by("seat")] == totals


def test_another_seats_token_cannot_move_out_of_turn(api):
    game = api.create(("Ann", "Ben"))
    assert_problem(api.move(game, "roll", seat=1), 409, "not_your_turn")


@pytest.mark.parametrize(
    ("action", "body", "status", "code"),
    [
        ("hold", {"hold": [0]}, 409, "roll_first"),
        ("roll", {"hold": [0]}, 409, "roll_first"),
        ("score", {"category": "chance"}, 409, "roll_first"),
        ("scratch", {"category": "chance"}, 409, "roll_first"),
        ("score", {"category": "bingo"}, 400, "unknown_category"),
        ("score", {}, 400, "unknown_category"),
        ("roll", {"hold": [5]}, 400, "invalid_dice"),
        ("roll", {"hold": [-1]}, 400, "invalid_dice"),
        ("roll", {"hold": [1, 1]}, 400, "invalid_dice"),
        ("roll", {"hold": "01"}, 400, "invalid_dice"),
        ("hold", {"hold": ["a"]}, 400, "invalid_dice"),
        ("bank", {"set_aside": [0]}, 400, "invalid"),
        ("pass", {}, 400, "invalid"),
    ],
)
def test_refused_moves_before_the_first_roll(api, action, body, status, code):
    game = api.create()
    assert_problem(api.move(game, action, body), status, code)
    assert api.get(game)["version"] == 1
    assert [e["type"] for e in api.events(game)] == ["created"]


def test_a_fourth_roll_is_refused(api):
    game = api.create()
    for _ in range(3):
        api.ok(game, "roll")
    assert_problem(api.move(game, "roll"), 409, "no_rolls_left")


def test_a_filled_box_cannot_be_filled_again(api):
    game = api.create()
    api.ok(game, "roll")
    api.ok(game, "scratch", {"category": "chance"})
    api.ok(game, "roll")
    assert_problem(api.move(game, "score", {"category": "chance"}), 409, "category_filled")
    assert_problem(api.move(game, "scratch", {"category": "chance"}), 409, "category_filled")


def test_a_refused_move_changes_nothing(api):
    game = api.create()
    api.ok(game, "roll")
    before, log = api.get(game), api.events(game)
    for action, body in [
        ("hold", {"hold": [7]}),
        ("score", {"category": "nope"}),
        ("roll", {"hold": [0, 0]}),
    ]:
        assert api.move(game, action, body).status_code == 400
    assert api.get(game) == before and api.events(game) == log


@pytest.mark.parametrize(
    ("header", "code"),
    [
        (None, "not_authenticated"),
        ("Bearer wrong", "invalid_token"),
        ("Basic abc", "invalid_token"),
        ("Bearer", "invalid_token"),
        ("Bearer a b", "invalid_token"),
    ],
)
def test_moves_need_the_seat_token(api, header, code):
    game = api.create()
    extra = {} if header is None else {"HTTP_AUTHORIZATION": header}
    response = api.client.post(f"/api/v1/games/{game['id']}/roll/", {}, format="json", **extra)
    assert_problem(response, 401, code)
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert api.get(game)["version"] == 1


def test_a_token_of_another_game_is_refused(api):
    game, other = api.create(), api.create()
    assert_problem(api.move(game, "roll", token=other["players"][0]["token"]), 401, "invalid_token")


def test_the_same_seed_and_moves_give_the_same_dice(api):
    def play(seed: int) -> list[list[int]]:
        game = api.create(seed=seed)
        dice = [
            api.ok(game, "roll")["turn"]["dice"],
            api.ok(game, "roll", {"hold": [0]})["turn"]["dice"],
        ]
        api.ok(game, "scratch", {"category": "chance"})
        dice.append(api.ok(game, "roll")["turn"]["dice"])
        return dice

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_the_log_replays_every_filled_box(api):
    game = api.create(("Ann", "Ben"))
    for seat in (0, 1, 0):
        last = api.play_turn(game, seat=seat)
    cards: dict[int, dict[str, int]] = {0: {}, 1: {}}
    for event in api.events(game):
        if event["type"] in ("scored", "scratched"):
            cards[event["seat"]][event["data"]["category"]] = event["data"]["points"]
    for seat, player in enumerate(last["players"]):
        filled = {k: v for k, v in player["scorecard"].items() if v is not None}
        assert filled == cards[seat]


def test_events_page_with_after(api):
    game = api.create()
    api.ok(game, "roll")
    api.ok(game, "roll")
    log = api.events(game)
    assert [e["seq"] for e in log] == [1, 2, 3]
    assert [e["seq"] for e in api.events(game, after=2)] == [3]
    assert log[0]["type"] == "created" and log[0]["data"]["players"][0]["name"] == "Ann"
    limited = api.client.get(f"/api/v1/games/{game['id']}/events/?limit=1").json()
    assert [e["seq"] for e in limited] == [1]
    assert_problem(api.client.get(f"/api/v1/games/{game['id']}/events/?after=x"), 400, "invalid")
