"""LTI Dynamic Registration: the tool reads the platform's configuration, registers itself
there, and registers the platform here."""

from typing import Any

import pytest
import requests
from django.test import Client
from lti_tool.models import LtiDeployment, LtiRegistration

from games.lti import dynamic

pytestmark = pytest.mark.django_db
CONFIG_URL = "https://lms.example/.well-known/openid-configuration"


class Answer:
    def __init__(self, status: int, body: Any) -> None:
        self.status_code = status
        self.body = body

    def json(self) -> Any:
        return self.body


class FakePlatform(requests.Session):
    def __init__(self, issuer: str = "https://lms.example") -> None:
        super().__init__()
        self.issuer = issuer
        self.sent: list[tuple[str, str, Any, dict[str, str]]] = []

    def get(self, url: str | bytes, **kwargs: Any) -> Any:  # type: ignore[override]
        self.sent.append(("GET", str(url), None, kwargs.get("headers", {})))
        return Answer(200, {
            "issuer": self.issuer,
            "authorization_endpoint": "https://lms.example/auth",
            "token_endpoint": "https://lms.example/token",
            "jwks_uri": "https://lms.example/jwks",
            "registration_endpoint": "https://lms.example/register",
        })

    def post(self, url: str | bytes, data: Any = None, json: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        self.sent.append(("POST", str(url), json, kwargs.get("headers", {})))
        return Answer(201, {
            "client_id": "dyn-client",
            dynamic.TOOL_CONFIGURATION: {"deployment_id": "dyn-dep"},
        })


def test_the_page_asks_before_registering() -> None:
    page = Client().get(
        "/lti/register/", {"openid_configuration": CONFIG_URL, "registration_token": "tok"}
    )
    assert page.status_code == 200 and b"Register the tool" in page.content
    assert not LtiRegistration.objects.exists()


def test_registration_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakePlatform()
    monkeypatch.setattr(dynamic.requests, "Session", lambda: fake)
    page = Client().post(
        "/lti/register/", {"openid_configuration": CONFIG_URL, "registration_token": "tok"}
    )
    assert page.status_code == 200, page.content[:600]
    registration = LtiRegistration.objects.get()
    assert (registration.issuer, registration.client_id) == ("https://lms.example", "dyn-client")
    assert LtiDeployment.objects.get().deployment_id == "dyn-dep"
    method, url, sent, headers = fake.sent[1]
    assert (method, url) == ("POST", "https://lms.example/register")
    assert headers["Authorization"] == "Bearer tok"
    assert sent["initiate_login_uri"] == "http://testserver/lti/login/"
    assert sent["redirect_uris"] == ["http://testserver/lti/launch/"]
    assert sent["jwks_uri"] == "http://testserver/lti/jwks/"
    kinds = [m["type"] for m in sent[dynamic.TOOL_CONFIGURATION]["messages"]]
    assert kinds == ["LtiResourceLinkRequest", "LtiDeepLinkingRequest"]


def test_an_issuer_that_does_not_match_its_configuration_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakePlatform(issuer="https://elsewhere.example")
    monkeypatch.setattr(dynamic.requests, "Session", lambda: fake)
    page = Client().post(
        "/lti/register/", {"openid_configuration": CONFIG_URL, "registration_token": "tok"}
    )
    assert page.status_code == 400
    assert not LtiRegistration.objects.exists()
    assert [s[0] for s in fake.sent] == ["GET"]


def test_a_plain_http_configuration_is_refused() -> None:
    page = Client().post(
        "/lti/register/", {"openid_configuration": "http://lms.example/config"}
    )
    assert page.status_code == 400
    assert not LtiRegistration.objects.exists()
