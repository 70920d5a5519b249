"""LTI Dynamic Registration (1.0): a platform's administrator pastes the tool's
``/lti/register/`` URL; the platform opens it with its OpenID configuration URL and a
registration token; the tool reads the configuration, registers itself at the platform's
registration endpoint (its login, launch and JWKS URLs, the messages it takes and the
LTI Advantage scopes it asks for), and registers the platform here with the client id and
deployment id the platform answers.

Written here on ``requests`` (a few documented JSON documents) rather than on the
django-lti add-on for it, which serialises its messages wrongly and calls the platform
with no timeout.
"""

from typing import Any
from urllib.parse import urlsplit

import requests
from django.utils.translation import gettext_noop

from games.lti.registrations import Registered, registration_add, tool_urls, url_check
from games.play.errors import ServiceCode, ServiceError
from scoring.errors import Words

TIMEOUT = 10  # seconds for each call to the platform
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
]
TOOL_NAME = "Dice games"


def _refused(
    detail: str, *, what: Words | None = None, status: int = 0, reason: str = ""
) -> ServiceError:
    """A refused registration: ``detail`` a marked template, filled with those of the other
    values it names."""
    return ServiceError(
        ServiceCode.LTI_LAUNCH_INVALID, detail, what=what, status=status, reason=reason
    )


def _json(response: requests.Response, what: Words) -> dict[str, Any]:
    if response.status_code >= 400:
        raise _refused(
            gettext_noop("dynamic registration: the platform refused the {what} ({status})"),
            what=what, status=response.status_code,
        )
    try:
        found = response.json()
    except ValueError:
        raise _refused(
            gettext_noop("dynamic registration: the platform's {what} is not JSON"), what=what
        ) from None
    if not isinstance(found, dict):
        raise _refused(
            gettext_noop("dynamic registration: the platform's {what} is not a JSON object"),
            what=what,
        )
    return found


def tool_registration(base: str) -> dict[str, Any]:
    """What the tool asks the platform to register (the client metadata of OpenID Connect
    Dynamic Client Registration, with LTI's tool configuration)."""
    urls = tool_urls(base)
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": urls["login"],
        "redirect_uris": [urls["launch"]],
        "client_name": TOOL_NAME,
        "jwks_uri": urls["jwks"],
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": " ".join(SCOPES),
        TOOL_CONFIGURATION: {
            "domain": urlsplit(base).netloc,
            "target_link_uri": urls["launch"],
            "claims": ["iss", "sub", "name", "given_name", "family_name"],
            "messages": [
                {"type": "LtiResourceLinkRequest", "target_link_uri": urls["launch"]},
                {
                    "type": "LtiDeepLinkingRequest",
                    "target_link_uri": urls["launch"],
                    "label": TOOL_NAME,
                    "placements": ["assignment_selection", "link_selection"],
                },
            ],
        },
    }


def dynamic_register(
    *, openid_configuration: str, registration_token: str, base: str,
    session: requests.Session | None = None,
) -> Registered:
    """Registers the tool with the platform and the platform with the tool."""
    url = url_check(openid_configuration, field="openid_configuration")
    http = session or requests.Session()
    auth = {"Authorization": f"Bearer {registration_token}"} if registration_token else {}
    try:
        config = _json(
            http.get(url, headers=auth, timeout=TIMEOUT),
            Words(gettext_noop("OpenID configuration")),
        )
        issuer = config.get("issuer")
        if not isinstance(issuer, str) or not url.startswith(issuer.rstrip("/")):
            raise _refused(gettext_noop(
                "dynamic registration: the configuration's issuer does not match its URL"
            ))
        endpoints = {
            k: config.get(k)
            for k in ("registration_endpoint", "authorization_endpoint", "token_endpoint",
                      "jwks_uri")
        }
        if not all(isinstance(v, str) for v in endpoints.values()):
            raise _refused(
                gettext_noop("dynamic registration: the configuration lacks an endpoint")
            )
        target = url_check(str(endpoints["registration_endpoint"]), field="registration_endpoint")
        answer = _json(
            http.post(target, json=tool_registration(base), headers=auth, timeout=TIMEOUT),
            Words(gettext_noop("registration")),
        )
    except requests.RequestException as failed:
        raise _refused(
            gettext_noop("dynamic registration: the platform could not be reached ({reason})"),
            reason=failed.__class__.__name__,
        ) from None
    client_id = answer.get("client_id")
    configured = answer.get(TOOL_CONFIGURATION)
    deployment = configured.get("deployment_id") if isinstance(configured, dict) else None
    if not isinstance(client_id, str) or not client_id:
        raise _refused(
            gettext_noop("dynamic registration: the platform answered no client id")
        )
    return registration_add(
        issuer=issuer,
        client_id=client_id,
        deployment_ids=[deployment] if isinstance(deployment, str) and deployment else [],
        auth_url=str(endpoints["authorization_endpoint"]),
        token_url=str(endpoints["token_endpoint"]),
        keyset_url=str(endpoints["jwks_uri"]),
    )
