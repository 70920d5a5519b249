"""Abandon the games nobody has touched for a while, so they stop waiting for a move."""

import datetime as dt
from argparse import ArgumentParser, ArgumentTypeError
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.play import services
from scoring.match import GameStatus

OPEN = (GameStatus.WAITING, GameStatus.ACTIVE)


def whole_days(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ArgumentTypeError(f"not a whole number: {raw!r}") from None
    if value < 1:
        raise ArgumentTypeError(f"must be at least 1, not {value}")
    return value


class Command(BaseCommand):
    help = (
        "Mark every waiting or active game not updated for N days abandoned, each through "
        "the abandon service (logged, versioned and announced). Safe to run again."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--days",
            type=whole_days,
            default=None,
            help="Idle for at least this many days (default: the ABANDON_AFTER_DAYS setting).",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="List the idle games; change nothing."
        )

    def handle(self, *args: Any, days: int | None, dry_run: bool, **options: Any) -> None:
        idle_days = days if days is not None else settings.ABANDON_AFTER_DAYS
        cutoff = timezone.now() - dt.timedelta(days=idle_days)
        idle = Game.objects.filter(status__in=OPEN, updated_at__lt=cutoff).order_by("updated_at")
        if dry_run:
            games = list(idle.only("id", "ruleset", "status", "updated_at"))
            for game in games:
                self.stdout.write(
                    f"would abandon {game.id} ({game.ruleset}, {game.status}, "
                    f"last updated {game.updated_at:%Y-%m-%d %H:%M})"
                )
            self.stdout.write(f"Would abandon {len(games)} game(s) idle for {idle_days}+ days.")
            return
        abandoned = 0
        for game_id in idle.values_list("id", flat=True):
            if self._abandon_if_still_idle(game_id, cutoff):
                abandoned += 1
                if options["verbosity"] >= 2:
                    self.stdout.write(f"abandoned {game_id}")
        self.stdout.write(f"Abandoned {abandoned} game(s) idle for {idle_days}+ days.")

    @staticmethod
    def _abandon_if_still_idle(game_id: Any, cutoff: dt.datetime) -> bool:
        """Check again under the row lock: a move may have come since the game was listed."""
        with transaction.atomic():
            still_idle = (
                Game.objects.select_for_update()
                .filter(pk=game_id, status__in=OPEN, updated_at__lt=cutoff)
                .values_list("id", flat=True)
                .first()
            )
            if still_idle is None:
                return False
            services.game_abandon(game_id=game_id, by="idle")
        return True
