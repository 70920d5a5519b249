"""Rate limits on what is costly: creating games and seats, advice, records, classrooms.

Counted per API key when the request carries a valid one (the limits then follow the
key's classroom quota), else per client address; the counters are shared by every worker
and host (see ``games.http.limits``). A request with a key also counts against a ceiling
of its address, ``THROTTLE_KEYED_ADDRESS_FACTOR`` times the anonymous limits: anyone may
open classrooms and hold many keys, and keys must not multiply what one address may do.
Rates come from ``settings.THROTTLE_RATES`` when a request is checked, so tests may change
them; an empty rate turns that limit off.
"""

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games.classrooms.quotas import quota_of
from games.http.limits import Window, client_address, hit, over, parse_rates
from scoring.match import Seat
from scoring.registry import RULESETS, family_of


@dataclass(frozen=True)
class Counter:
    """One client's count of one limit: the scope its counters are named by, whom it counts
    (``key:<id>``, ``address:<address>``) and its windows."""

    scope: str
    ident: str
    windows: tuple[Window, ...]


class ScopedThrottle(BaseThrottle):
    scope = ""
    # The counters' own name, where two paths share a rate but not a count.
    counter = ""
    # The classroom quota's field that replaces the rate for a key holder, if any.
    quota_field: str | None = None
    # Whether a key holder is counted per key (else always per address).
    per_key = True

    def allow_request(self, request: Request, view: APIView) -> bool:
        counted = self.counters(request)
        waits = [hit(scope=c.scope, ident=c.ident, windows=c.windows) for c in counted]
        self._wait = max((w for w in waits if w is not None), default=None)
        return self._wait is None

    def counters(self, request: Request) -> list["Counter"]:
        """What a request of this caller counts against: its key's windows and its address's
        ceiling, or its address's windows; a counter without windows is left out."""
        caller = getattr(request, "caller", None) if self.per_key else None
        name = self.counter or self.scope
        address = f"address:{client_address(request)}"
        if caller is None:
            found = [Counter(name, address, self.address_windows())]
        else:
            found = [
                Counter(name, f"key:{caller.key_id}", self.key_windows(quota_of(caller.classroom))),
                Counter(f"{name}:keyed", address, self.ceiling_windows()),
            ]
        return [c for c in found if c.windows]

    def address_windows(self) -> tuple[Window, ...]:
        rate = settings.THROTTLE_RATES.get(self.scope) or ""
        return parse_rates(rate, name=f"THROTTLE_{self.scope.upper()}")

    def ceiling_windows(self) -> tuple[Window, ...]:
        """What one address may do with keys: the anonymous limits, times the factor."""
        factor = settings.THROTTLE_KEYED_ADDRESS_FACTOR
        return tuple(Window(w.count * factor, w.seconds) for w in self.address_windows())

    def key_windows(self, quota: dict[str, int]) -> tuple[Window, ...]:
        if self.quota_field is not None:
            return (Window(quota[self.quota_field], 3600),)
        return self.address_windows()

    def wait(self) -> float | None:
        return self._wait


class CreateThrottle(ScopedThrottle):
    """Games created and seats joined: each makes rows and a seat token."""

    scope = "create"
    quota_field = "games_per_hour"


class AdviceThrottle(ScopedThrottle):
    """Hints and stateless advice: the strategy tables' work."""

    scope = "advice"
    quota_field = "advice_per_hour"


class RecordThrottle(ScopedThrottle):
    """A game's record: its whole log, read and written out."""

    scope = "records"
    counter = "record"


class VerifyThrottle(ScopedThrottle):
    """The check of a record: a whole game replayed, each die derived again."""

    scope = "records"
    counter = "verify"


class MoveThrottle(ScopedThrottle):
    """Every move (off by default: a move of a seat holding its token is cheap)."""

    scope = "moves"


class ClassroomThrottle(ScopedThrottle):
    """Opening and joining classrooms, per address: each makes a key."""

    scope = "classrooms"
    per_key = False


class ComputerThrottle(ScopedThrottle):
    """The computer budget's counters (see :class:`ComputerBudget`): a key holder counts per
    key, within the windows shorter than an hour and the classroom's hourly quota, and
    against its address's ceiling, ``THROTTLE_COMPUTERS_KEYED_FACTOR`` times the anonymous
    windows (the computers' work is a core's, so their ceiling is lower than the other
    limits')."""

    scope = "computers"
    quota_field = "computer_moves_per_hour"

    def key_windows(self, quota: dict[str, int]) -> tuple[Window, ...]:
        shorter = tuple(w for w in self.address_windows() if w.seconds < 3600)
        return (*shorter, *super().key_windows(quota))

    def ceiling_windows(self) -> tuple[Window, ...]:
        factor = settings.THROTTLE_COMPUTERS_KEYED_FACTOR
        return tuple(Window(w.count * factor, w.seconds) for w in self.address_windows())


class ComputerBudget:
    """What the computer seats' moves played within one request cost its caller.

    A game whose seats are all computers is played to its end inside the request that
    creates it, and every move after which computer seats play has their turns played
    inside it too: a request's work is not one unit, so the create limit cannot bound it.
    The budget counts computer moves, each weighted by what it costs (:func:`move_weight`),
    per minute and per hour (``THROTTLE_RATES["computers"]``), in the shared cache.

    Before the work, :meth:`reserve` takes what a new game will likely cost (a whole game
    for one of computers only, :func:`create_estimate`) from every window at once, or
    refuses with ``429 throttled`` and the seconds until the window ends, giving back what
    it took, so a refused request costs nothing; before a move that computers may follow,
    :meth:`check_left` refuses if a window is spent. After the work, :meth:`spend` counts what
    the computers' moves cost instead of the reservation; a request that fails gives the
    reservation back (as a context manager).
    """

    def __init__(self, request: Request) -> None:
        self._request = request
        self._held = 0
        self._at = 0.0

    @cached_property
    def _counters(self) -> list[Counter]:
        """Read when first needed: a move in a game without computers never asks."""
        return ComputerThrottle().counters(self._request)

    def __enter__(self) -> "ComputerBudget":
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            self._settle(0)

    def reserve(self, need: int) -> None:
        """Takes ``need`` units, or raises ``Throttled``; once per request."""
        if need <= 0 or self._held or not self._counters:
            return
        self._at = time.time()
        waits = [self._add(c, need) for c in self._counters]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            for counter in self._counters:
                self._add(counter, -need)
            raise _refusal(wait)
        self._held = need

    def check_left(self) -> None:
        """Before a move after which computer seats may play: some budget must be left.

        Called inside the game's transaction, so it only reads: a database cache's counter
        rows are neither locked for the length of the change nor rolled back with it. What
        the computers played is counted once the change is made (:meth:`spend`)."""
        waits = [over(scope=c.scope, ident=c.ident, windows=c.windows) for c in self._counters]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            raise _refusal(wait)

    def spend(self, ruleset_id: str, moves: Mapping[str, int]) -> None:
        """The computers' ``moves`` (by level) played in the request, instead of what was
        reserved."""
        self._settle(sum(move_weight(ruleset_id, level) * n for level, n in moves.items()))

    def _settle(self, cost: int) -> None:
        change, self._held = cost - self._held, 0
        if change and self._counters:
            for counter in self._counters:
                self._add(counter, change)

    def _add(self, counter: Counter, amount: int) -> float | None:
        return hit(
            scope=counter.scope, ident=counter.ident, windows=counter.windows, amount=amount,
            at=self._at or None,
        )


def _refusal(wait: float) -> Throttled:
    return Throttled(
        wait=wait,
        detail=gettext(
            "the computer seats' moves your requests had played are over their budget; "
            "more is available in {seconds} seconds"
        ).format(seconds=math.ceil(wait)),
    )


def move_weight(ruleset_id: str, level: str) -> int:
    """The budget's units one computer move of ``level`` in ``ruleset_id`` costs (about a
    tenth of a millisecond of the web process's core each; PostgreSQL spends about as much
    again: docs/operations.md has the figures)."""
    ruleset = RULESETS.get(ruleset_id)
    return 1 if ruleset is None else family_of(ruleset).computer_cost(ruleset, level)


def create_estimate(*, ruleset_id: str, players: Sequence[Seat], open_seats: int) -> int:
    """What a new game's computer seats likely cost its creation: nothing while it waits for
    seats or has no computer; a whole game for one of computers only (each seat's moves in a
    game, a box game's boxes times its rolls and a score); else one unit, for the computers
    seated before the first person, who play their first turns at once."""
    levels = [p.computer for p in players if p.computer is not None]
    if open_seats or not levels:
        return 0
    if len(levels) < len(players):
        return 1
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is not None:
        family = family_of(ruleset)
        return sum(
            family.computer_game_moves(ruleset, level) * family.computer_cost(ruleset, level)
            for level in levels
        )
    return 0  # an unknown ruleset: the service refuses it
