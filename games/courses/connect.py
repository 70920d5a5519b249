"""Calls to a platform's services: pylti1p3's service connector (a token for the scopes
asked, got with a client assertion signed by the tool's key, then the call), with a time
limit on every request so that a platform that does not answer holds nothing up for long."""

import time
from typing import Any, Final

import requests
from lti_tool.models import LtiRegistration
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.service_connector import ServiceConnector

# Seconds to connect and to wait for the answer, per request.
TIMEOUT = (3.0, 10.0)
SCORE_SCOPE: Final = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
# What a call to a platform fails with: it is away, or it refused.
PLATFORM_FAILURES = (requests.RequestException, LtiException, LtiServiceException, ValueError)


class _Session(requests.Session):
    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", TIMEOUT)
        return super().request(*args, **kwargs)


def connector(registration: LtiRegistration) -> ServiceConnector:
    """A connector for one registration: its token is asked for once per scope set and
    kept for the connector's life (one roster sync)."""
    session = _Session()
    session.headers["User-Agent"] = "dice-service LTI tool"
    return ServiceConnector(registration.to_registration(), requests_session=session)


class Connectors:
    """The connectors of one sending thread, one per registration, each kept for
    ``KEEP_SECONDS`` so that its service tokens (and its connections) serve many batches;
    ``forget`` drops one whose platform failed, so the next call asks a new token."""

    KEEP_SECONDS = 600.0

    def __init__(self) -> None:
        self._kept: dict[Any, tuple[float, ServiceConnector]] = {}

    def of(self, registration: LtiRegistration) -> ServiceConnector:
        moment = time.monotonic()
        kept = self._kept.get(registration.pk)
        if kept is None or moment - kept[0] > self.KEEP_SECONDS:
            kept = (moment, connector(registration))
            self._kept[registration.pk] = kept
        return kept[1]

    def forget(self, registration: LtiRegistration) -> None:
        self._kept.pop(registration.pk, None)


def failure_text(failure: Exception) -> str:
    """A failure in one line, for the teacher and the admin: the platform's status and
    the start of its answer, or what kept the call from reaching it."""
    if isinstance(failure, LtiServiceException):
        answer = " ".join(failure.response.text.split())[:200]
        return f"the platform answered {failure.response.status_code}: {answer}"
    if isinstance(failure, requests.ConnectionError):
        return "the platform could not be reached"
    if isinstance(failure, requests.Timeout):
        return "the platform did not answer in time"
    return f"{type(failure).__name__}: {failure}"[:300]


def learner_refused(failure: Exception) -> bool:
    """Whether the platform refused this one call for what it carried (a 4xx answer to the
    score itself, say a learner no longer in the course) rather than being away, failing or
    refusing the tool (no answer, 5xx, its token refused, 401, 403, 429): the calls for
    other learners may still go."""
    if not isinstance(failure, LtiServiceException):
        return False
    status = failure.response.status_code
    asked_token = failure.response.request.method == "POST" and "client_assertion" in str(
        failure.response.request.body or ""
    )
    return 400 <= status < 500 and status not in (401, 403, 408, 429) and not asked_token
