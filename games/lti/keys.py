"""The tool's signing keys (RSA, 2048 bits), kept in django-lti's table: made when first
needed, rotated by ``manage.py lti_rotate_keys``. The JWKS (``/lti/jwks/``) lists the
newest key and the one before it, so a platform that cached the JWKS before a rotation
still checks what was signed just before it; the rotation after that drops the older one.
"""

from typing import Any

from django.db import transaction
from lti_tool.models import Key


def tool_key_latest() -> Key:
    """The key the tool signs with: the newest active one, made now if there is none."""
    with transaction.atomic():
        key = Key.objects.filter(is_active=True).order_by("-datetime_created", "-id").first()
        if key is None:
            key = Key.objects.generate()
        return key


def tool_jwks() -> dict[str, Any]:
    """The tool's public keys as a JWKS: never empty."""
    tool_key_latest()
    return {"keys": [key.as_jwk() for key in Key.objects.filter(is_active=True).order_by("id")]}


def keys_rotate() -> tuple[Key, int]:
    """A new key; every active key but the newest one before it stops being listed.
    Answers the new key and how many were retired."""
    with transaction.atomic():
        previous = (
            Key.objects.select_for_update()
            .filter(is_active=True)
            .order_by("-datetime_created", "-id")
            .first()
        )
        new = Key.objects.generate()
        retired = (
            Key.objects.filter(is_active=True)
            .exclude(pk__in=[new.pk, *([previous.pk] if previous else [])])
            .update(is_active=False)
        )
        return new, retired
