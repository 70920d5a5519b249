"""Forged, stale and replayed launches: each is refused with a page (400 or 403) that says
why, and creates nothing."""

import base64
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from lti_tool.models import LtiContext, LtiMembership, LtiResourceLink, LtiUser

from games.lti.tool import JWKS_CACHE_PREFIX, TimedSession
from games.models import ApiKey, Classroom, LtiCourse, LtiLearner, Student
from tests.lti.platform import INSTRUCTOR, LEARNER, Platform, new_key

pytestmark = pytest.mark.django_db
ROWS = (Classroom, Student, ApiKey, LtiUser, LtiContext, LtiMembership, LtiResourceLink,
        LtiCourse, LtiLearner)


@pytest.fixture
def platform() -> Platform:
    made = Platform()
    made.register()
    return made


def counts() -> list[int]:
    return [model.objects.count() for model in ROWS]


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.content[:600]
    assert answer["Content-Type"].startswith("text/html")
    assert code.encode() in answer.content
    assert counts() == [0] * len(ROWS)


def sets(**values: Any) -> Callable[[dict[str, Any]], None]:
    return lambda claims: claims.update(values)


@pytest.mark.parametrize(
    ("tamper", "status", "code"),
    [
        (sets(iss="https://elsewhere.test"), 403, "lti_not_registered"),
        (sets(aud="another-tool"), 403, "lti_not_registered"),
        (sets(aud=["tool-client", "another-tool"]), 400, "lti_launch_invalid"),
        (sets(azp="another-tool"), 400, "lti_launch_invalid"),
        (sets(exp=int(time.time()) - 3600), 400, "lti_launch_invalid"),
        (sets(iat=int(time.time()) + 3600), 400, "lti_launch_invalid"),
        (sets(iat=int(time.time()) - 7200), 400, "lti_launch_invalid"),
        (lambda claims: claims.pop("exp"), 400, "lti_launch_invalid"),
        (
            sets(**{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "dep-9"}),
            403,
            "lti_not_registered",
        ),
        (
            sets(**{"https://purl.imsglobal.org/spec/lti/claim/roles": [
                "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"
            ]}),
            403,
            "lti_role_unknown",
        ),
    ],
    ids=["iss", "aud", "aud-without-azp", "azp", "expired", "future-iat", "old-iat", "no-exp",
         "unknown-deployment", "no-role"],
)
def test_a_forged_claim_is_refused(platform: Platform, tamper: Any, status: int, code: str) -> None:
    refused(platform.launch(Client(), tamper=tamper), status, code)


def test_a_signature_by_another_key_is_refused(platform: Platform) -> None:
    client = Client()
    sent = platform.login(client)
    other, _ = new_key(platform.kid)
    token = platform.sign(platform.claims(nonce=sent["nonce"]), key=other)
    answer = client.post("/lti/launch/", {"id_token": token, "state": sent["state"]})
    refused(answer, 400, "lti_launch_invalid")


def test_a_role_changed_after_signing_is_refused(platform: Platform) -> None:
    """A learner's token with its roles claim rewritten to Instructor: the signature no
    longer matches."""
    client = Client()
    sent = platform.login(client)
    token = platform.sign(platform.claims(nonce=sent["nonce"], roles=(LEARNER,)))
    head, body, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["https://purl.imsglobal.org/spec/lti/claim/roles"] = [INSTRUCTOR]
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    answer = client.post(
        "/lti/launch/", {"id_token": f"{head}.{forged}.{signature}", "state": sent["state"]}
    )
    refused(answer, 400, "lti_launch_invalid")


def test_a_wrong_state_is_refused(platform: Platform) -> None:
    client = Client()
    sent = platform.login(client)
    token = platform.sign(platform.claims(nonce=sent["nonce"]))
    refused(client.post("/lti/launch/", {"id_token": token, "state": "made-up"}), 400,
            "lti_launch_invalid")


def test_a_nonce_the_tool_never_issued_is_refused(platform: Platform) -> None:
    client = Client()
    sent = platform.login(client)
    token = platform.sign(platform.claims(nonce="never-issued"))
    refused(client.post("/lti/launch/", {"id_token": token, "state": sent["state"]}), 400,
            "lti_launch_invalid")


def test_a_replayed_launch_is_refused(platform: Platform) -> None:
    client = Client()
    sent = platform.login(client)
    token = platform.sign(platform.claims(nonce=sent["nonce"]))
    data = {"id_token": token, "state": sent["state"]}
    assert client.post("/lti/launch/", data).status_code == 200
    before = counts()
    again = client.post("/lti/launch/", data)
    assert again.status_code == 403 and b"lti_replayed" in again.content
    assert counts() == before
    # The same token under a new login's state: its nonce is spent.
    fresh = platform.login(client)
    replay = client.post("/lti/launch/", {"id_token": token, "state": fresh["state"]})
    assert replay.status_code in (400, 403)
    assert counts() == before


def test_an_unregistered_platform_cannot_log_in() -> None:
    client = Client()
    page = client.post("/lti/login/", {"iss": "https://nobody.test", "login_hint": "x",
                                       "target_link_uri": "http://testserver/lti/launch/",
                                       "client_id": "c"})
    assert page.status_code == 403 and b"lti_not_registered" in page.content


def test_a_key_the_cache_does_not_list_is_fetched_again(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The platform rotated its key: the cached JWKS lacks the new kid, so it is fetched."""
    _, old_public = new_key("platform-key-0")
    cache.set(JWKS_CACHE_PREFIX + platform.keyset_url, {"keys": [old_public]}, 600)
    fetched: list[str] = []

    class Answer:
        def json(self) -> dict[str, Any]:
            return {"keys": [platform.public]}

    def get(self: Any, url: str, **kwargs: Any) -> Answer:
        fetched.append(url)
        return Answer()

    monkeypatch.setattr(TimedSession, "get", get)
    answer = platform.launch(Client(), roles=(INSTRUCTOR,))
    assert answer.status_code == 200, answer.content[:500]
    assert fetched == [platform.keyset_url]


def test_a_platform_clock_a_little_ahead_is_no_forgery(platform: Platform) -> None:
    """Within LTI_CLOCK_LEEWAY (60 s), an iat ahead of the tool's clock is accepted."""
    answer = platform.launch(Client(), tamper=sets(iat=int(time.time()) + 20))
    assert answer.status_code == 200, answer.content[:500]
