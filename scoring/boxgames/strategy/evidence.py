"""Does the optimal box player score what the solver promises?

    python -m scoring.boxgames.strategy.evidence --ruleset yahtzee --games 1000 --seed 1
    python -m scoring.boxgames.strategy.evidence --ruleset yahtzee --option joker=free
    python -m scoring.boxgames.strategy.evidence --games 1000 --levels random greedy optimal

Plays seeded solitaire games with the ``optimal`` computer through the engine and prints
the mean final score, its standard deviation and standard error, the published expected
score for these rules (where one is published) and whether the mean lies within three
standard errors of it. Game ``g`` draws its dice from ``random.Random(f"{seed}:{g}")``.

With ``--levels`` it plays as many solitaire games with each computer level given and
analyses every game (:mod:`.analysis`): per level the mean score, the mean expected loss,
the mean accuracy, the share of decisions per label and the mean luck. The optimal player
must lose nothing, and its mean must lie within three standard errors of the expected
start value (the table's own promise, published or not).

Tables are read from (or, the first time, built into) ``--folder``; by default a folder
in the system's temporary directory, so that later runs skip the few seconds of solving.
"""

import argparse
import math
import random
import statistics
import tempfile
import time
from pathlib import Path

from ...registry import get_ruleset
from ...ruleset import Ruleset
from ...state import OptionValue
from ...strategy.players import BOX_LEVELS
from ...strategy.selfplay import play_game
from .analysis import LABELS, analyse_with
from .api import load_strategy
from .model import SUPPORTED

# Published expected final scores of optimal solitaire play (docs/games/yahtzee.md,
# docs/games/yatzy.md), by ruleset and full options.
PUBLISHED: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], float] = {
    ("yahtzee", (("joker", "forced"), ("yahtzee_bonus", "unlimited"))): 254.5877,
    ("yahtzee", (("joker", "free"), ("yahtzee_bonus", "unlimited"))): 254.5896,
    ("yahtzee", (("joker", "none"), ("yahtzee_bonus", "none"))): 245.8708,
    ("yatzy", ()): 248.4400,
    ("forced-yatzy", ()): 122.5585,
}
DEFAULT_FOLDER = Path(tempfile.gettempdir()) / "dice-strategy-tables"


def published(ruleset_id: str, options: dict[str, OptionValue]) -> float | None:
    return PUBLISHED.get((ruleset_id, tuple(sorted(options.items()))))


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``name=value``; ``true``/``false`` and whole numbers become JSON's types."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"options are name=value, not {text!r}")
    lowered = value.lower()
    if lowered in {"true", "false"}:
        return name, lowered == "true"
    try:
        return name, int(value)
    except ValueError:
        return name, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=sorted(SUPPORTED), default="yahtzee")
    parser.add_argument("--games", type=int, default=1000,
                        help="games to play (default 1000: about 15 to 35 s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", type=parse_option, action="append", default=[],
                        metavar="NAME=VALUE", help="a game option; repeat for more")
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--levels", nargs="+", choices=BOX_LEVELS, metavar="LEVEL",
                        help="analyse games of these computer levels (random, greedy, optimal)")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2 (a standard deviation needs two games)")

    ruleset = get_ruleset(args.ruleset)
    options = ruleset.validate_options(dict(args.option))
    if args.levels:
        analysed_levels(ruleset, options, args.levels, args.games, args.seed, args.folder)
        return
    started = time.perf_counter()
    scores = [
        play_game(
            ruleset, ["optimal"], options=options,
            rng=random.Random(f"{args.seed}:{g}"), folder=args.folder,
        ).totals[0]
        for g in range(args.games)
    ]
    took = time.perf_counter() - started

    n = len(scores)
    mean = statistics.fmean(scores)
    sd = statistics.stdev(scores)
    se = sd / math.sqrt(n)
    print(f"{ruleset.id} {options}: {n} solitaire games with the optimal computer, "
          f"seed {args.seed}")
    print(f"mean {mean:.4f}  standard deviation {sd:.4f}  standard error {se:.4f}  "
          f"(min {min(scores)}, max {max(scores)})")
    expected = published(ruleset.id, options)
    if expected is None:
        print("published value: none for these options")
    else:
        gap = mean - expected
        within = abs(gap) <= 3 * se
        print(f"published {expected:.4f}: mean - published = {gap:+.4f} = "
              f"{gap / se:+.2f} standard errors -> "
              f"{'within' if within else 'NOT within'} 3 standard errors")
    print(f"({took:.1f} s, tables in {args.folder})")


def analysed_levels(
    ruleset: Ruleset,
    options: dict[str, OptionValue],
    levels: list[str],
    games: int,
    seed: int,
    folder: Path,
) -> None:
    """Play and analyse ``games`` solitaire games per level; print one row per level."""
    strategy = load_strategy(ruleset.id, options, folder)
    start = strategy.table.start_value
    print(f"{ruleset.id} {options}: {games} solitaire games per computer level, seed {seed}; "
          f"expected start {start:.4f}")
    print(f"{'level':<8} {'mean score':>10} {'(se)':>6} {'expected loss':>13} "
          f"{'accuracy':>8} {'best':>6} {'inacc.':>6} {'mistake':>7} {'blunder':>7} "
          f"{'luck':>7} {'(se)':>5}")
    verdicts = []
    for level in levels:
        totals: list[float] = []
        losses: list[float] = []
        accuracies: list[float] = []
        lucks: list[float] = []
        labels = dict.fromkeys(LABELS, 0)
        for g in range(games):
            game = play_game(ruleset, [level], options=options,
                             rng=random.Random(f"{seed}:{level}:{g}"), folder=folder)
            (seat,) = analyse_with(strategy, game.log, [0]).seats
            if seat.accuracy is None or seat.luck is None:
                raise RuntimeError("a finished solitaire game has an accuracy and a luck")
            totals.append(seat.total)
            losses.append(seat.expected_loss)
            accuracies.append(seat.accuracy)
            lucks.append(seat.luck)
            for label, count in seat.counts.items():
                labels[label] += count
        decisions = sum(labels.values())
        mean, se = statistics.fmean(totals), statistics.stdev(totals) / math.sqrt(games)
        luck_se = statistics.stdev(lucks) / math.sqrt(games)
        shares = [100 * labels[label] / decisions for label in LABELS]
        print(f"{level:<8} {mean:10.2f} {se:6.2f} {statistics.fmean(losses):13.4f} "
              f"{statistics.fmean(accuracies):8.2f} {shares[0]:5.1f}% {shares[1]:5.1f}% "
              f"{shares[2]:6.1f}% {shares[3]:6.1f}% {statistics.fmean(lucks):+7.2f} "
              f"{luck_se:5.2f}")
        if level == "optimal":
            gap = mean - start
            verdicts.append(
                f"optimal: largest expected loss in a game {max(losses):.6f}; mean - expected "
                f"start = {gap:+.4f} = {gap / se:+.2f} standard errors -> "
                f"{'within' if abs(gap) <= 3 * se else 'NOT within'} 3 standard errors"
            )
    print("(best, inacc., mistake, blunder: shares of all decisions; luck: total - expected "
          "start + expected loss, which averages 0 for any player)")
    for verdict in verdicts:
        print(verdict)


if __name__ == "__main__":
    main()
