"""Build the optimal-strategy tables before the service serves: requests never build one.

Run by ``make run`` and docker-compose.yml before the server starts. A table already on disk
and fresh (solved by this engine, see ``scoring.strategy.table``) is only checked, so a
second start builds nothing; a missing or stale one is built. Several processes running it
at once build each table once (see ``scoring.strategy.api``).
"""

import itertools
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring import RuleError, get_ruleset
from scoring.strategy import SUPPORTED, build_table, prepare_table


def option_sets(ruleset_id: str) -> list[dict[str, Any]]:
    """Every combination of the ruleset's options: each needs a table of its own."""
    options = get_ruleset(ruleset_id).options
    values = [option.values for option in options]
    return [
        {option.id: value for option, value in zip(options, chosen, strict=True)}
        for chosen in itertools.product(*values)
    ]


class Command(BaseCommand):
    help = "Build the optimal-strategy tables (all rulesets that have them, or those named)."

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("rulesets", nargs="*", help=f"any of: {', '.join(SUPPORTED)}")
        parser.add_argument("--folder", default=None, help="where to keep them (STRATEGY_DIR)")
        parser.add_argument("--force", action="store_true", help="rebuild fresh tables too")

    def handle(
        self, *args: Any, rulesets: list[str], folder: str | None, force: bool, **kw: Any
    ) -> None:
        unknown = [name for name in rulesets if name not in SUPPORTED]
        if unknown:
            raise CommandError(
                f"no strategy for {', '.join(unknown)}; known: {', '.join(SUPPORTED)}"
            )
        folder = folder or settings.STRATEGY_DIR
        built = 0
        for ruleset_id in rulesets or list(SUPPORTED):
            for options in option_sets(ruleset_id):
                started = time.perf_counter()
                try:
                    if force:
                        build_table(ruleset_id, options, folder)
                    table, new = prepare_table(ruleset_id, options, folder)
                except RuleError as error:
                    raise CommandError(error.detail) from error
                new = new or force
                built += new
                self.stdout.write(
                    f"{ruleset_id} {options or ''}: {'built' if new else 'ready'}, "
                    f"expected final score {table.start_value:.4f}, "
                    f"{time.perf_counter() - started:.1f} s"
                )
        self.stdout.write(f"strategy tables in {folder}: {built} built")
