"""Build the optimal-strategy tables before the service serves: requests never build one.

Run by ``make run`` and docker-compose.yml before the server starts. A table already on disk
and fresh (solved by this engine, see ``scoring.boxgames.strategy.table``) is only checked, so a
second start builds nothing; a missing or stale one is built. Several processes running it
at once build each table once (see ``scoring.boxgames.strategy.api``).

Ten Thousand has one table per bank minimum (every target up to 10,000 shares it): those of
the setting ``TEN_THOUSAND_BANK_MINIMUMS`` (by default 0 and 350, unless the operator lists
more) are built here; another is queued at its first request and built by a worker.

The deployment's database is the tables' store (``games.work.tables``): a table missing from
the folder that the database has is copied from it rather than solved again, and a table
built here is stored there for every other process and host (``--folder-only``: neither).
"""

import itertools
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import RuleError, family_of, get_ruleset
from scoring.boxgames.strategy import (
    SUPPORTED,
    StaleTable,
    Table,
    build_table,
    load_table,
    prepare_table,
)
from scoring.boxgames.strategy.table import read
from scoring.tenthousand.strategy.tables import SolvedTables, load_tables, prepare_tables

TEN_THOUSAND = "ten-thousand"
# What a build gives back: the table and whether it was built, or the file it was written to.
Made = tuple[Table | SolvedTables, bool] | Path
BUILT = (*SUPPORTED, TEN_THOUSAND)

# Tables solved at once by default: one core each, a few hundred MB each.
DEFAULT_JOBS = min(os.cpu_count() or 1, 4)


def option_sets(ruleset_id: str) -> list[dict[str, Any]]:
    """Every combination of the ruleset's options: each needs a table of its own (Ten
    Thousand: each bank minimum of the setting)."""
    if ruleset_id == TEN_THOUSAND:
        return [{"bank_minimum": minimum} for minimum in settings.TEN_THOUSAND_BANK_MINIMUMS]
    options = get_ruleset(ruleset_id).options
    values = [option.values for option in options]
    return [
        {option.id: value for option, value in zip(options, chosen, strict=True)}
        for chosen in itertools.product(*values)
    ]


class Command(BaseCommand):
    help = "Build the optimal-strategy tables (all rulesets that have them, or those named)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("rulesets", nargs="*", help=f"any of: {', '.join(BUILT)}")
        parser.add_argument("--folder", default=None, help="where to keep them (STRATEGY_DIR)")
        parser.add_argument("--force", action="store_true", help="rebuild fresh tables too")
        parser.add_argument(
            "--folder-only", action="store_true",
            help="neither copy tables from the database nor store those built there",
        )
        parser.add_argument(
            "--jobs", type=int, default=DEFAULT_JOBS,
            help=f"tables built at once, each in a process of its own (default {DEFAULT_JOBS})",
        )

    def handle(
        self, *args: Any, rulesets: list[str], folder: str | Path | None, force: bool, jobs: int,
        folder_only: bool, **kw: Any,
    ) -> None:
        self.shared = not folder_only
        unknown = [name for name in rulesets if name not in BUILT]
        if unknown:
            raise CommandError(
                f"no strategy for {', '.join(unknown)}; known: {', '.join(BUILT)}"
            )
        folder = folder or settings.STRATEGY_DIR
        wanted = [(r, options) for r in rulesets or list(BUILT) for options in option_sets(r)]
        self.say(
            f"checking {len(wanted)} strategy tables in {folder} "
            "(a missing or stale one is built: 5 to 40 s each)"
        )
        missing = []
        for ruleset_id, options in wanted:
            started = time.perf_counter()
            done = "ready"
            try:
                if force:
                    raise StaleTable("--force")
                table = _load(ruleset_id, options, folder)
            except (FileNotFoundError, StaleTable):
                if force or not self.copied(ruleset_id, options, folder):
                    missing.append((ruleset_id, options))
                    continue
                table, done = _load(ruleset_id, options, folder), "copied from the database"
            except RuleError as error:
                raise CommandError(error.detail) from error
            self.report(ruleset_id, options, table, done, started)
        jobs = max(1, min(jobs, len(missing)))
        build: Callable[[str, dict[str, Any], Any], Made] = _build if force else _prepare
        built = 0
        started = time.perf_counter()
        if jobs == 1:
            for ruleset_id, options in missing:
                table, new = _outcome(build(ruleset_id, options, folder))
                built += new
                self.store(ruleset_id, options, table, new, started)
                self.report(ruleset_id, options, table, "built" if new else "ready", started)
                started = time.perf_counter()
        else:
            # Each table is solved in a process of its own (the solver uses one core); the
            # file locks keep two processes from building the same table.
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(jobs, mp_context=context) as pool:
                futures = {
                    pool.submit(build, ruleset_id, options, folder): (ruleset_id, options)
                    for ruleset_id, options in missing
                }
                for future in as_completed(futures):
                    ruleset_id, options = futures[future]
                    table, new = _outcome(future.result())
                    built += new
                    self.store(ruleset_id, options, table, new, started)
                    self.report(ruleset_id, options, table, "built" if new else "ready", started)
        self.say(f"strategy tables in {folder}: {built} built")

    def copied(self, ruleset_id: str, options: dict[str, Any], folder: Any) -> bool:
        """Whether the table was copied into ``folder`` from the deployment's database."""
        from games.work import tables  # not at import: --jobs' processes load no models

        return self.shared and tables.fetch(tables.spec_of(ruleset_id, options), folder)

    def store(
        self,
        ruleset_id: str,
        options: dict[str, Any],
        table: Table | SolvedTables,
        new: bool,
        started: float,
    ) -> None:
        """Store a table built here in the deployment's database (if it has none yet)."""
        from games.work import tables

        if self.shared and new and table.path is not None:
            tables.keep_built(
                tables.spec_of(ruleset_id, options), table.path.read_bytes(),
                seconds=time.perf_counter() - started,
            )

    def report(
        self,
        ruleset_id: str,
        options: dict[str, Any],
        table: Table | SolvedTables,
        done: str,
        started: float,
    ) -> None:
        value = family_of(ruleset_id).describe_table(table)
        self.say(
            f"{ruleset_id} {options or ''}: {done}, {value}, "
            f"{time.perf_counter() - started:.1f} s"
        )

    def say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()  # progress shows at once, in a log file too


def _load(ruleset_id: str, options: dict[str, Any], folder: Any) -> Table | SolvedTables:
    """The fresh table on disk (``FileNotFoundError`` or ``StaleTable`` if there is none)."""
    if ruleset_id == TEN_THOUSAND:
        return load_tables(options["bank_minimum"], folder, build_missing=False)
    return load_table(ruleset_id, options, folder, build_missing=False)


def _prepare(
    ruleset_id: str, options: dict[str, Any], folder: Any
) -> tuple[Table | SolvedTables, bool]:
    if ruleset_id == TEN_THOUSAND:
        return prepare_tables(options["bank_minimum"], folder)
    return prepare_table(ruleset_id, options, folder)


def _build(ruleset_id: str, options: dict[str, Any], folder: Any) -> Path:
    if ruleset_id == TEN_THOUSAND:
        tables = prepare_tables(options["bank_minimum"], folder, force=True)[0]
        return tables.path or Path(folder) / f"{TEN_THOUSAND}--bank_minimum-{tables.bank_minimum}"
    return build_table(ruleset_id, options, folder)


def _outcome(result: Made) -> tuple[Table | SolvedTables, bool]:
    """The table that ``_prepare`` or ``_build`` made, and whether it was built."""
    if isinstance(result, Path):  # built, always
        if result.name.startswith(TEN_THOUSAND):
            minimum = int(result.stem.rsplit("-", 1)[1])
            return load_tables(minimum, result.parent, build_missing=False), True
        return read(result, {}), True
    return result
