"""The stand-in platform's signing key and its checks of what the tool signs (PyJWT).

The platform signs its launches (``id_token``) with an RSA key of its own, published as its
JWKS. What the tool signs (the client assertion of a token request, a deep-linking
response) is checked against the tool's JWKS: given as a document, or as the URL the tool
publishes it at (fetched afresh for each check, so a rotated key is seen at once).
"""

import base64
import hashlib
import json
import time
import urllib.request
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

ALGORITHM = "RS256"


class Refused(Exception):
    """What the tool signed does not pass a check; the message says which."""


class SigningKey:
    """An RSA key of 2048 bits; its key id is its RFC 7638 thumbprint (as pylti1p3 names
    a key it signs with)."""

    def __init__(self) -> None:
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private.public_key()))
        canonical = json.dumps({k: public[k] for k in ("e", "kty", "n")}, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode()).digest()
        self.kid = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def public_pem(self) -> str:
        return self.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode()

    def private_pem(self) -> str:
        return self.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()

    def jwk(self) -> dict[str, Any]:
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private.public_key()))
        return {**public, "kid": self.kid, "alg": ALGORITHM, "use": "sig"}

    def sign(self, claims: dict[str, Any]) -> str:
        return jwt.encode(claims, self.private, algorithm=ALGORITHM, headers={"kid": self.kid})


def tool_keys(keyset: dict[str, Any] | str | None) -> dict[str, Any]:
    """The tool's JWKS: the document itself, or fetched from its URL."""
    if keyset is None:
        raise Refused("no tool keyset is configured on the platform")
    if isinstance(keyset, dict):
        return keyset
    try:
        with urllib.request.urlopen(keyset, timeout=5) as answer:
            return dict(json.load(answer))
    except OSError as failure:
        raise Refused(f"the tool's keyset could not be fetched: {failure}") from failure


def verify_tool_jwt(
    token: str, *, keyset: dict[str, Any] | str | None, audience: str | list[str]
) -> dict[str, Any]:
    """The claims of a JWT the tool signed, checked: its ``kid`` names a key of the tool's
    JWKS, the signature holds, ``aud`` names ``audience``, ``exp`` and ``iat`` are present
    and ``exp`` is in the future."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as failure:
        raise Refused(f"not a JWT: {failure}") from failure
    keys = jwt.PyJWKSet.from_dict(tool_keys(keyset))
    matching = [key for key in keys.keys if key.key_id == header.get("kid")]
    if not matching:
        raise Refused(f"no key of the tool's keyset has kid {header.get('kid')!r}")
    try:
        return dict(
            jwt.decode(
                token,
                matching[0].key,
                algorithms=[ALGORITHM],
                audience=audience,
                options={"require": ["exp", "iat", "iss", "aud"]},
                leeway=5,
            )
        )
    except jwt.PyJWTError as failure:
        raise Refused(f"the tool's JWT fails a check: {failure}") from failure


def now() -> int:
    return int(time.time())
