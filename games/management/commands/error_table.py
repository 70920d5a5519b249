"""Print or rewrite docs/errors.md, the table of error codes, from the registry."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.http.error_table import DOCS_FILE, error_table


class Command(BaseCommand):
    help = "Print the error code table of docs/errors.md (--write: rewrite it; --check: compare)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--write", action="store_true", help=f"rewrite {DOCS_FILE}")
        action.add_argument(
            "--check", action="store_true", help="fail if the file differs from the registry"
        )

    def handle(self, *args: Any, write: bool, check: bool, **options: Any) -> None:
        table = error_table()
        if write:
            DOCS_FILE.write_text(table, encoding="utf-8")
        elif check:
            if DOCS_FILE.read_text(encoding="utf-8") != table:
                raise CommandError(f"{DOCS_FILE} is out of date: run error_table --write")
        else:
            self.stdout.write(table, ending="")
