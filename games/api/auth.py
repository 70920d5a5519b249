"""Moves carry the moving seat's token as ``Authorization: Bearer <token>``."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request


class SeatTokenAuthentication(BaseAuthentication):
    """Reads the bearer token; which seat (if any) it belongs to is the service's check."""

    def authenticate(self, request: Request) -> tuple[None, str] | None:
        parts = get_authorization_header(request).split()
        if not parts:
            return None
        if parts[0].lower() != b"bearer" or len(parts) != 2:
            raise AuthenticationFailed(
                "the Authorization header must be 'Bearer <seat token>'", code="invalid_token"
            )
        try:
            return None, parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(
                "the seat token is not valid", code="invalid_token"
            ) from None

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class SeatTokenScheme(OpenApiAuthenticationExtension):
    target_class = SeatTokenAuthentication
    name = "seatToken"

    def get_security_definition(self, auto_schema):  # noqa: ANN001, ANN201
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The moving seat's token, returned once when the seat is created.",
        }
