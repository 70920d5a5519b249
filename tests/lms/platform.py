"""What the stand-in platform knows: its courses, users and resource links, the launches it
has prepared, the tokens it issued, and everything the tool sent it (scores, deep-linking
responses), for tests to read. The HTTP side is ``tests.lms.server``.

Identifiers (courses, links, line items) are kept lower case: some LTI libraries lower-case
the ``Link`` header they follow, and the paths must still lead somewhere.
"""

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from tests.lms.keys import SigningKey, now

LIS = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_SCOPES = (
    f"{AGS}scope/lineitem",
    f"{AGS}scope/lineitem.readonly",
    f"{AGS}scope/score",
    f"{AGS}scope/result.readonly",
)
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
STAFF = ("Instructor", "TeachingAssistant", "ContentDeveloper", "Administrator")


def role_uri(role: str) -> str:
    """A short LIS role (``Learner``, ``Instructor``...) as its full URI; a URI stays."""
    return role if "://" in role else LIS + role


@dataclass
class User:
    sub: str
    name: str
    given_name: str = ""
    family_name: str = ""
    email: str = ""


@dataclass
class Member:
    user: User
    roles: list[str]
    status: str = "Active"  # Active, Inactive or Deleted (NRPS)


@dataclass
class LineItem:
    id: str
    course_id: str
    label: str
    score_maximum: float = 100
    resource_link_id: str = ""
    tag: str = ""
    # A query the platform adds to the line item's URL and insists on (as Moodle's does).
    query: dict[str, str] = field(default_factory=dict)


@dataclass
class Link:
    id: str
    title: str
    line_item: LineItem | None = None
    custom: dict[str, str] = field(default_factory=dict)


@dataclass
class Course:
    id: str
    title: str
    label: str
    deployment_id: str
    members: dict[str, Member] = field(default_factory=dict)
    links: dict[str, Link] = field(default_factory=dict)
    line_items: dict[str, LineItem] = field(default_factory=dict)

    def enrol(self, user: User, *roles: str, status: str = "Active") -> Member:
        """Puts ``user`` in the course with ``roles`` (short LIS names or URIs), or changes
        their roles and status."""
        member = Member(user, [role_uri(r) for r in roles or ("Learner",)], status)
        self.members[user.sub] = member
        return member

    def drop(self, user: User) -> None:
        """The user leaves the course (gone from its memberships)."""
        self.members.pop(user.sub, None)


@dataclass
class Launch:
    """A launch the platform will sign when the tool's login comes back for it."""

    id: str
    user: User
    course: Course
    link: Link | None  # None for a deep-linking request
    roles: list[str]
    method: str = "POST"  # how the id_token reaches the tool: form POST or GET query
    deep_link_data: str = ""


@dataclass
class Score:
    """A score the tool posted, as received."""

    course_id: str
    line_item_id: str
    query: dict[str, str]
    content_type: str
    body: dict[str, Any]
    scopes: list[str]


class PlatformState:
    """All the platform holds. Thread-safe: the server's threads and the test share it."""

    def __init__(self, *, client_id: str = "dice-tool", deployment_id: str = "dep-1") -> None:
        self.lock = threading.RLock()
        self.key = SigningKey()
        self.base_url = ""  # set once the server listens
        self.client_id = client_id
        self.deployment_id = deployment_id
        self.tool_login_url = ""
        self.tool_launch_url = ""
        self.tool_keyset: dict[str, Any] | str | None = None
        self.redirect_uris: list[str] = []
        self.page_size = 2
        self.users: dict[str, User] = {}
        self.courses: dict[str, Course] = {}
        self.launches: dict[str, Launch] = {}
        self.nonces: dict[str, str] = {}  # a launch's nonce: the launch id
        self.tokens: dict[str, list[str]] = {}  # access token: its scopes
        self.scores: list[Score] = []
        self.score_attempts = 0
        self.answered_away = 0  # requests answered 503 while away
        self.refused_users: set[str] = set()  # whose scores are answered 422 (not in course)
        self.deep_link_responses: list[dict[str, Any]] = []
        self.token_requests: list[dict[str, Any]] = []
        self.refusals: list[str] = []  # why each refused request was refused

    # -- URLs -------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        return self.base_url

    def url(self, path: str, query: dict[str, str] | None = None) -> str:
        return f"{self.base_url}{path}" + (f"?{urlencode(query)}" if query else "")

    def line_item_url(self, item: LineItem) -> str:
        return self.url(f"/courses/{item.course_id}/lineitems/{item.id}/lineitem", item.query)

    def memberships_url(self, course: Course) -> str:
        return self.url(f"/courses/{course.id}/memberships")

    # -- making things ----------------------------------------------------------------

    def user(self, sub: str, name: str, **more: str) -> User:
        with self.lock:
            given, _, family = name.partition(" ")
            made = User(sub, name, more.get("given_name", given),
                        more.get("family_name", family), more.get("email", f"{sub}@lms.test"))
            self.users[sub] = made
            return made

    def course(self, course_id: str, title: str = "", *, deployment_id: str = "") -> Course:
        with self.lock:
            key = course_id.lower()
            made = Course(key, title or key, key.upper(), deployment_id or self.deployment_id)
            self.courses[key] = made
            return made

    def line_item(self, course: Course, label: str, **more: Any) -> LineItem:
        with self.lock:
            item_id = str(len(self.all_line_items()) + 1)
            query = more.pop("query", {"type_id": item_id})
            made = LineItem(item_id, course.id, label, query=query, **more)
            course.line_items[item_id] = made
            return made

    def link(self, course: Course, link_id: str, title: str = "", *, graded: bool = True,
             custom: dict[str, str] | None = None) -> Link:
        with self.lock:
            key = link_id.lower()
            made = Link(key, title or key, custom=custom or {})
            if graded:
                made.line_item = self.line_item(course, made.title, resource_link_id=key)
            course.links[key] = made
            return made

    def all_line_items(self) -> list[LineItem]:
        return [item for course in self.courses.values() for item in course.line_items.values()]

    def prepare(self, user: User, course: Course, link: Link | None, *,
                roles: list[str] | None = None, method: str = "POST") -> Launch:
        """A launch of ``link`` (None: a deep-linking request) by ``user`` in ``course``,
        with the user's roles in the course unless ``roles`` are given."""
        with self.lock:
            member = course.members.get(user.sub)
            chosen = [role_uri(r) for r in roles] if roles else (member.roles if member else [])
            launch = Launch(secrets.token_hex(8), user, course, link, chosen, method.upper(),
                            secrets.token_hex(6))
            self.launches[launch.id] = launch
            return launch

    # -- messages ---------------------------------------------------------------------

    def id_token(self, launch: Launch, nonce: str, **overrides: Any) -> str:
        """The signed ``id_token`` of ``launch`` (``overrides`` replace claims, for tests
        of the tool's checks)."""
        moment = now()
        course, user = launch.course, launch.user
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "aud": self.client_id,
            "azp": self.client_id,
            "sub": user.sub,
            "iat": moment,
            "exp": moment + 300,
            "nonce": nonce,
            "name": user.name,
            "given_name": user.given_name,
            "family_name": user.family_name,
            "email": user.email,
            f"{LTI}version": "1.3.0",
            f"{LTI}deployment_id": course.deployment_id,
            f"{LTI}roles": launch.roles,
            f"{LTI}context": {"id": course.id, "label": course.label, "title": course.title,
                              "type": ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"]},
            f"{LTI}tool_platform": {"guid": "lms-stand-in", "name": "LMS stand-in",
                                    "product_family_code": "stand-in", "version": "1"},
            f"{LTI}launch_presentation": {"document_target": "iframe",
                                          "return_url": self.url("/return")},
            NRPS: {"context_memberships_url": self.memberships_url(course),
                   "service_versions": ["2.0"]},
        }
        ags: dict[str, Any] = {"scope": list(AGS_SCOPES),
                               "lineitems": self.url(f"/courses/{course.id}/lineitems")}
        if launch.link is None:
            claims[f"{LTI}message_type"] = "LtiDeepLinkingRequest"
            claims[f"{LTI}target_link_uri"] = self.tool_launch_url
            claims[f"{DL}deep_linking_settings"] = {
                "deep_link_return_url": self.url("/deep-link-return"),
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "accept_multiple": False,
                "auto_create": True,
                "title": course.title,
                "data": launch.deep_link_data,
            }
        else:
            link = launch.link
            claims[f"{LTI}message_type"] = "LtiResourceLinkRequest"
            claims[f"{LTI}target_link_uri"] = self.tool_launch_url
            claims[f"{LTI}resource_link"] = {"id": link.id, "title": link.title}
            claims[f"{LTI}custom"] = dict(link.custom)
            if link.line_item is not None:
                ags["lineitem"] = self.line_item_url(link.line_item)
        claims[f"{AGS}claim/endpoint"] = ags
        claims.update(overrides)
        return self.key.sign(claims)

    def login_initiation(self, launch: Launch) -> dict[str, str]:
        """The parameters of the third-party initiated login the platform sends the tool."""
        return {
            "iss": self.issuer,
            "login_hint": launch.user.sub,
            "target_link_uri": self.tool_launch_url,
            "lti_message_hint": launch.id,
            "client_id": self.client_id,
            "lti_deployment_id": launch.course.deployment_id,
        }

    def members_page(self, course: Course, page: int) -> tuple[list[dict[str, Any]], bool]:
        """One page of the course's memberships (NRPS), and whether another follows."""
        with self.lock:
            members = list(course.members.values())
        start = (page - 1) * self.page_size
        chosen = members[start:start + self.page_size]
        return [
            {
                "status": m.status,
                "name": m.user.name,
                "given_name": m.user.given_name,
                "family_name": m.user.family_name,
                "email": m.user.email,
                "user_id": m.user.sub,
                "roles": m.roles,
            }
            for m in chosen
        ], start + self.page_size < len(members)

    def scores_for(self, link: Link) -> list[Score]:
        """The scores received on the link's line item."""
        item = link.line_item
        assert item is not None, "the link has no line item"
        with self.lock:
            return [s for s in self.scores
                    if s.course_id == item.course_id and s.line_item_id == item.id]
