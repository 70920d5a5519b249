"""Moves carry the moving seat's token as ``Authorization: Bearer <token>``."""

from django.http import HttpRequest
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from games.classrooms.keys import Caller
from games.play.errors import ServiceCode


class SeatTokenAuthentication(BaseAuthentication):
    """Reads the bearer token; which seat (if any) it belongs to is the service's check."""

    def authenticate(self, request: Request) -> tuple[None, str] | None:
        parts = get_authorization_header(request).split()
        if not parts:
            return None
        if parts[0].lower() != b"bearer" or len(parts) != 2:
            raise AuthenticationFailed(
                gettext("the Authorization header must be 'Bearer <seat token>'"),
                code=ServiceCode.INVALID_TOKEN
            )
        try:
            return None, parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(
                gettext("the seat token is not valid"), code=ServiceCode.INVALID_TOKEN
            ) from None

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class SeatTokenScheme(OpenApiAuthenticationExtension):
    target_class = SeatTokenAuthentication
    name = "seatToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The moving seat's token, returned once when the seat is created.",
        }


class ApiKeyAuthentication(BaseAuthentication):
    """``X-API-Key``: the key is checked for every path by ``games.http.api_keys``; here the
    caller it named becomes ``request.auth`` (absent: anonymous)."""

    def authenticate(self, request: Request) -> tuple[None, Caller] | None:
        caller = caller_of(request)
        return (None, caller) if caller is not None else None

    def authenticate_header(self, request: Request) -> str:
        return 'ApiKey header="X-API-Key"'


def request_seat_token(request: Request) -> str | None:
    """The bearer token ``SeatTokenAuthentication`` read, or None for none (``request.auth``
    is whatever the view's authentication gave: typed as that here)."""
    auth = request.auth
    return auth if isinstance(auth, str) else None


def caller_of(request: Request | HttpRequest) -> Caller | None:
    """Who the request's ``X-API-Key`` names (``games.http.api_keys`` checked it), if any:
    also on a path with no authentication of its own, where a key is optional."""
    return getattr(request, "caller", None)


def permitted_caller(request: Request) -> Caller:
    """The caller, on a path whose permissions let only a key through."""
    caller = caller_of(request)
    if caller is None:  # a view that lacks its permission: a bug, not a refusal
        raise LookupError("this path's permissions do not require an API key")
    return caller


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = ApiKeyAuthentication
    name = "apiKey"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "X-API-Key",
            "description": "A classroom key: the teacher key returned when the classroom is "
            "opened, or a student's key returned when the student joins (each shown once). "
            "Optional on public paths: a game created with a student's key belongs to that "
            "student, and the limits then count per key, following the classroom's quota. "
            "A wrong or revoked key is refused with 401 `invalid_api_key` on every path.",
        }
