"""What a computer seat's move costs a core, per ruleset and level: the figures behind the
weights of ``games.http.costs`` and the computer budget's defaults (docs/operations.md).

    .venv/bin/python -m tests.bench.computer_costs [--games 5] [--folder DIR]

Plays whole games of computers only (the most seats the ruleset takes; Ten Thousand at the
target and bank minimum a game of computers only is held to), each with its own dice, and
times the processor (this thread's CPU time, so other work on the machine does not count)
spent in the engine and the players. Prints, per ruleset and level: the moves one game took
on average, the milliseconds of a core one move took on average and at most over the games'
averages, a whole game's milliseconds at most, and the weight ``games.http.costs`` gives a
move of that level. The first move of the ``optimal`` box players loads their table: run
once before to leave that out (the service loads tables before it serves).
"""

import argparse
import os
import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

from scoring import get_ruleset
from scoring.commands import Command
from scoring.match import Match, Seat
from scoring.registry import RULESETS
from scoring.ruleset import Ruleset, State
from scoring.strategy import computer_command, levels_for
from scoring.tenthousand import UNATTENDED_BANK_MINIMUM, UNATTENDED_TARGET, TenThousand


def measure(
    ruleset_id: str, level: str, games: int, folder: str
) -> tuple[float, list[float], float]:
    """Moves per game (mean), each game's CPU milliseconds per move, the longest game's ms."""
    ruleset = get_ruleset(ruleset_id)
    options: dict[str, Any] = {}
    if isinstance(ruleset, TenThousand):
        options = {"target": UNATTENDED_TARGET, "bank_minimum": UNATTENDED_BANK_MINIMUM}
    full = ruleset.validate_options(options)
    moves = 0

    def counted(
        rules: Ruleset, state: State, lvl: str, opts: Mapping[str, Any], rng: Any
    ) -> Command:
        nonlocal moves
        moves += 1
        return computer_command(rules, state, lvl, opts, rng, folder=folder)

    seats = [Seat(f"Bot{i}", level) for i in range(ruleset.max_players)]
    match = Match(ruleset, full, seats, counted)
    per_move, longest, counts = [], 0.0, []
    for seed in range(games):
        moves = 0
        started = time.thread_time()
        match.new(open_seats=0, dice=random.Random(seed), mind=random.Random(-seed))
        spent = (time.thread_time() - started) * 1000
        longest = max(longest, spent)
        per_move.append(spent / moves)
        counts.append(moves)
    return statistics.mean(counts), per_move, longest


def requests(games: int) -> None:
    """Whole ``POST /api/v1/games/`` requests of computers only, through Django's WSGI handler
    in this process, with the settings' database (``DATABASE_URL``): the engine's work plus
    the rows, the log and the answer."""
    from django.core.wsgi import get_wsgi_application

    from games.play import services
    from tests.bench.move_profile import Player

    moves = 0

    def counted(*args: Any, **kwargs: Any) -> Command:
        nonlocal moves
        moves += 1
        return computer_command(*args, **kwargs)

    services.computer_command = counted  # type: ignore[assignment]  # counts, then plays
    play = Player(get_wsgi_application())
    print(f"{'request, 8 seats':<16} {'level':<8} {'moves/game':>10} {'ms/move':>8} "
          f"{'max':>6} {'ms/game max':>11} {'weight':>6}")
    for ruleset_id in RULESETS:
        ruleset = get_ruleset(ruleset_id)
        options: dict[str, Any] = {}
        if isinstance(ruleset, TenThousand):
            options = {"target": UNATTENDED_TARGET, "bank_minimum": UNATTENDED_BANK_MINIMUM}
        for level in levels_for(ruleset_id):
            body = {"ruleset": ruleset_id, "options": options, "players": [
                {"name": f"Bot{i}", "computer": level} for i in range(ruleset.max_players)]}
            per_move, longest, counts = [], 0.0, []
            for seed in range(games + 1):  # the first warms up
                moves, started = 0, time.thread_time()
                play.call("/api/v1/games/", {**body, "seed": seed})
                spent = (time.thread_time() - started) * 1000
                if seed:
                    longest = max(longest, spent)
                    per_move.append(spent / moves)
                    counts.append(moves)
            print(f"{ruleset_id:<16} {level:<8} {statistics.mean(counts):>10.0f} "
                  f"{statistics.mean(per_move):>8.2f} {max(per_move):>6.2f} {longest:>11.0f} "
                  f"{_weight(ruleset_id, level):>6}")


def _weight(ruleset_id: str, level: str) -> int:
    from games.http.throttles import move_weight  # once Django is set up

    return move_weight(ruleset_id, level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--folder", default="strategy-tables", help="the strategy tables")
    parser.add_argument("--requests", action="store_true", help="whole requests (see requests)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["THROTTLE_CREATE"] = ""
    os.environ["THROTTLE_COMPUTERS"] = ""
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()
    if args.requests:
        requests(args.games)
        return
    print(f"{'ruleset, 8 seats':<16} {'level':<8} {'moves/game':>10} {'ms/move':>8} "
          f"{'max':>6} {'ms/game max':>11} {'weight':>6}")
    for ruleset_id in RULESETS:
        for level in levels_for(ruleset_id):
            measure(ruleset_id, level, 1, args.folder)  # tables loaded, caches warm
            moves, per_move, longest = measure(ruleset_id, level, args.games, args.folder)
            weight = _weight(ruleset_id, level)
            print(f"{ruleset_id:<16} {level:<8} {moves:>10.0f} {statistics.mean(per_move):>8.2f} "
                  f"{max(per_move):>6.2f} {longest:>11.0f} {weight:>6}")
    print(f"rerun: .venv/bin/python -m tests.bench.computer_costs --games {args.games} "
          f"--folder {args.folder}")


if __name__ == "__main__":
    main()
