"""The answer to a Ten Thousand move that busts shows the throw that busted."""

import pytest


def bust_turn(api, game):
    """Play a solitaire game's turns until one busts; answer the move that busted."""
    for _ in range(200):
        answer = api.ok(game, "roll")
        while answer["turn"]["dice"] is not None:
            if "last_bust" in answer["turn"]:
                break
            turn = answer["turn"]
            free = [i for i, aside in enumerate(turn["set_aside"]) if not aside]
            ones = [i for i in free if turn["dice"][i] in (1, 5)]
            if not ones:  # a selection of three or more of a kind: pass instead
                answer = api.ok(game, "pass")
                break
            answer = api.ok(game, "roll", {"set_aside": ones[:1]})
        if "last_bust" in answer["turn"]:
            return answer
    pytest.fail("no throw busted")


def test_a_busting_roll_answers_the_busted_throw_and_the_points_lost(api):
    game = api.create(("Ann",), ruleset="ten-thousand", seed=4)
    answer = bust_turn(api, game)
    bust = answer["turn"]["last_bust"]
    assert answer["turn"]["dice"] is None  # the turn is over
    busted = [e for e in api.events(game) if e["type"] == "busted"][-1]
    assert bust["seat"] == busted["seat"]
    assert bust["lost"] == busted["data"]["lost"]
    assert [bust["dice"][i] for i in bust["thrown"]] == busted["data"]["dice"]
    assert len(bust["dice"]) == 6
    # A later read shows it too, until the game's next move drops it.
    assert api.get(game)["turn"]["last_bust"] == bust
    after = api.ok(game, "roll")
    assert "last_bust" not in after["turn"] or after["turn"]["dice"] is None


def test_box_games_show_no_bust(api):
    game = api.create()
    assert "last_bust" not in api.ok(game, "roll")["turn"]
