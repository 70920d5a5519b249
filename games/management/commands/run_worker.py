"""``manage.py run_worker``: a worker for the work outside requests (turn clocks, assignment
closings, webhook deliveries, pruning); see ``games.work``. Run as many as you like, on any
host: each piece of work is done by one of them."""

import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.work import worker


class Command(BaseCommand):
    help = "Do the work outside requests: clocks, assignment closings, webhook deliveries."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval", type=float, default=0.5,
            help="seconds between sweeps when nothing is due (default 0.5)",
        )
        parser.add_argument(
            "--keep-alive", action="store_true",
            help="run the worker in a child process and start it again whenever it exits",
        )

    def handle(self, *args: Any, interval: float, keep_alive: bool, **options: Any) -> None:
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s worker %(process)d %(levelname)s %(message)s"
        )
        if keep_alive:
            worker.keep_alive(["--interval", str(interval)])
        else:
            worker.run(interval=interval)
