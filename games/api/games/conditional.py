"""A game's conditional requests and retries, in one place: the headers a client sends
(``If-Match``, ``If-None-Match``, ``Idempotency-Key``), how the views read them, and how the
schema documents them. The game's version is its ``ETag``, so a move can be refused when the
game has changed since the client looked (412), and a refresh answered by 304 when it has not."""

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

ETAG_RE = re.compile(r'^\s*(?:W/)?"?(\d{1,10})"?\s*$')
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='`"<version>"`: refuse the move with 412 if the game has changed since.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255},
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (at most 255 characters): a retry with the same key and "
    "request returns the first answer without moving again.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='`"<etag>"` of the copy you have: answers 304 with no body if it is current.',
)
NOT_MODIFIED = OpenApiResponse(description="Your copy is current (no body).")


def with_etag(body: Mapping[str, Any], status: int = 200, **headers: str) -> Response:
    """The game's body with its version as the ``ETag``."""
    return Response(body, status=status, headers={"ETag": f'"{body["version"]}"', **headers})


def not_modified(tag: int) -> Response:
    """304: the client's copy, tagged ``tag``, is current."""
    return Response(status=304, headers={"ETag": f'"{tag}"'})


def unchanged(request: Request, tag: int) -> bool:
    """Whether ``If-None-Match`` names the current tag (or ``*``)."""
    header = request.headers.get("If-None-Match")
    if header is None:
        return False
    for candidate in header.split(","):
        match = ETAG_RE.match(candidate)
        if candidate.strip() == "*" or (match and int(match.group(1)) == tag):
            return True
    return False


def if_match(request: Request) -> int | None:
    """The version ``If-Match`` names, if any: the service refuses the move with 412 when
    the game's differs."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    match = ETAG_RE.match(header)
    return int(match.group(1)) if match else -1  # -1 never matches a version: 412


def idempotency_key(request: Request) -> str | None:
    """The retry key, if any; one of the wrong length is refused before the move."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 255:
        raise ValidationError({"Idempotency-Key": [gettext("must be 1 to 255 characters")]})
    return key
