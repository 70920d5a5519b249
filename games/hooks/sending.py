"""Sending webhook deliveries: which are due (taken under a lease), where to (a public
address, checked at every attempt), what (the Standard Webhooks signature over the body),
and what comes of an attempt (delivered, tried again later with growing waits, or failed).

An attempt has five seconds in all, name lookup, connection, request and the whole answer
included: a receiver that answers slower, or trickles its answer, has not answered, whatever
status it ends with. Attempts are sent by an event loop (``aiohttp``), many at once, so that
receivers that never answer hold up nobody else; the database work (taking deliveries,
writing outcomes) stays in the worker's own thread (``games.work``).

The host is resolved at every attempt, and the connection goes to an address that was
checked, so a name cannot be pointed at a private address after the webhook was registered;
a name that does not resolve (for now) is tried again later like a refused connection.
"""

import asyncio
import datetime as dt
import ipaddress
import json
import logging
import socket
import uuid
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LookupTimeout
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from django.conf import settings
from django.db import transaction
from django.db.models.functions import Now
from django.utils.translation import gettext_noop
from standardwebhooks.webhooks import Webhook as Signer

from games.models import Delivery
from games.observe.metrics import WEBHOOK_DELIVERIES
from scoring.errors import Worded

TIMEOUT_SECONDS = 5
# The waits before each retry: the first within 30 seconds, then growing, for 31 hours in
# all (the contract asks at least 24); after the last, the delivery has failed.
RETRY_WAITS = [
    dt.timedelta(seconds=10), dt.timedelta(minutes=1), dt.timedelta(minutes=5),
    dt.timedelta(minutes=30), dt.timedelta(hours=2), dt.timedelta(hours=5),
    dt.timedelta(hours=10), dt.timedelta(hours=14),
]
# A registration waits this long for its URL's host to resolve (the lookups run in a few
# threads of their own, so a name server that never answers holds up no request for long).
LOOKUP_SECONDS = 3
_registration_lookups = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-lookup")
log = logging.getLogger("games.hooks")
# At most this much of an answer is read (the status is what counts).
ANSWER_BYTES = 65_536


class NotAllowed(Worded, ValueError):
    """A target that resolves to no public address (and private ones are not allowed); its
    ``message`` is marked for translation, with its fields (``scoring.errors.Worded``)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message, None, params)


# IPv6 prefixes whose last 32 bits are an IPv4 address that the traffic reaches: NAT64's
# well-known and local-use prefixes, and the deprecated IPv4-compatible form (``::a.b.c.d``).
IPV4_IN_LAST_BITS = [
    ipaddress.ip_network("64:ff9b::/96"),
    ipaddress.ip_network("64:ff9b:1::/48"),
    ipaddress.ip_network("::/96"),
]


def is_public(address: str) -> bool:
    """Whether an address is public. An IPv6 address that carries an IPv4 address (mapped,
    6to4, NAT64, IPv4-compatible) is judged by the IPv4 address inside, where it leads."""
    found = ipaddress.ip_address(address.split("%")[0])
    if isinstance(found, ipaddress.IPv6Address):
        inside = found.ipv4_mapped or found.sixtofour
        if inside is None and any(found in network for network in IPV4_IN_LAST_BITS):
            inside = ipaddress.IPv4Address(int(found) & 0xFFFFFFFF)
        if inside is not None:
            return inside.is_global
    return found.is_global


def check_addresses(host: str, addresses: Iterable[str]) -> None:
    """Raises :class:`NotAllowed` unless every address is public (or private ones are
    allowed, for development and tests)."""
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return
    for address in addresses:
        if not is_public(address):
            raise NotAllowed(
                gettext_noop("the host {host!r} resolves to a non-public address ({address})"),
                host=host, address=address,
            )


def _target(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotAllowed(gettext_noop("the URL must be http:// or https:// with a host"))
    return parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)


def public_address(url: str) -> tuple[str, int]:
    """The address a registration's URL resolves to now (the first), each of its addresses
    public; raises :class:`NotAllowed`, also when the name does not resolve within
    ``LOOKUP_SECONDS``."""
    host, port = _target(url)
    lookup = _registration_lookups.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        found = lookup.result(timeout=LOOKUP_SECONDS)
    except LookupTimeout:
        raise NotAllowed(
            gettext_noop("the host {host!r} did not resolve within {seconds} s"),
            host=host, seconds=LOOKUP_SECONDS,
        ) from None
    except (OSError, UnicodeError) as error:
        raise NotAllowed(
            gettext_noop("the host {host!r} cannot be resolved"), host=host
        ) from error
    addresses = [str(info[4][0]) for info in found]  # IPv4 and IPv6 addresses: strings
    check_addresses(host, addresses)
    return addresses[0], port


def signed_headers(secret: str, message_id: str, moment: dt.datetime, body: str) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": Signer(secret).sign(message_id, moment, body),
    }


# -- taking deliveries that are due, and writing what came of them --------------------------


@dataclass(frozen=True)
class Taken:
    """A delivery taken for one attempt, under ``lease``: everything the attempt needs, so
    that it runs with no database."""

    id: uuid.UUID
    webhook_id: uuid.UUID
    url: str
    secret: str = field(repr=False)
    payload: dict[str, Any]
    attempts: int
    lease: uuid.UUID


def deliveries_take(
    *, limit: int, per_webhook: int, busy: Mapping[uuid.UUID, int] | None = None
) -> list[Taken]:
    """Up to ``limit`` deliveries that are due, taken under a new lease; first attempts
    first, then the longest due. At most ``per_webhook`` for one webhook, counting the
    attempts ``busy`` already (so that one receiver's backlog cannot take every place).
    Deliveries another worker is taking at this moment are skipped."""
    in_flight = dict(busy or {})
    taken: list[Delivery] = []
    with transaction.atomic():
        due = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("webhook")
            .filter(status=Delivery.Status.RETRYING, next_attempt_at__lte=Now())
            .order_by("attempts", "next_attempt_at")
        )
        for delivery in due[: limit * 4]:
            if in_flight.get(delivery.webhook_id, 0) >= per_webhook:
                continue
            in_flight[delivery.webhook_id] = in_flight.get(delivery.webhook_id, 0) + 1
            taken.append(delivery)
            if len(taken) == limit:
                break
        if not taken:
            return []
        # Held for WORK_LEASE_SECONDS: an attempt ends within its 5 seconds, so only a
        # worker that died leaves a lease to run out, and the delivery is then due again.
        lease = uuid.uuid4()
        Delivery.objects.filter(pk__in=[d.pk for d in taken]).update(
            lease=lease, next_attempt_at=Now() + dt.timedelta(seconds=settings.WORK_LEASE_SECONDS)
        )
    return [
        Taken(d.id, d.webhook_id, d.webhook.url, d.webhook.secret, d.payload, d.attempts, lease)
        for d in taken
    ]


@dataclass(frozen=True)
class Outcome:
    """What came of an attempt: the answer's status (None: no answer in time, refused, or no
    address for now), or a target that is not allowed."""

    code: int | None = None
    not_allowed: bool = False


def delivery_record(taken: Taken, outcome: Outcome) -> str | None:
    """Writes what came of an attempt, under the lease it was taken with: delivered,
    failed, or due again after the next wait. Answers the outcome counted in the metrics, or
    None if the lease was lost meanwhile (another worker took the delivery again, so that
    attempt's outcome is the one written)."""
    attempts = taken.attempts + 1
    code = outcome.code
    next_attempt = None
    if outcome.not_allowed:
        status = Delivery.Status.FAILED
    elif code is not None and 200 <= code < 300:
        status = Delivery.Status.DELIVERED
    elif attempts > len(RETRY_WAITS):
        status = Delivery.Status.FAILED
    else:
        status, next_attempt = Delivery.Status.RETRYING, Now() + RETRY_WAITS[attempts - 1]
    written = Delivery.objects.filter(pk=taken.id, lease=taken.lease).update(
        attempts=attempts, last_status_code=code, status=status, next_attempt_at=next_attempt,
        lease=None,
    )
    if not written:
        return None
    counted = _counted(status, code)
    WEBHOOK_DELIVERIES.labels(counted).inc()
    return counted


def _counted(status: str, code: int | None) -> str:
    """``delivered``; ``failed`` (retries spent, or a target not allowed); else why it will
    be tried again: ``refused`` (an answer that is not 2xx) or ``unanswered``."""
    if status != Delivery.Status.RETRYING:
        return str(status)
    return "unanswered" if code is None else "refused"


# -- one attempt, on an event loop ----------------------------------------------------------


class PublicResolver(AbstractResolver):
    """Resolves a receiver's host at every attempt, and refuses it unless every address is
    public: the connection then goes to one of the addresses checked here."""

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        loop = asyncio.get_running_loop()
        found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, family=family)
        check_addresses(host, [str(info[4][0]) for info in found])
        return [
            ResolveResult(
                hostname=host, host=str(info[4][0]), port=int(info[4][1]), family=info[0],
                proto=info[2], flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV,
            )
            for info in found
        ]

    async def close(self) -> None:
        return None


def new_session() -> aiohttp.ClientSession:
    """A session for attempts: each one resolves its host anew (no cache) and opens its own
    connection, through :class:`PublicResolver`."""
    connector = aiohttp.TCPConnector(
        resolver=PublicResolver(), use_dns_cache=False, force_close=True, limit=0
    )
    return aiohttp.ClientSession(connector=connector, raise_for_status=False)


async def attempt(session: aiohttp.ClientSession, taken: Taken) -> Outcome:
    """One attempt: the signed ``POST``, and the whole answer within ``TIMEOUT_SECONDS``.
    Redirects are not followed (a redirect is not a 2xx: the delivery is tried again)."""
    body = json.dumps(taken.payload, separators=(",", ":"))
    headers = signed_headers(taken.secret, f"msg_{taken.id.hex}", dt.datetime.now(dt.UTC), body)
    headers |= {"Content-Type": "application/json", "User-Agent": "dice-games-webhooks/1"}
    try:
        host, _ = _target(taken.url)
        if _is_address(host):  # an address is not looked up: check it here
            check_addresses(host, [host])
        async with asyncio.timeout(TIMEOUT_SECONDS):
            async with session.post(
                taken.url, data=body.encode(), headers=headers, allow_redirects=False
            ) as response:
                read = 0
                while read < ANSWER_BYTES and (chunk := await response.content.read(16_384)):
                    read += len(chunk)
                return Outcome(code=response.status)
    except NotAllowed:
        return Outcome(not_allowed=True)
    except (TimeoutError, aiohttp.ClientError, OSError, ValueError):
        return Outcome()  # no answer in time, refused, reset, or no address for now
    except Exception:  # whatever else went wrong, the delivery is tried again later
        log.exception("webhook attempt %s to %s", taken.id, taken.url)
        return Outcome()


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


async def _attempt_all(taken: Sequence[Taken]) -> list[Outcome]:
    async with new_session() as session:
        return list(await asyncio.gather(*(attempt(session, t) for t in taken)))


def deliver_due(*, limit: int = 100, per_webhook: int = 100) -> list[str | None]:
    """Takes the deliveries due now, attempts them all at once and writes what came of each;
    answers their outcomes. One pass, in this thread (the worker keeps attempts running
    while it takes more: ``games.work.deliveries``)."""
    taken = deliveries_take(limit=limit, per_webhook=per_webhook)
    if not taken:
        return []
    outcomes = asyncio.run(_attempt_all(taken))
    return [delivery_record(t, o) for t, o in zip(taken, outcomes, strict=True)]
