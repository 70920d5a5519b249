"""A game's view (``Game.view``) is worked out once for the state the game holds, and anew
as soon as it holds another: a move's answer never shows the position before it."""

import random

from games.models import Game
from scoring import get_ruleset
from scoring.commands import Roll, Score


def test_the_view_follows_the_state_the_game_holds() -> None:
    ruleset = get_ruleset("yahtzee")
    options = ruleset.validate_options({})
    game = Game(
        ruleset="yahtzee", options=options, state=ruleset.new_state(seats=1, options=options)
    )
    first = game.view()
    assert game.view() is first  # the same state: not worked out again
    assert first.choices == {} and first.totals == [0]

    dice = random.Random(7)
    rolled = ruleset.move(game.state, seat=0, command=Roll(), options=options, rng=dice).state
    game.state = rolled
    after_roll = game.view()
    assert after_roll is not first and after_roll.choices  # the roll offers boxes now
    chance = sum(rolled["dice"])
    game.state = ruleset.move(
        rolled, seat=0, command=Score(category="chance"), options=options, rng=dice
    ).state
    assert game.view().totals == [chance]
