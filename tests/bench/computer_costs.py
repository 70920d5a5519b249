"""What a computer seat's move costs a core, per ruleset and level: the figures behind the
weights of ``games.http.throttles`` (``move_weight``) and the computer budget's defaults
(docs/operations.md, "The computer budget").

    .venv/bin/python -m tests.bench.computer_costs [--games 5] [--folder DIR]
    DATABASE_URL=postgres://... .venv/bin/python -m tests.bench.computer_costs --requests

Plays whole games of computers only (the most seats the ruleset takes; Ten Thousand at the
target and bank minimum a game of computers only is held to), each with its own dice, and
times the processor (this thread's CPU time, so other work on the machine counts little).
By default it times the engine and the players alone (tables from ``--folder``); with
``--requests``, whole ``POST /api/v1/games/`` requests through Django's handler in this
process, on the settings' database and strategy tables (``DATABASE_URL``,
``STRATEGY_DIR``): the engine, the log's rows and the answer, the database server's own
work left out. Prints, per ruleset and level: the moves one game took on average, the
milliseconds of a core one move took on average and at most over the games' averages, a
whole game's milliseconds at most, and the weight the budget gives a move of that level.
A warm-up game of each comes first (tables loaded, caches warm), as the service loads
tables before it serves.
"""

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from scoring import get_ruleset
from scoring.commands import Command
from scoring.match import Match, Seat
from scoring.registry import RULESETS
from scoring.ruleset import Ruleset, State
from scoring.strategy.players import computer_command, levels_for
from scoring.tenthousand.rules import UNATTENDED_BANK_MINIMUM, UNATTENDED_TARGET, TenThousand


def unattended(ruleset_id: str) -> dict[str, Any]:
    """The options of the costliest game of computers only the service plays."""
    if isinstance(get_ruleset(ruleset_id), TenThousand):
        return {"target": UNATTENDED_TARGET, "bank_minimum": UNATTENDED_BANK_MINIMUM}
    return {}


# A game's figures: its computers' moves and this thread's processor milliseconds.
Played = tuple[int, float]


def engine(folder: str) -> Callable[[str, str, int], Played]:
    """Plays a game in the engine and the players alone."""
    moves = 0

    def counted(
        rules: Ruleset, state: State, level: str, options: Mapping[str, Any], rng: Any
    ) -> Command:
        nonlocal moves
        moves += 1
        return computer_command(rules, state, level, options, rng, folder=folder)

    def play(ruleset_id: str, level: str, seed: int) -> Played:
        nonlocal moves
        ruleset = get_ruleset(ruleset_id)
        seats = [Seat(f"Bot{i}", level) for i in range(ruleset.max_players)]
        match = Match(ruleset, ruleset.validate_options(unattended(ruleset_id)), seats, counted)
        moves, started = 0, time.thread_time()
        match.new(open_seats=0, dice=random.Random(seed), mind=random.Random(-seed))
        return moves, (time.thread_time() - started) * 1000

    return play


def requests() -> Callable[[str, str, int], Played]:
    """Plays a game as a whole ``POST /api/v1/games/`` through Django's WSGI handler in this
    process, on the settings' database: the engine's work plus the rows and the answer."""
    from django.core.wsgi import get_wsgi_application

    from games.play import services
    from tests.bench.move_profile import Player

    moves = 0

    def counted(*args: Any, **kwargs: Any) -> Command:
        nonlocal moves
        moves += 1
        return computer_command(*args, **kwargs)

    services.computer_command = counted  # type: ignore[assignment]  # counts, then plays
    client = Player(get_wsgi_application())

    def play(ruleset_id: str, level: str, seed: int) -> Played:
        nonlocal moves
        seats = get_ruleset(ruleset_id).max_players
        body = {"ruleset": ruleset_id, "options": unattended(ruleset_id), "seed": seed,
                "players": [{"name": f"Bot{i}", "computer": level} for i in range(seats)]}
        moves, started = 0, time.thread_time()
        client.call("/api/v1/games/", body)
        return moves, (time.thread_time() - started) * 1000

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--folder", default="strategy-tables", help="the strategy tables")
    parser.add_argument("--requests", action="store_true", help="whole requests")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["THROTTLE_CREATE"] = ""
    os.environ["THROTTLE_COMPUTERS"] = ""
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()
    from games.http.throttles import move_weight

    play = requests() if args.requests else engine(args.folder)
    print(f"{'8 seats':<16} {'level':<8} {'moves/game':>10} {'ms/move':>8} "
          f"{'max':>6} {'ms/game max':>11} {'weight':>6}")
    for ruleset_id in RULESETS:
        for level in levels_for(ruleset_id):
            play(ruleset_id, level, 10_000)  # tables loaded, caches warm
            games = [play(ruleset_id, level, seed) for seed in range(args.games)]
            per_move = [spent / moves for moves, spent in games]
            print(f"{ruleset_id:<16} {level:<8} {statistics.mean(m for m, _ in games):>10.0f} "
                  f"{statistics.mean(per_move):>8.2f} {max(per_move):>6.2f} "
                  f"{max(spent for _, spent in games):>11.0f} "
                  f"{move_weight(ruleset_id, level):>6}")
    mode = "--requests" if args.requests else f"--folder {args.folder}"
    print(f"rerun: .venv/bin/python -m tests.bench.computer_costs --games {args.games} {mode}")


if __name__ == "__main__":
    main()
