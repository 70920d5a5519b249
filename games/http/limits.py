"""Rate limits whose counters live in Django's cache, shared by every worker and host.

A limit is one or more windows, written ``"300/minute,3000/hour"``. Each window is a fixed
interval of the clock with one counter per client in the cache: the counter is created
with ``add`` (expiring after its window) and raised with ``incr``, which Redis does
atomically and ``games.db.cache.DatabaseCache`` does under a row lock, so requests that race
through different worker processes are all counted. A request over any window is refused
and told to retry when that window ends.

The client is the request's API key when it carries a valid one (see
``games.http.api_keys``), else its address. The address is the connection's, unless
``NUM_PROXIES`` says how many proxies in front of the service append to
``X-Forwarded-For``; then it is the entry the nearest of them saw. With ``NUM_PROXIES=0``
the header is ignored: a request carrying it whose connection address was taken from it
(servers such as uvicorn do so for local peers) is counted as one shared client,
``forwarded``, so that a forged header changes nothing. IPv6 clients count per /64
network, the block one subscriber is given.
"""

import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

from games.observe.logs import one_line

logger = logging.getLogger(__name__)

UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
# A counter outlives its window a little, so that a slow request never raises a counter
# that has just expired (which would create it again without an expiry).
EXPIRY_MARGIN = 60


@dataclass(frozen=True)
class Window:
    count: int
    seconds: int


@lru_cache(maxsize=64)
def parse_rates(text: str, *, name: str = "rate") -> tuple[Window, ...]:
    """``"300/minute,3000/hour"`` as windows; empty text is no limit."""
    windows = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        count, _, unit = part.partition("/")
        unit = unit.strip().lower().removesuffix("s")
        unit = {"s": "second", "m": "minute", "h": "hour", "d": "day"}.get(unit, unit)
        try:
            windows.append(Window(int(count), UNITS[unit]))
        except (ValueError, KeyError):
            raise ImproperlyConfigured(
                f"{name}: {part!r} is not '<count>/<second|minute|hour|day>'"
            ) from None
    return tuple(windows)


def _host(entry: str) -> str:
    """The host of an address entry: ``[::1]:80`` and ``1.2.3.4:80`` lose their port."""
    entry = entry.strip()
    if entry.startswith("["):
        return entry[1:].partition("]")[0]
    if entry.count(":") == 1:
        return entry.partition(":")[0]
    return entry


@lru_cache(maxsize=4096)  # every request carrying credentials asks: the same few addresses
def _normal(entry: str) -> str:
    host = _host(entry)
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        # The /64 network, written as its first address (still a valid address).
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def client_address(request: HttpRequest) -> str:
    """The client's address as the limits count it (see the module's notes)."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "") or ""
    hosts = [h.strip() for h in forwarded.split(",") if h.strip()]
    proxies = settings.NUM_PROXIES or 0
    if hosts and proxies > 0:
        return _normal(hosts[-min(proxies, len(hosts))])
    if hosts and _host(remote) in {_host(h) for h in hosts}:
        return "forwarded"
    return _normal(remote)


def admin_login_address(request: HttpRequest) -> str | None:
    """The address django-axes counts admin logins by: ``client_address`` when it is an
    address; None (one shared count) for ``forwarded`` or an unknown peer, since axes
    stores addresses in an address column."""
    address = client_address(request)
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return None
    return address


def _cache() -> BaseCache:
    return caches[settings.LIMITS_CACHE]


def _key(scope: str, ident: str, window: Window, index: int) -> str:
    return f"limit:{scope}:{window.count}/{window.seconds}:{_digest(ident)}:{index}"


@lru_cache(maxsize=4096)
def _digest(ident: str) -> str:
    """An address or key id of any shape as a short name every cache backend accepts."""
    return hashlib.sha256(ident.encode()).hexdigest()[:32]


def _raise(key: str, timeout: int, amount: int) -> int:
    cache = _cache()
    for _ in range(3):
        try:
            return cache.incr(key, amount)
        except ValueError:  # no counter yet in this window
            cache.add(key, 0, timeout)
    return cache.incr(key, amount)


def hit(
    *,
    scope: str,
    ident: str,
    windows: Sequence[Window],
    amount: int = 1,
    at: float | None = None,
) -> float | None:
    """Counts one request (or ``amount`` units of a budget; a negative amount gives units
    back) in every window: None if it is within them all, else the seconds until the
    fullest window it is over ends. ``at``: the windows of that moment (``time.time()``),
    where units are given back to the windows they were taken from. If the cache cannot be
    reached the request passes (and the failure is logged): a limit must not take the
    service down with it."""
    try:
        return _hit(scope, ident, windows, amount, time.time() if at is None else at)
    except Exception as error:  # noqa: BLE001 - any failure of the cache backend
        _cache_failed(scope, error)
        return None


def _hit(
    scope: str, ident: str, windows: Sequence[Window], amount: int, now: float
) -> float | None:
    wait: float | None = None
    for window in windows:
        index = math.floor(now / window.seconds)
        count = _raise(_key(scope, ident, window, index), window.seconds + EXPIRY_MARGIN, amount)
        if count > window.count:
            wait = max(wait or 0.0, (index + 1) * window.seconds - now)
    return wait


def _cache_failed(scope: str, error: Exception) -> None:
    """One line in the log, not a traceback: the cache failing (its database gone, say) is
    an outage the operator reads about, not a fault in the code."""
    logger.warning("rate limit %s not checked: the cache failed (%s)", scope, one_line(error))


def over(*, scope: str, ident: str, windows: Sequence[Window]) -> float | None:
    """Without counting: the seconds to wait if a window is already full, else None."""
    return _over(scope, ident, windows)[0]


def _over(scope: str, ident: str, windows: Sequence[Window]) -> tuple[float | None, bool]:
    """:func:`over`'s answer, and whether every window's counter is at zero (none counted)."""
    now = time.time()
    indexes = {w: math.floor(now / w.seconds) for w in windows}
    keys = {w: _key(scope, ident, w, i) for w, i in indexes.items()}
    try:
        counts = _cache().get_many(list(keys.values())) if keys else {}
    except Exception as error:  # noqa: BLE001 - any failure of the cache backend, as in hit()
        _cache_failed(scope, error)
        return None, False
    wait: float | None = None
    for window, key in keys.items():
        if counts.get(key, 0) >= window.count:
            wait = max(wait or 0.0, (indexes[window] + 1) * window.seconds - now)
    return wait, not any(counts.values())


# -- failed checks of credentials -----------------------------------------------------------


def _failure_windows() -> tuple[Window, ...]:
    return parse_rates(settings.THROTTLE_RATES.get("failures") or "", name="THROTTLE_FAILURES")


# An address none of whose credentials failed lately is not asked about again for CLEAN_FOR
# seconds by the process that asked: a well-behaved client's every request would otherwise
# wait for the shared cache (a round trip to Redis on each move). A failure recorded here
# forgets it at once, and an address with any failure counted is asked about on every
# request, so an address whose wrong credentials keep coming is refused as soon as any
# process has counted it over; only an address with none counted, whose first failures all
# arrive through other processes within that second, has one more check here before the
# refusal.
CLEAN_FOR = 1.0
_CLEAN_KEPT = 10_000  # addresses remembered at most, then forgotten all at once
_clean: dict[tuple[str, tuple[Window, ...]], float] = {}


def forget_clean() -> None:
    """Forgets every address known clean (settings changed; a test's new limits)."""
    _clean.clear()


def failures_wait(request: HttpRequest) -> float | None:
    """Seconds the address must wait before its credentials are checked again, if any."""
    windows = _failure_windows()
    if not windows:
        return None
    known = (client_address(request), windows)
    now = time.monotonic()
    if now - _clean.get(known, -CLEAN_FOR) < CLEAN_FOR:
        return None
    wait, clean = _over("failures", known[0], windows)
    if clean:
        if len(_clean) >= _CLEAN_KEPT:
            _clean.clear()
        _clean[known] = now
    return wait


def failure_record(request: HttpRequest) -> None:
    """A wrong key, seat token or join code from this address."""
    windows = _failure_windows()
    if windows:
        ident = client_address(request)
        _clean.pop((ident, windows), None)
        hit(scope="failures", ident=ident, windows=windows)
