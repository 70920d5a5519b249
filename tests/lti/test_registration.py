"""Registering a platform (the command, the admin), the tool's URLs and its keys."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from jwcrypto.jwk import JWK
from lti_tool.models import Key, LtiDeployment, LtiRegistration

pytestmark = pytest.mark.django_db


def register(*extra: str, **urls: str) -> str:
    out = io.StringIO()
    args = {
        "auth_url": "https://lms.example/auth",
        "token_url": "https://lms.example/token",
        "keyset_url": "https://lms.example/jwks",
        **urls,
    }
    call_command(
        "lti_register", "--issuer", "https://lms.example", "--client-id", "c1",
        "--deployment-id", "d1", "--deployment-id", "d2",
        *[f"--{k.replace('_', '-')}={v}" for k, v in args.items()],
        "--base-url", "https://dice.example", *extra, stdout=out,
    )
    return out.getvalue()


def test_the_command_registers_and_prints_the_tool_urls() -> None:
    printed = register("--audience", "https://lms.example/token")
    assert "login: https://dice.example/lti/login/" in printed
    assert "launch: https://dice.example/lti/launch/" in printed
    assert "jwks: https://dice.example/lti/jwks/" in printed
    registration = LtiRegistration.objects.get()
    assert registration.audience == "https://lms.example/token"
    assert sorted(LtiDeployment.objects.filter(is_active=True).values_list(
        "deployment_id", flat=True)) == ["d1", "d2"]
    assert Key.objects.count() == 1  # made when first needed


@pytest.mark.parametrize(
    "url",
    ["http://lms.example/auth", "ftp://lms.example/auth", "https:///nohost", "lms.example"],
)
def test_platform_urls_must_be_https(url: str) -> None:
    with pytest.raises(CommandError):
        register(auth_url=url)
    assert not LtiRegistration.objects.exists()


@pytest.mark.parametrize("host", ["127.0.0.1:9000", "localhost:8001", "[::1]:80"])
def test_http_is_allowed_on_loopback_hosts(host: str) -> None:
    register(auth_url=f"http://{host}/auth")
    assert LtiRegistration.objects.count() == 1


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_the_tool_urls_follow_the_host_reached() -> None:
    answer = Client().get("/lti/", HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="localhost")
    assert answer.json()["launch"] == "https://localhost/lti/launch/"
    assert Client().get("/lti/").json()["jwks"] == "http://testserver/lti/jwks/"


def test_the_jwks_lists_a_key_of_2048_bits_or_more() -> None:
    keys = Client().get("/lti/jwks/").json()["keys"]
    assert len(keys) == 1
    key = JWK(**keys[0])
    assert key["kty"] == "RSA" and keys[0]["alg"] == "RS256" and keys[0]["use"] == "sig"
    modulus = key.export_public(as_dict=True)["n"]
    assert len(modulus) * 6 >= 2048
    assert "d" not in keys[0]


def test_rotation_keeps_the_previous_key_until_the_next() -> None:
    first = Client().get("/lti/jwks/").json()["keys"][0]["kid"]
    call_command("lti_rotate_keys", stdout=io.StringIO())
    listed = [k["kid"] for k in Client().get("/lti/jwks/").json()["keys"]]
    assert len(listed) == 2 and first in listed
    second = next(kid for kid in listed if kid != first)
    call_command("lti_rotate_keys", stdout=io.StringIO())
    listed = [k["kid"] for k in Client().get("/lti/jwks/").json()["keys"]]
    assert len(listed) == 2 and first not in listed and second in listed


def test_the_admin_checks_urls_and_shows_the_tool_urls() -> None:
    User.objects.create_superuser("op", "op@example.com", "pw-123456789")
    client = Client()
    client.force_login(User.objects.get())
    page = client.get("/admin/lti_tool/ltiregistration/add/")
    assert page.status_code == 200
    assert b"http://testserver/lti/launch/" in page.content
    data = {
        "name": "LMS", "uuid": "3f1b1f0e-5a4c-4a57-9d0e-2f1a3b4c5d6e",
        "issuer": "https://lms.example", "client_id": "c9",
        "auth_url": "http://lms.example/auth", "token_url": "https://lms.example/token",
        "keyset_url": "https://lms.example/jwks", "is_active": "on",
        "deployments-TOTAL_FORMS": "0", "deployments-INITIAL_FORMS": "0",
    }
    refused = client.post("/admin/lti_tool/ltiregistration/add/", data)
    assert refused.status_code == 200 and not LtiRegistration.objects.exists()
    data["auth_url"] = "https://lms.example/auth"
    done = client.post("/admin/lti_tool/ltiregistration/add/", data)
    assert done.status_code == 302, done.content[:2000]
    assert LtiRegistration.objects.count() == 1
