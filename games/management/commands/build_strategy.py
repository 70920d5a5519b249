"""Build the optimal-strategy tables ahead of the first request that needs them."""

import itertools
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring import RuleError, get_ruleset
from scoring.strategy import SUPPORTED, build_table, load_table


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
        for ruleset_id in rulesets or list(SUPPORTED):
            for options in option_sets(ruleset_id):
                started = time.perf_counter()
                try:
                    if force:
                        build_table(ruleset_id, options, folder)
                    table = load_table(ruleset_id, options, folder)
                except RuleError as error:
                    raise CommandError(error.detail) from error
                self.stdout.write(
                    f"{ruleset_id} {options or ''}: expected final score "
                    f"{table.start_value:.4f}, {time.perf_counter() - started:.1f} s"
                )
