"""Measure the solver: ``python -m scoring.boxgames.strategy.benchmark [--folder DIR]``.

Builds the default Yahtzee table (timed), builds or loads every other table, compares the
start-of-game values with the published ones, measures the memory the loaded tables take,
the latency of advice on random positions reached by random legal play, and the time to
analyse a finished game (every decision of a 13-round Yahtzee game, table loaded).

Without ``--folder`` everything is built afresh in a temporary folder (a few minutes);
with it, tables already there are reused and only the default Yahtzee table is rebuilt.
``--only analysis`` measures the analysis alone (building only the tables it needs).
"""

import argparse
import gc
import multiprocessing
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import TypedDict, cast

from ...registry import get_ruleset
from ...state import Card
from ...strategy.selfplay import play_game
from ..boxgame import BoxGame
from . import advise, build_table, load_strategy, load_table, loaded_bytes
from .analysis import analyse_with

# (ruleset, options, published expected final score from an empty card, or None)
VARIANTS: list[tuple[str, dict[str, str], float | None]] = [
    ("yahtzee", {"joker": "forced", "yahtzee_bonus": "unlimited"}, 254.5877),
    ("yahtzee", {"joker": "free", "yahtzee_bonus": "unlimited"}, 254.5896),
    ("yahtzee", {"joker": "none", "yahtzee_bonus": "none"}, 245.8708),
    ("yatzy", {}, 248.4400),
    ("forced-yatzy", {}, 122.5585),
] + [
    ("yahtzee", {"joker": joker, "yahtzee_bonus": bonus}, None)
    for joker in ("forced", "free", "none")
    for bonus in ("unlimited", "single", "none")
    if (joker, bonus) not in {("forced", "unlimited"), ("free", "unlimited"), ("none", "none")}
]


def rss_bytes() -> int:
    """This process's resident memory, from /proc (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def label(ruleset_id: str, options: dict[str, str]) -> str:
    return ruleset_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))


def measure_loading(folder: Path) -> tuple[float, int, int, int]:
    """Load every table: seconds, bytes of the value arrays, RSS growth, RSS after."""
    gc.collect()
    before = rss_bytes()
    started = time.perf_counter()
    for ruleset_id, options, _ in VARIANTS:
        load_table(ruleset_id, options, folder, build_missing=False)
    took = time.perf_counter() - started
    gc.collect()
    after = rss_bytes()
    return took, loaded_bytes(), after - before, after


class Case(TypedDict):
    """A position to advise on, as :func:`~scoring.strategy.api.advise` takes it."""

    ruleset_id: str
    options: dict[str, str]
    scorecard: Card
    yahtzee_bonus: int
    dice: list[int] | None
    rolls_left: int | None


def random_position(rng: random.Random) -> Case:
    """A position reached by random legal play: a card, its bonus, dice and rolls left."""
    ruleset_id, options, _ = rng.choice(VARIANTS)
    ruleset = get_ruleset(ruleset_id)
    assert isinstance(ruleset, BoxGame)
    card: Card = {box.id: None for box in ruleset.boxes}
    bonus = 0
    for _ in range(rng.randrange(len(card))):
        dice = [rng.randint(1, 6) for _ in range(ruleset.dice)]
        legal = ruleset.legal(card, dice, options)
        box_id = rng.choice(list(legal))
        bonus += ruleset.fill_bonus(card, dice, options, bonus)
        card[box_id] = legal[box_id]
    start = rng.random() < 0.1
    return {
        "ruleset_id": ruleset_id,
        "options": options,
        "scorecard": card,
        "yahtzee_bonus": bonus,
        "dice": None if start else [rng.randint(1, 6) for _ in range(ruleset.dice)],
        "rolls_left": None if start else rng.randrange(ruleset.rolls_per_turn),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, help="table folder (default: a fresh temp one)")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=300, help="games to analyse (default 300)")
    parser.add_argument("--only", choices=["analysis"], help="measure only the analysis")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="strategy-") as scratch:
        folder = args.folder or Path(scratch)
        if args.only == "analysis":
            print(f"tables in {folder}")
            measure_analysis(folder, args.games, args.seed)
        else:
            run(folder, args.positions, args.seed)
            measure_analysis(folder, args.games, args.seed)


def run(folder: Path, positions: int, seed: int) -> None:
    print(f"tables in {folder}")
    ruleset_id, options, _ = VARIANTS[0]
    wall, cpu = time.perf_counter(), time.process_time()
    build_table(ruleset_id, options, folder)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"\nbuild {label(ruleset_id, options)}: {wall:.1f} s wall, {cpu:.1f} s CPU (limit 60 s)")

    print("\nstart-of-game expected final scores")
    print(f"{'ruleset and options':<46} {'solved':>12} {'published':>10} {'diff':>10}"
          "  load or build")
    for ruleset_id, options, published in VARIANTS:
        started = time.perf_counter()
        table = load_table(ruleset_id, options, folder)
        took = time.perf_counter() - started
        value = cast(float, table.meta["start_value"])  # written by build_table
        diff = "" if published is None else f"{value - published:+10.6f}"
        shown = "" if published is None else f"{published:10.4f}"
        print(f"{label(ruleset_id, options):<46} {value:12.6f} {shown:>10} {diff:>10}"
              f"  {took:6.2f} s")

    # In a fresh interpreter: here, freed arrays would be reused and hide the growth.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        took, arrays, delta, total = pool.apply(measure_loading, (folder,))
    print(f"\nloading all {len(VARIANTS)} tables from disk in a fresh process: {took:.2f} s")
    print(f"memory: value arrays {arrays / 2**20:.1f} MiB, RSS delta {delta / 2**20:.1f} MiB "
          f"(limit 200 MB; RSS of that process {total / 2**20:.0f} MiB)")

    rng = random.Random(seed)
    cases = [random_position(rng) for _ in range(positions)]
    walls, cpus = [], []
    for case in cases:
        wall, cpu = time.perf_counter(), time.thread_time()
        advise(**case, folder=folder)
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - wall)
    print(f"\nadvice on {positions} random positions (loaded tables; limit 20 ms):")
    for name, times in (("wall", walls), ("CPU", cpus)):
        ms = sorted(t * 1000 for t in times)
        p99 = ms[int(0.99 * (len(ms) - 1))]
        print(f"  {name:>4}: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, "
              f"max {ms[-1]:.2f} ms")


def measure_analysis(folder: Path, games: int, seed: int) -> None:
    """Time the analysis of finished solitaire Yahtzee games (default rules, table loaded),
    played by the random, greedy and optimal computers in turn, and of 4-seat games with
    every seat analysed."""
    ruleset = get_ruleset("yahtzee")
    options = ruleset.validate_options({})
    strategy = load_strategy(ruleset.id, options, folder)
    levels = ("random", "greedy", "optimal")
    for seats in (1, 4):
        rng = random.Random(f"{seed}:analysis:{seats}")
        count = games if seats == 1 else max(1, games // 10)
        logs = [
            play_game(ruleset, [levels[(g + s) % 3] for s in range(seats)], options=options,
                      rng=rng, folder=folder).log
            for g in range(count)
        ]
        walls, cpus = [], []
        for log in logs:
            wall, cpu = time.perf_counter(), time.thread_time()
            analysis = analyse_with(strategy, log, range(seats))
            cpus.append(time.thread_time() - cpu)
            walls.append(time.perf_counter() - wall)
            assert len(analysis.seats) == seats
        decisions = statistics.fmean(
            len(analyse_with(strategy, log, range(seats)).decisions) for log in logs[:20]
        )
        what = "solitaire games" if seats == 1 else f"{seats}-seat games, every seat"
        print(f"\nanalysis of {count} finished 13-round Yahtzee {what} "
              f"(random, greedy and optimal players; {decisions:.0f} decisions a game on "
              f"average; table loaded; limit 50 ms a solitaire game):")
        for name, times in (("wall", walls), ("CPU", cpus)):
            ms = sorted(t * 1000 for t in times)
            p99 = ms[int(0.99 * (len(ms) - 1))]
            print(f"  {name:>4}: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, "
                  f"max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
