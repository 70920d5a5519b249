"""An LTI 1.3 platform (a learning management system's stand-in) for the tests: it signs
launches, answers the tool's OIDC login, issues service tokens, serves line items and
memberships, records scores and deep-linking responses, and can go away for a while.

In a test (the ``lms`` fixture of ``tests/conftest.py`` starts one and stops it)::

    lms.tool(login_url=..., launch_url=..., keyset=...)   # the tool's URLs and keys
    course = lms.course("maths-5b", "Maths 5B")
    ann = lms.user("ann", "Ann Lee")
    course.enrol(ann, "Learner")
    link = lms.link(course, "week-3", "Week 3")               # graded: has a line item
    url = lms.launch_url(ann, course, link)                    # open it in a browser
    lms.away("503"); ...; lms.back()
    lms.scores_for(link)                                       # what the tool sent

``registration()`` gives what the tool's operator registers (issuer, client id,
deployment id, the platform's URLs).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.lms.keys import Refused
from tests.lms.platform import (
    AGS_SCOPES,
    NRPS_SCOPE,
    STAFF,
    Course,
    Launch,
    LineItem,
    Link,
    Member,
    PlatformState,
    Score,
    User,
    role_uri,
)
from tests.lms.server import Running, authorize


class Platform(PlatformState):
    """The platform's state and its server: listening once ``start`` has run."""

    running: Running | None = None
    port = 0

    def start(self) -> "Platform":
        self.running = Running(self, self.port)
        self.port = self.running.port
        self.base_url = f"http://127.0.0.1:{self.port}"
        return self

    def stop(self) -> None:
        if self.running is not None:
            self.running.stop()
            self.running = None

    def away(self, how: str = "refuse") -> None:
        """The platform goes away: ``"refuse"`` closes its socket (connections refused),
        ``"503"`` keeps it answering 503 Service Unavailable to everything."""
        if how == "503":
            assert self.running is not None
            self.running.server.unavailable = True
        else:
            self.stop()

    def back(self) -> None:
        """The platform answers again, on the same port."""
        if self.running is None:
            self.start()
        else:
            self.running.server.unavailable = False

    def tool(self, *, login_url: str, launch_url: str,
             keyset: dict[str, Any] | str | None = None,
             redirect_uris: list[str] | None = None) -> None:
        """The tool as the platform knows it: its login initiation and launch URLs and its
        keys (a JWKS document, or the URL of the tool's)."""
        self.tool_login_url, self.tool_launch_url = login_url, launch_url
        self.tool_keyset = keyset
        self.redirect_uris = redirect_uris or [launch_url]

    def registration(self) -> dict[str, str]:
        """What an operator registers the platform with."""
        return {
            "issuer": self.issuer,
            "client_id": self.client_id,
            "deployment_id": self.deployment_id,
            "auth_url": self.url("/auth"),
            "token_url": self.url("/token"),
            "keyset_url": self.url("/jwks"),
        }

    def register_args(self) -> list[str]:
        """``manage.py lti_register``'s arguments for this platform."""
        found = self.registration()
        return [
            "--issuer", found["issuer"], "--client-id", found["client_id"],
            "--deployment-id", found["deployment_id"], "--auth-url", found["auth_url"],
            "--token-url", found["token_url"], "--keyset-url", found["keyset_url"],
        ]

    def launch_url(self, user: User, course: Course, link: Link | None = None, *,
                   roles: list[str] | None = None, method: str = "POST") -> str:
        """A URL that, opened in a browser, launches ``link`` (None: a deep-linking
        request) as ``user``: the platform's login initiation, then the tool's login, the
        platform's authorization, and the launch."""
        launch = self.prepare(user, course, link, roles=roles, method=method)
        return self.url(f"/launch/{launch.id}")

    def authorize(self, params: dict[str, str]) -> tuple[str, dict[str, str]]:
        """The platform's answer to the tool's authentication request (the query its login
        redirected to): the URL to POST to and the fields (``id_token``, ``state``)."""
        return authorize(self, params)


@contextmanager
def running_platform(**given: Any) -> Iterator[Platform]:
    platform = Platform(**given).start()
    try:
        yield platform
    finally:
        platform.stop()


__all__ = [
    "AGS_SCOPES",
    "NRPS_SCOPE",
    "STAFF",
    "Course",
    "Launch",
    "LineItem",
    "Link",
    "Member",
    "Platform",
    "Refused",
    "Score",
    "User",
    "role_uri",
    "running_platform",
]
