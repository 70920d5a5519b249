"""Sending one webhook delivery: where to (a public address, checked when it is sent), what
(the Standard Webhooks signature over the body), and what comes of it (delivered, tried
again later with growing waits, or failed).

The address is resolved at every attempt, and the request goes to the address that was
checked, so a name cannot be pointed at a private address after the webhook was registered.
"""

import datetime as dt
import http.client
import ipaddress
import json
import socket
import ssl
import uuid
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone
from django_tasks import task
from standardwebhooks.webhooks import Webhook as Signer

from games.models import Delivery
from games.observe.metrics import WEBHOOK_DELIVERIES

TIMEOUT_SECONDS = 5
# The waits before each retry: the first within 30 seconds, then growing, for 31 hours in
# all (the contract asks at least 24); after the last, the delivery has failed.
RETRY_WAITS = [
    dt.timedelta(seconds=10), dt.timedelta(minutes=1), dt.timedelta(minutes=5),
    dt.timedelta(minutes=30), dt.timedelta(hours=2), dt.timedelta(hours=5),
    dt.timedelta(hours=10), dt.timedelta(hours=14),
]


class NotAllowed(ValueError):
    """A target that resolves to no public address (and private ones are not allowed)."""


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


def public_address(url: str) -> tuple[str, int]:
    """The address to send to: the first of the URL's host's addresses, each of which must be
    public unless ``WEBHOOK_ALLOW_PRIVATE``; raises :class:`NotAllowed`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotAllowed("the URL must be http:// or https:// with a host")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise NotAllowed(f"the host {parts.hostname!r} cannot be resolved") from error
    addresses = [info[4][0] for info in found]
    if not settings.WEBHOOK_ALLOW_PRIVATE:
        for address in addresses:
            if not is_public(address):
                raise NotAllowed(
                    f"the host {parts.hostname!r} resolves to a non-public address ({address})"
                )
    return addresses[0], port


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to an address already checked, with the certificate checked for the host."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: str, headers: dict[str, str]) -> int:
    """POSTs ``body`` to the checked address of ``url``; answers the status. Redirects are
    not followed (a redirect is not a 2xx: the delivery is tried again later)."""
    address, port = public_address(url)
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme == "https":
        connection: http.client.HTTPConnection = _PinnedHTTPS(host, address, port, TIMEOUT_SECONDS)
    else:
        connection = http.client.HTTPConnection(address, port, timeout=TIMEOUT_SECONDS)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", path, body=body.encode(), headers={
            **headers, "Host": parts.netloc.rpartition("@")[2], "Content-Type": "application/json",
            "User-Agent": "dice-games-webhooks/1",
        })
        response = connection.getresponse()
        response.read(65_536)
        return response.status
    finally:
        connection.close()


def signed_headers(secret: str, message_id: str, moment: dt.datetime, body: str) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": Signer(secret).sign(message_id, moment, body),
    }


def attempt(delivery_id: uuid.UUID) -> Delivery | None:
    """One attempt of a delivery still being tried; schedules the next one if it fails."""
    delivery = Delivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != Delivery.Status.RETRYING:
        return delivery
    body = json.dumps(delivery.payload, separators=(",", ":"))
    now = timezone.now()
    headers = signed_headers(delivery.webhook.secret, f"msg_{delivery.id.hex}", now, body)
    code: int | None = None
    try:
        code = post(delivery.webhook.url, body, headers)
    except NotAllowed:
        delivery.status = Delivery.Status.FAILED
    except (OSError, http.client.HTTPException):
        code = None  # refused, reset, or no answer within the timeout
    delivery.attempts += 1
    delivery.last_status_code = code
    delivery.next_attempt_at = None
    if delivery.status == Delivery.Status.RETRYING:
        if code is not None and 200 <= code < 300:
            delivery.status = Delivery.Status.DELIVERED
        elif delivery.attempts > len(RETRY_WAITS):
            delivery.status = Delivery.Status.FAILED
        else:
            delivery.next_attempt_at = now + RETRY_WAITS[delivery.attempts - 1]
            send.using(run_after=delivery.next_attempt_at).enqueue(str(delivery.id))
    delivery.save(update_fields=["attempts", "last_status_code", "status", "next_attempt_at"])
    WEBHOOK_DELIVERIES.labels(_outcome(delivery, code)).inc()
    return delivery


def _outcome(delivery: Delivery, code: int | None) -> str:
    """``delivered``; ``failed`` (retries spent, or a target not allowed); else why it will
    be tried again: ``refused`` (an answer that is not 2xx) or ``unanswered``."""
    if delivery.status != Delivery.Status.RETRYING:
        return str(delivery.status)
    return "unanswered" if code is None else "refused"


@task()
def send(delivery_id: str) -> None:
    """A delivery's attempt, run by a worker: at once after the event, then at each retry."""
    attempt(uuid.UUID(delivery_id))
