"""The admin's middleware, passed by for the JSON API.

Sessions, the logged-in user and flash messages serve the admin only: no path under
``/api/`` reads a session or a Django user (the API's callers are seat tokens and API
keys). Each of them still costs every request some work; under ``/api/`` these subclasses
hand the request straight on. Everywhere else they are Django's own. (The admin's checks
accept subclasses; django-axes's check wants its own class by name, so it stays as it is.)
"""

from collections.abc import Callable
from typing import Any

from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest

API = "/api/"


class _NotForTheApi:
    get_response: Callable[[HttpRequest], Any]

    def __call__(self, request: HttpRequest) -> Any:
        if request.path_info.startswith(API):
            return self.get_response(request)  # awaitable when served async: Django awaits it
        return super().__call__(request)  # type: ignore[misc]  # the middleware mixed in has it


class AdminSessionMiddleware(_NotForTheApi, SessionMiddleware):
    pass


class AdminAuthenticationMiddleware(_NotForTheApi, AuthenticationMiddleware):
    pass


class AdminMessageMiddleware(_NotForTheApi, MessageMiddleware):
    pass
