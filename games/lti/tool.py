"""pylti1p3 (through django-lti's tables) doing the LTI 1.3 checks, and the checks it leaves
out done here.

pylti1p3 checks the OIDC state against the browser's cookie, the id_token's signature
against the platform's JWKS, ``exp`` and a future ``iat`` (PyJWT), that the issuer and the
client are registered, and that the nonce is one the login issued. It leaves out, and this
module adds:

- an unknown deployment is refused (django-lti would create it);
- ``aud`` must hold the registration's client id, ``azp`` (required when ``aud`` holds
  several) must be it; ``exp`` and ``iat`` must be there; ``iat`` no older than
  ``LTI_TOKEN_MAX_AGE``;
- the platform's JWKS is cached (``LTI_JWKS_CACHE_SECONDS``) and fetched again at once for
  a key id it does not list; fetched with a timeout;
- the nonce and the state are spent once (``games.lti.launches.launch_enter`` spends them
  with the rest of the launch: a replayed token or state is refused there).
"""

import time
import typing as t
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_noop
from lti_tool.models import LtiDeployment, LtiRegistration
from lti_tool.utils import DjangoToolConfig
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.contrib.django.request import DjangoRequest
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException, OIDCException

from games.lti.keys import tool_key_latest
from games.play.errors import ServiceCode, ServiceError

FETCH_TIMEOUT = 5  # seconds for the platform's JWKS
JWKS_CACHE_PREFIX = "lti-jwks:"


class ToolConfig(DjangoToolConfig):
    """django-lti's lookups of active registrations, but a deployment must be registered
    and active: an unknown one is refused, never created."""

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self._deployment(iss=iss, deployment_id=deployment_id, client_id=None)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Deployment | None:
        return self._deployment(iss=iss, deployment_id=deployment_id, client_id=client_id)

    def _deployment(
        self, *, iss: str, deployment_id: str, client_id: str | None
    ) -> Deployment | None:
        found = LtiDeployment.objects.filter(
            registration__issuer=iss,
            registration__is_active=True,
            deployment_id=deployment_id,
            is_active=True,
        )
        if client_id is not None:
            found = found.filter(registration__client_id=client_id)
        self.deployment = found.select_related("registration").first()
        if self.deployment is None:
            return None
        return Deployment().set_deployment_id(self.deployment.deployment_id)


class TimedSession(requests.Session):
    """Every request with a timeout: a platform that does not answer costs seconds."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", FETCH_TIMEOUT)
        return super().request(*args, **kwargs)


class ToolLaunch(DjangoMessageLaunch):
    """A message launch checked by pylti1p3, then by :meth:`check_more`."""

    def __init__(self, request: HttpRequest, tool_config: ToolConfig) -> None:
        super().__init__(
            DjangoRequest(request, post_only=request.method == "POST"),
            tool_config,
            launch_data_storage=DjangoCacheDataStorage(),
            requests_session=TimedSession(),
        )
        # exp and iat are checked by check_more, with LTI_CLOCK_LEEWAY (PyJWT has none).
        self.set_jwt_verify_options({"verify_aud": False, "verify_exp": False, "verify_iat": False})
        self.set_launch_data_lifetime(settings.LTI_TOKEN_MAX_AGE)

    def fetch_public_key(self, key_set_url: str) -> Any:
        """The platform's JWKS, from the cache while it lasts (pylti1p3 fetches each time)."""
        cache_key = JWKS_CACHE_PREFIX + key_set_url
        kept = cache.get(cache_key)
        if isinstance(kept, dict):
            return kept
        fetched = super().fetch_public_key(key_set_url)
        if not isinstance(fetched, dict) or not isinstance(fetched.get("keys"), list):
            raise LtiException("the platform's JWKS is not a key set")
        cache.set(cache_key, fetched, settings.LTI_JWKS_CACHE_SECONDS)
        return fetched

    def get_public_key(self) -> tuple[str, str]:
        """The key that signed the token; a key id not in the cached JWKS fetches it again
        once (the platform has rotated its keys)."""
        try:
            return super().get_public_key()
        except LtiException:
            registration = self._registration
            url = registration.get_key_set_url() if registration is not None else None
            if registration is None or not url:
                raise
            cache.delete(JWKS_CACHE_PREFIX + url)
            registration.set_key_set(None)
            return super().get_public_key()

    def check_more(self, registration: LtiRegistration) -> None:
        """What pylti1p3 leaves out (the signature is checked by now: the body is the
        platform's)."""
        body = self.get_launch_data()
        aud = body.get("aud")
        audience = aud if isinstance(aud, list) else [aud]
        if registration.client_id not in audience:
            raise LtiException("the token is not for this tool (aud)")
        azp = body.get("azp")
        if (len(audience) > 1 or azp is not None) and azp != registration.client_id:
            raise LtiException("the token was not issued to this tool (azp)")
        now = time.time()
        exp, iat = body.get("exp"), body.get("iat")
        if not isinstance(exp, int | float) or not isinstance(iat, int | float):
            raise LtiException("the token has no exp or iat")
        if exp < now - settings.LTI_CLOCK_LEEWAY:
            raise LtiException("the token has expired")
        if iat > now + settings.LTI_CLOCK_LEEWAY:
            raise LtiException("the token was issued in the future")
        if iat < now - settings.LTI_TOKEN_MAX_AGE:
            raise LtiException("the token is too old")
        if not isinstance(body.get("sub"), str) or not body["sub"]:
            raise LtiException("the token names no user (sub)")


@dataclass(frozen=True)
class Checked:
    """A launch that passed every check but the single use of its nonce and state."""

    registration: LtiRegistration
    deployment: LtiDeployment
    claims: dict[str, Any]
    state: str


UNREGISTERED = ("Registration not found", "Client id not registered", "Unable to find deployment")


def launch_check(request: HttpRequest) -> Checked:
    """The launch's id_token checked (``lti_launch_invalid``; an issuer, client or
    deployment not registered: ``lti_not_registered``). Nothing is written but pylti1p3's
    cache entries."""
    config = ToolConfig()
    launch = ToolLaunch(request, config)
    try:
        launch.validate()
        launch.check_more(config.registration)
    except LtiException as refused:
        text = str(refused)
        code = (
            ServiceCode.LTI_NOT_REGISTERED
            if text.startswith(UNREGISTERED)
            else ServiceCode.LTI_LAUNCH_INVALID
        )
        raise ServiceError(code, text) from None
    except (KeyError, TypeError, ValueError, AssertionError) as refused:
        raise ServiceError(
            ServiceCode.LTI_LAUNCH_INVALID, gettext_noop("malformed launch: {reason}"),
            reason=refused,
        ) from None
    state = request.POST.get("state") if request.method == "POST" else request.GET.get("state")
    return Checked(
        registration=config.registration,
        deployment=config.deployment,
        claims=dict(launch.get_launch_data()),
        state=str(state),
    )


def login_response(request: HttpRequest, *, launch_url: str) -> HttpResponse:
    """The answer to a platform's OIDC login initiation: the redirect to its authorization
    endpoint, with a state (kept in a cookie, SameSite=None on HTTPS) and a nonce. Where
    the browser refuses the cookie inside the platform's frame, pylti1p3's page offers to
    go on in a new window. The launch always comes back to ``launch_url``, never to an
    address the request names."""
    tool_key_latest()  # the JWKS lists a key before any platform asks for it
    login = DjangoOIDCLogin(request, ToolConfig(), launch_data_storage=DjangoCacheDataStorage())
    try:
        login.validate_oidc_login()  # an unregistered platform is refused before any page
        response = login.enable_check_cookies(
            "Your browser keeps this tool from using cookies inside the course page.",
            "Open it in a new window",
            "Loading…",
        ).redirect(launch_url)
    except (LtiException, OIDCException) as refused:
        code = (
            ServiceCode.LTI_NOT_REGISTERED
            if "registration" in str(refused).lower()
            else ServiceCode.LTI_LAUNCH_INVALID
        )
        raise ServiceError(code, str(refused)) from None
    return t.cast(HttpResponse, response)
