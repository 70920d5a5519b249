"""Strategy tables built once per deployment (see ``games.models.strategy``): what a
request does when a table is missing here, and what a worker does to build it.

A request never solves a table. It first copies the deployment's stored table, if there is
one, into this process's ``STRATEGY_DIR`` (a fraction of a second); else it queues the
build, unless the one asking has queued ``STRATEGY_BUILD_RATE`` new tables already (3 an
hour by default, per client address) or ``STRATEGY_BUILDS_WAITING`` tables wait already:
then nothing is queued. Either way the answer is 503 ``strategy_unavailable`` with
``Retry-After``. The work the first case asks for is a core for 5 to 50 seconds, so a
caller cheaply asking for many bank minimums must not be able to queue them all.

Workers take queued rows with ``FOR UPDATE SKIP LOCKED`` (SQLite: one writer at a time)
under a lease, solve each in a child process at a lower priority than serving
(``STRATEGY_BUILD_NICE``), renew the lease while it runs, and store the file's bytes. A
build that fails waits longer before its next try; a worker that dies leaves its lease to
run out, and another worker takes the table up again.
"""

import contextvars
import hashlib
import json
import logging
import os
import tempfile
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import DateTimeField, ExpressionWrapper, Q, QuerySet
from django.db.models.functions import Now

from games.models import StrategyTable
from scoring import family_of
from scoring.state import OptionValue

log = logging.getLogger("games.work")

# Who asks for a missing table in this request: the HTTP layer's count of the new tables its
# client may still queue (True while within the limit; it counts one more on each call).
# None outside requests (a worker's figures, the admin): those are not limited.
ASKER: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "table_asker", default=None
)


class Asked(Enum):
    """What came of a request's asking for a missing table."""

    QUEUED = "queued"  # its build is queued now
    WAITING = "waiting"  # queued already (or being built)
    LIMITED = "limited"  # the asker queued its share of new tables this hour: not queued
    BUSY = "busy"  # too many tables wait already: not queued


@dataclass(frozen=True)
class Spec:
    """One table: its ruleset, full options, file name and engine fingerprint."""

    ruleset: str
    options: dict[str, OptionValue]
    name: str
    fingerprint: str


def spec_of(ruleset_id: str, options: Mapping[str, OptionValue]) -> Spec:
    """The table these (validated) options of this ruleset need."""
    return _spec(ruleset_id, json.dumps(options, sort_keys=True))


@lru_cache(maxsize=256)  # the fingerprint hashes the engine's answers: a few milliseconds
def _spec(ruleset_id: str, options_json: str) -> Spec:
    options = json.loads(options_json)
    full, name, meta = family_of(ruleset_id).table_file(ruleset_id, options)
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()
    return Spec(ruleset_id, full, name, digest)


def _row(spec: Spec) -> QuerySet[StrategyTable]:
    return StrategyTable.objects.filter(name=spec.name, fingerprint=spec.fingerprint)


# -- in a request ---------------------------------------------------------------------------


def fetch(spec: Spec, folder: str | os.PathLike[str]) -> bool:
    """Copy the deployment's stored table into ``folder``, if it is built; whether it was."""
    data = _row(spec).filter(built_at__isnull=False).values_list("data", flat=True).first()
    if data is None:
        return False
    write_file(Path(folder) / spec.name, bytes(data))
    return True


def write_file(path: Path, data: bytes) -> None:
    """Write atomically: a reader in another process never sees half a table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def ask(spec: Spec) -> Asked:
    """Queue the build of a missing table, within the asker's limit (module docstring)."""
    if _row(spec).exists():
        return Asked.WAITING
    asker = ASKER.get()
    if asker is not None:
        if waiting() >= settings.STRATEGY_BUILDS_WAITING:
            return Asked.BUSY
        if not asker():
            return Asked.LIMITED
    try:
        with transaction.atomic():
            StrategyTable.objects.create(
                name=spec.name, fingerprint=spec.fingerprint,
                ruleset=spec.ruleset, options=spec.options,
            )
    except IntegrityError:  # another request queued it meanwhile
        return Asked.WAITING
    log.info("strategy table %s queued", spec.name)
    return Asked.QUEUED


def waiting() -> int:
    """How many tables are queued or being built."""
    return StrategyTable.objects.filter(built_at__isnull=True).count()


# -- in a worker ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Taken:
    """A table a worker took to build, and the lease it holds it by."""

    pk: int
    lease: uuid.UUID
    spec: Spec
    attempts: int


def _after(seconds: float) -> ExpressionWrapper:
    """The database's time ``seconds`` from now."""
    return ExpressionWrapper(Now() + timedelta(seconds=seconds), output_field=DateTimeField())


def take(*, lease_seconds: float) -> Taken | None:
    """The longest-waiting table nobody builds (none leased, or its lease run out), leased
    to the caller; None if there is none."""
    with transaction.atomic():
        row = (
            StrategyTable.objects.select_for_update(skip_locked=True)
            .filter(built_at__isnull=True)
            .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=Now()))
            .order_by("requested_at", "pk")
            .defer("data")
            .first()
        )
        if row is None:
            return None
        lease = uuid.uuid4()
        StrategyTable.objects.filter(pk=row.pk).update(
            lease=lease, leased_until=_after(lease_seconds), attempts=row.attempts + 1
        )
    spec = Spec(row.ruleset, dict(row.options), row.name, row.fingerprint)
    return Taken(row.pk, lease, spec, row.attempts + 1)


def _held(taken: Taken) -> QuerySet[StrategyTable]:
    return StrategyTable.objects.filter(pk=taken.pk, lease=taken.lease, built_at__isnull=True)


def renew(taken: Taken, *, lease_seconds: float) -> bool:
    """Keep the lease for another ``lease_seconds``; whether it was still held."""
    return bool(_held(taken).update(leased_until=_after(lease_seconds)))


def store(taken: Taken, data: bytes, *, seconds: float) -> bool:
    """Store the built table (under the lease); whether it was stored."""
    return bool(
        _held(taken).update(
            data=data, built_at=Now(), build_seconds=round(seconds, 3),
            lease=None, leased_until=None,
        )
    )


def put_off(taken: Taken, *, seconds: float) -> None:
    """A failed build: tried again (by any worker) after ``seconds``."""
    _held(taken).update(lease=None, leased_until=_after(seconds))


def keep_built(spec: Spec, data: bytes, *, seconds: float) -> bool:
    """Store a table built outside the queue (``build_strategy``), unless the deployment has
    it already; whether it was stored."""
    row, created = StrategyTable.objects.get_or_create(
        name=spec.name, fingerprint=spec.fingerprint,
        defaults={"ruleset": spec.ruleset, "options": spec.options},
    )
    if not created and row.built_at is not None:
        return False
    return bool(
        StrategyTable.objects.filter(pk=row.pk, built_at__isnull=True).update(
            data=data, built_at=Now(), build_seconds=round(seconds, 3),
            lease=None, leased_until=None,
        )
    )
