"""The due work a worker sweeps for: clocks, assignment closings, tournaments' steps and
finished games' figures,
each taken from its own row and done in the transaction that holds it (webhook deliveries:
``deliveries``).

A piece of work that fails is rolled back, never marked done: it is passed over for a
growing wait and then tried again, so that one that keeps failing holds up no other. A lost
database connection stops the sweep instead: the worker waits and sweeps again.
"""

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError, transaction

from games.classrooms import assignments, figures
from games.db import gamestore
from games.observe.metrics import WORK_FAILURES
from games.play import services as play
from games.tournaments import running

log = logging.getLogger("games.work")

# The connection to the database was lost or refused: the whole sweep waits, no item is
# blamed for it.
CONNECTION_TROUBLE = (OperationalError, InterfaceError)
# Failures that are foreseen and say all in their message (a finished game's figures wait
# for its strategy table, being built): logged in one line at each try, where a traceback
# every few seconds would bury the unforeseen ones, which keep theirs.
FORESEEN = (figures.TableMissing,)


class PassedOver:
    """Pieces of work that failed, each passed over for a growing wait (1, 2, 4 ... seconds,
    at most ``LONGEST``) before the next try."""

    LONGEST = 300.0

    def __init__(self) -> None:
        self._failed: dict[Any, tuple[int, float]] = {}  # item: (failures, when to try again)

    def now(self) -> list[Any]:
        """The items to pass over now (forgetting those not seen again for an hour: done by
        someone else, or gone)."""
        moment = time.monotonic()
        for item in [i for i, (_, until) in self._failed.items() if until < moment - 3600]:
            del self._failed[item]
        return [item for item, (_, until) in self._failed.items() if until > moment]

    def failed(self, item: Any) -> float:
        failures = self._failed.get(item, (0, 0.0))[0] + 1
        wait = min(2.0 ** (failures - 1), self.LONGEST)
        self._failed[item] = (failures, time.monotonic() + wait)
        return wait

    def done(self, item: Any) -> None:
        self._failed.pop(item, None)


def sweep(
    kind: str,
    take: Callable[..., Any],
    do: Callable[[Any], object],
    passed_over: PassedOver,
    *,
    most: int,
    failed: Callable[[Exception], object] | None = None,
) -> int:
    """Does up to ``most`` pieces of due work of one kind, one transaction each: ``take``
    finds one (locked, skipping those others hold and those passed over), ``do`` does it.
    ``failed`` is told of a failure once its work is rolled back (what it writes stays).
    Answers how many were done."""
    done = 0
    while done < most:
        with transaction.atomic():
            item = take(passed_over=passed_over.now())
            if item is None:
                return done
            try:
                with transaction.atomic():
                    do(item)
            except CONNECTION_TROUBLE:
                raise
            except Exception as failure:
                if failed is not None:
                    failed(failure)
                wait = passed_over.failed(item)
                WORK_FAILURES.labels(kind).inc()
                if isinstance(failure, FORESEEN):
                    log.warning("%s %s put off (%s): tried again in %.0f s",
                                kind, item, failure, wait)
                else:
                    log.exception("%s %s failed: tried again in %.0f s", kind, item, wait)
                continue
        passed_over.done(item)
        done += 1
    return done


class Sweeps:
    """The clocks, closings and figures of one worker, with what each passes over. Clocks
    and closings come first and in larger batches: they are promised within seconds; a
    game's figures (an analysis, tens of milliseconds) a few at a time between them."""

    FIGURES_AT_ONCE = 5

    def __init__(self, *, most: int = 100) -> None:
        self.most = most
        self.clocks = PassedOver()
        self.closings = PassedOver()
        self.tournaments = PassedOver()
        self.figures = PassedOver()

    def run(self) -> bool:
        """One sweep of all three; answers whether more may be due at once (a batch was
        full)."""
        fired = sweep("clock", gamestore.game_due_clock, _fire, self.clocks, most=self.most)
        closed = sweep(
            "closing", assignments.assignment_due, _close, self.closings, most=self.most
        )
        stepped = sweep(
            "tournament", running.tournament_due, _step, self.tournaments, most=self.most
        )
        kept = sweep(
            "figures", figures.figures_due, _keep, self.figures, most=self.FIGURES_AT_ONCE,
            failed=_table_missing,
        )
        full = self.most in (fired, closed, stepped)
        return full or kept == self.FIGURES_AT_ONCE


def _fire(game_id: Any) -> None:
    play.game_time_out(game_id=game_id)


def _close(assignment_id: uuid.UUID) -> None:
    assignments.assignment_close(assignment_id=assignment_id)


def _step(tournament_id: uuid.UUID) -> None:
    running.tournament_step(tournament_id=tournament_id)


def _keep(game_id: Any) -> None:
    figures.figures_keep(game_id=game_id)


def _table_missing(failure: Exception) -> None:
    if isinstance(failure, figures.TableMissing):
        figures.table_missing(failure)


def run_due() -> None:
    """The clocks, closings and figures due now, done in this thread (tests, a one-off run)."""
    sweeps = Sweeps()
    while sweeps.run():
        pass
