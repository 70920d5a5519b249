"""A learning platform as the tests play it: its RSA key, its JWKS (kept where the tool's
cache looks, so no request leaves the test), a login initiation through the tool, and
id_tokens signed with its key."""

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
from django.core.cache import cache
from django.test import Client
from jwcrypto.jwk import JWK

from games.lti.registrations import registration_add
from games.lti.tool import JWKS_CACHE_PREFIX

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def new_key(kid: str) -> tuple[JWK, dict[str, Any]]:
    key = JWK.generate(kty="RSA", size=2048, kid=kid)
    public = json.loads(key.export_public())
    public.update(alg="RS256", use="sig")
    return key, public


@dataclass
class Platform:
    issuer: str = "https://platform.test"
    client_id: str = "tool-client"
    deployment: str = "dep-1"
    kid: str = "platform-key-1"
    key: JWK = field(init=False)
    public: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.key, self.public = new_key(self.kid)

    @property
    def keyset_url(self) -> str:
        return self.issuer + "/jwks"

    def register(self, *deployments: str) -> None:
        registration_add(
            issuer=self.issuer,
            client_id=self.client_id,
            deployment_ids=list(deployments or [self.deployment]),
            auth_url=self.issuer + "/auth",
            token_url=self.issuer + "/token",
            keyset_url=self.keyset_url,
        )
        self.publish()

    def publish(self, *extra: dict[str, Any]) -> None:
        cache.set(JWKS_CACHE_PREFIX + self.keyset_url, {"keys": [self.public, *extra]}, 600)

    def login(self, client: Client, **params: str) -> dict[str, str]:
        """The tool's OIDC login initiation: answers the state and nonce it redirected with."""
        answer = client.post(
            "/lti/login/",
            {
                "iss": self.issuer,
                "login_hint": "hint",
                "target_link_uri": "http://testserver/lti/launch/",
                "client_id": self.client_id,
                "lti_deployment_id": self.deployment,
                "lti1p3_new_window": "1",
                **params,
            },
        )
        assert answer.status_code == 302, answer.content[:500]
        query = parse_qs(urlsplit(answer["Location"]).query)
        return {k: v[0] for k, v in query.items()}

    def claims(
        self,
        *,
        nonce: str,
        sub: str = "user-1",
        roles: tuple[str, ...] = (LEARNER,),
        context: str = "course-1",
        title: str = "Maths 5B",
        link: str = "link-1",
        name: str = "Ann Smith",
        **extra: Any,
    ) -> dict[str, Any]:
        now = int(time.time())
        return {
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": sub,
            "exp": now + 300,
            "iat": now,
            "nonce": nonce,
            "name": name,
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment,
            LTI + "target_link_uri": "http://testserver/lti/launch/",
            LTI + "roles": list(roles),
            LTI + "context": {"id": context, "title": title, "label": title},
            LTI + "resource_link": {"id": link, "title": "Dice"},
            **extra,
        }

    def sign(
        self, claims: dict[str, Any], *, key: JWK | None = None, kid: str | None = None
    ) -> str:
        signer = key or self.key
        return jwt.encode(
            claims,
            signer.export_to_pem(private_key=True, password=None),
            algorithm="RS256",
            headers={"kid": kid or self.kid},
        )

    def launch(
        self, client: Client, *, method: str = "post", tamper: Any = None, **claim_args: Any
    ) -> Any:
        """A full launch: login, then the signed id_token posted with the login's state."""
        sent = self.login(client)
        claims = self.claims(nonce=sent["nonce"], **claim_args)
        if tamper is not None:
            tamper(claims)
        token = self.sign(claims)
        data = {"id_token": token, "state": sent["state"]}
        return getattr(client, method)("/lti/launch/", data)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"
