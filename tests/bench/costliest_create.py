"""The most work one ``POST /api/v1/games/`` may cause: a game of computers only, played to
its end within the request, at the largest options such a game may take.

    .venv/bin/python -m tests.bench.costliest_create [--games 20]

Eight seats of each Ten Thousand level, to the standard target and bank minimum (the most
a game of computers only takes), each game with its own dice; prints, per level, the most
events one game wrote and the longest time the engine took (the rows' writes come on top,
one bulk insert). Box games are bounded by their rounds: eight seats of Yahtzee are shown
for comparison.
"""

import argparse
import random
import time
from functools import partial

from scoring import get_ruleset
from scoring.match import Match, Seat
from scoring.strategy.players import computer_command, levels_for
from scoring.tenthousand.rules import UNATTENDED_BANK_MINIMUM, UNATTENDED_TARGET


def worst(ruleset_id: str, options: dict, level: str, games: int, folder: str) -> tuple[int, float]:
    ruleset = get_ruleset(ruleset_id)
    full = ruleset.validate_options(options)
    seats = [Seat(f"Bot{i}", level) for i in range(ruleset.max_players)]
    match = Match(ruleset, full, seats, partial(computer_command, folder=folder))
    most_events, most_seconds = 0, 0.0
    for seed in range(games):
        started = time.perf_counter()
        outcome = match.new(open_seats=0, dice=random.Random(seed), mind=random.Random(-seed))
        most_seconds = max(most_seconds, time.perf_counter() - started)
        most_events = max(most_events, len(outcome.events))
    return most_events, most_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--folder", default="strategy-tables", help="the strategy tables")
    args = parser.parse_args()
    options = {"target": UNATTENDED_TARGET, "bank_minimum": UNATTENDED_BANK_MINIMUM}
    print(f"{'game':<34} {'most events':>11} {'longest':>9}")
    for level in levels_for("ten-thousand"):
        events, seconds = worst("ten-thousand", options, level, args.games, args.folder)
        print(f"{'ten-thousand, 8 x ' + level:<34} {events:>11} {seconds:>8.3f}s")
    for level in ("random", "greedy"):
        events, seconds = worst("yahtzee", {}, level, args.games, args.folder)
        print(f"{'yahtzee, 8 x ' + level:<34} {events:>11} {seconds:>8.3f}s")
    print(f"rerun: .venv/bin/python -m tests.bench.costliest_create --games {args.games}")


if __name__ == "__main__":
    main()
