"""Time the build of strategy tables as a worker does it: each table solved from nothing in
a child process of its own (``python -m games.work.solve``, niced as ``STRATEGY_BUILD_NICE``
says), into a fresh folder.

    .venv/bin/python -m tests.bench.table_builds --bank-minimums 300 1000 --nice 0

For each table it prints the wall-clock seconds, the child's CPU seconds (on a busy machine
the wall clock is what the queue waits, the CPU what the build costs) and the file's size;
the last line gives the command to rerun it. The child compiles nothing when numba's cache
has the kernels (run once before to fill it).
"""

import argparse
import json
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build(ruleset_id: str, options: dict, nice: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and bytes of one table built in a child process."""
    with tempfile.TemporaryDirectory(prefix="table-bench-") as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "games.work.solve", ruleset_id, json.dumps(options), folder,
             str(nice)],
            cwd=ROOT, check=True,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        size = sum(p.stat().st_size for p in Path(folder).glob("*.npz"))
    return wall, cpu, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank-minimums", type=int, nargs="*", default=[300])
    parser.add_argument("--rulesets", nargs="*", default=[], help="box games, default options")
    parser.add_argument("--nice", type=int, default=0)
    args = parser.parse_args()
    tables = [("ten-thousand", {"bank_minimum": m}) for m in args.bank_minimums]
    tables += [(ruleset_id, {}) for ruleset_id in args.rulesets]
    for ruleset_id, options in tables:
        wall, cpu, size = build(ruleset_id, options, args.nice)
        print(
            f"{ruleset_id} {json.dumps(options)}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"{size / 1000:.0f} kB", flush=True,
        )
    print("command:", shlex.join([sys.executable, "-m", "tests.bench.table_builds", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
