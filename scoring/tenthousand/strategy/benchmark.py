"""Measure Ten Thousand's solver: ``python -m scoring.tenthousand.strategy.benchmark``.

Prints the solved figures (the first player's chance of winning when both play optimally,
the expected turns of optimal solitaire play), the time and peak memory of building the
tables of one bank minimum from nothing in a fresh folder (the compiled kernels come from
numba's cache when it has them: ``--cold`` clears it first), the size of the file, and the
latency of advice on random positions, each recomputing its turn (no cache). With
``--approximation GAMES`` it also measures the approximation of three seats: the win rate
of one ``optimal`` seat against two ``classic`` ones, beside that of a seat playing the
solitaire policy (fewest expected turns) and of a third ``classic`` seat. With ``--labels
GAMES`` it analyses the ``classic``, ``greedy`` and ``random`` seats of games against
``optimal`` (what the labels' thresholds mean in play). With ``--url``
(a running service, e.g. ``http://127.0.0.1:8000``) it times ``POST
/api/v1/rulesets/ten-thousand/advice/`` on random positions, the whole request.
"""

import argparse
import json
import random
import resource
import shutil
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

from ...commands import Command, Roll
from ...registry import get_ruleset
from ...state import Options, TenThousandState, ten_thousand_options
from ...strategy.players import computer_command
from ..points import DICE, POINTS_STEP, can_score
from . import advice as tenthousand_advice
from .advice import Position, advise_position, advise_state
from .duel import wilson
from .players import command_of
from .tables import SolvedTables, prepare_tables

TEN = get_ruleset("ten-thousand")


def peak_mb() -> float:
    """This process's peak resident memory so far (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def random_position(rng: random.Random, target: int) -> Position:
    """Totals, turn points and a scoring throw, uniformly over the grid."""
    own = rng.randrange(0, target, POINTS_STEP)
    others = () if rng.random() < 0.3 else (rng.randrange(0, target, POINTS_STEP),)
    while True:
        n = rng.randint(1, DICE)
        faces = tuple(rng.randint(1, 6) for _ in range(n))
        if can_score(list(faces)):
            break
    points = rng.randrange(POINTS_STEP if n < DICE else 0, 3000, POINTS_STEP)
    return Position(own, others, points, faces)


def advice_latency(tables: SolvedTables, positions: int, seed: int) -> list[float]:
    options = TEN.validate_options({})
    rng = random.Random(seed)
    took = []
    for _ in range(positions):
        position = random_position(rng, ten_thousand_options(options)["target"])
        tenthousand_advice._turn.cache_clear()  # every answer solves its turn afresh
        started = time.perf_counter()
        advise_position(tables, options, position)
        took.append((time.perf_counter() - started) * 1000)
    return took


def http_latency(url: str, positions: int, seed: int) -> list[float]:
    """Milliseconds of each advice request, position by position (one connection each)."""
    rng = random.Random(seed)
    took = []
    for _ in range(positions):
        p = random_position(rng, 10_000)
        dice = list(p.dice or ())
        body = {"totals": [p.own, *p.others], "turn_points": p.turn_points, "dice": dice}
        request = urllib.request.Request(
            f"{url}/api/v1/rulesets/ten-thousand/advice/", data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"}, method="POST",
        )
        started = time.perf_counter()
        with urllib.request.urlopen(request) as answer:
            answer.read()
        took.append((time.perf_counter() - started) * 1000)
    return took


def solitaire_move(state: TenThousandState, tables: SolvedTables, options: Options) -> Command:
    """The move of a seat that ignores the others: the fewest expected turns."""
    if state["dice"] is None:
        return Roll()
    position = tenthousand_advice.position_of(state, options)
    alone = Position(position.own, (), position.turn_points, position.dice)
    return command_of(state, advise_position(tables, options, alone).best)


def three_seats(games: int, tables: SolvedTables, folder: Path, seed: int) -> dict[str, float]:
    """Win rates of one seat (rotating through the three places) against two classic
    seats, for three players of that seat."""
    options = TEN.validate_options({})
    rates = {}
    for player in ("optimal", "solitaire", "classic"):
        wins = 0.0
        for g in range(games):
            rng = random.Random(f"{seed}:{g}")
            mine = g % 3
            state = TEN.new_state(seats=3, options=options)
            while not state["finished"]:
                seat = state["current"]
                if seat == mine and player == "solitaire":
                    command = solitaire_move(state, tables, options)
                else:
                    level = player if seat == mine else "classic"
                    command = computer_command(TEN, state, level, options, rng, folder=folder)
                state = TEN.move(state, seat=seat, command=command, options=options, rng=rng).state
            if mine in state["winners"]:
                wins += 1 / len(state["winners"])
        rates[player] = wins
    return rates


def labels(games: int, tables: SolvedTables, folder: Path, seed: int) -> None:
    """Each level's analysis over ``games`` games against ``optimal``, in either seat."""
    from ...strategy.selfplay import play_game
    from .analysis import analyse_ten_thousand

    options = TEN.validate_options({})
    for level in ("classic", "greedy", "random"):
        accuracy, counts = [], dict.fromkeys(("best", "inaccuracy", "mistake", "blunder"), 0)
        for g in range(games):
            seat = g % 2
            levels = [level, "optimal"] if seat == 0 else ["optimal", level]
            game = play_game(TEN, levels, options=options, rng=random.Random(f"{seed}:{g}"),
                             folder=folder)
            (mine,) = analyse_ten_thousand(
                tables, options, 2, game.log, [seat], finished=True, winners=game.winners
            ).seats
            accuracy.append(mine.accuracy or 0.0)
            for name, count in mine.counts.items():
                counts[name] += count
        decisions = sum(counts.values())
        shares = ", ".join(f"{name} {100 * n / decisions:.1f}%" for name, n in counts.items())
        print(f"  {level:8s} against optimal, {games} games: mean accuracy "
              f"{statistics.mean(accuracy):.1f}; {decisions} decisions: {shares}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank-minimum", type=int, default=350)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true", help="clear numba's cache first")
    parser.add_argument("--approximation", type=int, default=0, metavar="GAMES")
    parser.add_argument("--url", help="also time the advice of this running service")
    parser.add_argument("--labels", type=int, default=0, metavar="GAMES")
    args = parser.parse_args()
    if args.cold:
        cache = Path(__file__).parent / "__pycache__"
        for stale in cache.glob("solver.*.nb*"):
            stale.unlink()
    before = peak_mb()
    folder = Path(tempfile.mkdtemp(prefix="ten-thousand-"))
    try:
        started = time.perf_counter()
        tables, _ = prepare_tables(args.bank_minimum, folder)
        took = time.perf_counter() - started
        if tables.path is None:
            raise SystemExit("the tables were solved in memory only: nothing to measure")
        size = tables.path.stat().st_size
        print(f"Ten Thousand, bank minimum {args.bank_minimum}, every target up to 10,000:")
        print(f"  first player's chance of winning, both optimal: "
              f"{float(tables.two[0, 0]):.9f}")
        print(f"  expected turns of optimal solitaire play: {float(tables.one[0]):.9f}")
        print(f"  built from nothing in {took:.1f} s (kernels compiled or read from numba's "
              f"cache included); peak memory {peak_mb():.0f} MB "
              f"({peak_mb() - before:.0f} MB above the interpreter with its imports)")
        print(f"  table file {size / 1e6:.2f} MB ({tables.path.name})")
        latency = advice_latency(tables, args.positions, args.seed)
        latency.sort()
        print(f"  advice on {len(latency)} random positions, each turn solved afresh: "
              f"median {statistics.median(latency):.2f} ms, "
              f"95th percentile {latency[int(0.95 * len(latency))]:.2f} ms, "
              f"max {latency[-1]:.2f} ms")
        state = TEN.new_state(seats=2, options=TEN.validate_options({}))
        started = time.perf_counter()
        advise_state(tables, state, TEN.validate_options({}))
        print(f"  a hint at a game's start: {(time.perf_counter() - started) * 1000:.2f} ms")
        if args.url:
            over_http = sorted(http_latency(args.url, min(args.positions, 500), args.seed))
            print(f"  POST .../ten-thousand/advice/ at {args.url}, {len(over_http)} requests: "
                  f"median {statistics.median(over_http):.2f} ms, 95th percentile "
                  f"{over_http[int(0.95 * len(over_http))]:.2f} ms, max {over_http[-1]:.2f} ms")
        if args.labels:
            print("the analysis of computer players (chance of winning):")
            labels(args.labels, tables, folder, args.seed)
        if args.approximation:
            n = args.approximation
            rates = three_seats(n, tables, folder, args.seed)
            print(f"three seats, {n} games each, one seat against two classic seats:")
            for player, wins in rates.items():
                low, high = wilson(wins, n)
                print(f"  {player:9s} wins {wins / n:.4f}, 95% CI [{low:.4f}, {high:.4f}]")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"(python -m scoring.tenthousand.strategy.benchmark --bank-minimum "
          f"{args.bank_minimum} --positions {args.positions} --seed {args.seed}"
          f"{' --cold' if args.cold else ''}"
          f"{f' --approximation {args.approximation}' if args.approximation else ''}"
          f"{f' --url {args.url}' if args.url else ''}"
          f"{f' --labels {args.labels}' if args.labels else ''})")


if __name__ == "__main__":
    main()
