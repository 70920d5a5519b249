"""Ten Thousand head to head: ``python -m scoring.tenthousand.strategy.duel --games 2000 --seed 1``.

Run from the project's folder: the ``optimal`` player reads its solved tables from
``--folder`` (default ``$STRATEGY_DIR`` or ``strategy-tables``), building them if missing.

Plays seeded two-player games of ``--first`` (default ``optimal``) against ``--second``
(default ``classic``) through the engine, alternating who starts (even games: the first
level starts), and prints the first level's win rate with a 95% Wilson confidence
interval and the mean game length. A draw (only possible with ``--final-round``) counts
as half a win. Game ``g`` draws its dice from ``random.Random(f"{seed}:{g}")``.
"""

import argparse
import math
import os
import random
import statistics
import time
from pathlib import Path

from ...registry import get_ruleset
from ...strategy.selfplay import Game, play_game
from .players import TEN_THOUSAND_LEVELS

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound near 0 and 1, unlike p +- z se."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def duel(
    first: str, second: str, games: int, seed: int, options: dict, folder: Path
) -> list[tuple[int, Game]]:
    """(seat of ``first``, game) for each game; ``first`` sits at seat 0 in even games."""
    ruleset = get_ruleset("ten-thousand")
    played = []
    for g in range(games):
        seat = g % 2
        levels = [first, second] if seat == 0 else [second, first]
        rng = random.Random(f"{seed}:{g}")
        played.append(
            (seat, play_game(ruleset, levels, options=options, rng=rng, folder=folder))
        )
    return played


def score(seat: int, game: Game) -> float:
    """1 for a win, 1/2 for a shared win, 0 for a loss."""
    if seat not in game.winners:
        return 0.0
    return 1.0 / len(game.winners)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", choices=TEN_THOUSAND_LEVELS, default="optimal")
    parser.add_argument("--second", choices=TEN_THOUSAND_LEVELS, default="classic")
    parser.add_argument("--target", type=int, default=10000)
    parser.add_argument("--bank-minimum", type=int, default=350)
    parser.add_argument("--final-round", action="store_true")
    parser.add_argument(
        "--folder", type=Path, default=Path(os.environ.get("STRATEGY_DIR", "strategy-tables")),
        help="where the solved tables are read from (built there if missing)",
    )
    args = parser.parse_args()
    options = {
        "target": args.target, "bank_minimum": args.bank_minimum,
        "final_round": args.final_round,
    }
    started = time.perf_counter()
    played = duel(args.first, args.second, args.games, args.seed, options, args.folder)
    took = time.perf_counter() - started

    n = len(played)
    wins = sum(score(seat, game) for seat, game in played)
    low, high = wilson(wins, n)
    starting = [score(seat, game) for seat, game in played if seat == 0]
    replying = [score(seat, game) for seat, game in played if seat == 1]
    turns = [game.turns for _, game in played]
    rounds = [game.rounds for _, game in played]
    print(f"Ten Thousand, {args.first} against {args.second}: {n} games, seed {args.seed}, "
          f"options {options}")
    print(f"{args.first} win rate: {wins / n:.4f} ({wins:g} of {n}), "
          f"95% CI [{low:.4f}, {high:.4f}] (Wilson)")
    print(f"  when starting: {statistics.mean(starting):.4f} over {len(starting)} games; "
          f"when second: {statistics.mean(replying):.4f} over {len(replying)} games")
    first_seat = sum(score(0, game) for _, game in played)
    low0, high0 = wilson(first_seat, n)
    print(f"the first seat to throw won {first_seat / n:.4f} of the games, "
          f"95% CI [{low0:.4f}, {high0:.4f}]")
    print(f"mean game length: {statistics.mean(turns):.2f} turns (both players), "
          f"{statistics.mean(rounds):.2f} rounds; "
          f"mean moves {statistics.mean(game.moves for _, game in played):.1f}")
    verdict = "beats" if low > 0.5 else ("loses to" if high < 0.5 else "is not separated from")
    print(f"{args.first} {verdict} {args.second}: the interval lies "
          f"{'above' if low > 0.5 else 'below' if high < 0.5 else 'across'} 50%")
    print(f"({took:.1f} s)")


if __name__ == "__main__":
    main()
