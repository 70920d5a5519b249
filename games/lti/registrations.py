"""Platforms registered with the tool: by ``manage.py lti_register``, by the admin, or by
LTI Dynamic Registration. A platform's URLs must be HTTPS, except on loopback hosts
(development and tests)."""

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.db import transaction
from django.utils.translation import gettext_noop
from lti_tool.models import LtiDeployment, LtiRegistration

from games.lti.keys import tool_key_latest
from games.play.errors import ServiceCode, ServiceError

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
TOOL_PATHS = {"login": "/lti/login/", "launch": "/lti/launch/", "jwks": "/lti/jwks/"}


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_check(url: str, *, field: str) -> str:
    """``url`` if it is an https URL, or http to a loopback host; else ``url_not_allowed``."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if parts.scheme == "https" and host:
        return url.strip()
    if parts.scheme == "http" and host and is_loopback(host):
        return url.strip()
    raise ServiceError(
        ServiceCode.URL_NOT_ALLOWED,
        gettext_noop("{field} must be an https URL (http only to a loopback host): {url!r}"),
        field=field, url=url,
    )


def tool_urls(base: str) -> dict[str, str]:
    """The tool's absolute URLs under ``base`` (scheme and host, as the request reached
    them)."""
    root = base.rstrip("/")
    return {name: root + path for name, path in TOOL_PATHS.items()}


@dataclass(frozen=True)
class Registered:
    registration: LtiRegistration
    deployments: list[str]
    created: bool


def registration_add(
    *,
    issuer: str,
    client_id: str,
    deployment_ids: Sequence[str],
    auth_url: str,
    token_url: str,
    keyset_url: str,
    audience: str = "",
    name: str = "",
) -> Registered:
    """Registers a platform (or updates the registration of this issuer and client), its
    deployments active. Checked first: a refused registration changes nothing."""
    if not issuer.strip() or not client_id.strip():
        raise ServiceError(
            ServiceCode.URL_NOT_ALLOWED, gettext_noop("issuer and client id are required")
        )
    urls = {
        "auth_url": url_check(auth_url, field="auth_url"),
        "token_url": url_check(token_url, field="token_url"),
        "keyset_url": url_check(keyset_url, field="keyset_url"),
    }
    deployments = [d.strip() for d in deployment_ids if d.strip()]
    with transaction.atomic():
        registration, created = LtiRegistration.objects.update_or_create(
            issuer=issuer.strip(),
            client_id=client_id.strip(),
            defaults={
                **urls,
                "audience": audience.strip(),
                "name": name.strip() or f"{urlsplit(issuer).hostname or issuer} {client_id}"[:255],
                "is_active": True,
            },
        )
        for deployment_id in deployments:
            LtiDeployment.objects.update_or_create(
                registration=registration,
                deployment_id=deployment_id,
                defaults={"is_active": True},
            )
    tool_key_latest()
    return Registered(registration=registration, deployments=deployments, created=created)
