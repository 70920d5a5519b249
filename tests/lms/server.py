"""The stand-in platform over HTTP: a threaded server of the standard library on a free port
of 127.0.0.1, in a thread of the test process.

Endpoints (paths under the platform's base URL, which is also its issuer):

- ``GET /jwks``: the platform's public keys.
- ``GET /launch/<id>``: a browser opening it starts launch ``<id>``: the platform's
  third-party initiated login, an auto-submitting form POST to the tool's login URL (or a
  redirect there, for a launch prepared with ``method="GET"``).
- ``GET|POST /auth``: the OIDC authorization endpoint the tool's login redirects to: the
  ``id_token`` and ``state``, POSTed to the tool's launch URL by an auto-submitting form
  (or sent there in a GET query).
- ``POST /token``: OAuth2 client credentials with a JWT client assertion (checked against
  the tool's keys); the scopes asked for, of those the platform grants.
- ``GET|POST /courses/<c>/lineitems`` and ``GET /courses/<c>/lineitems/<i>/lineitem``: AGS
  line items; ``POST .../lineitem/scores``: a score, recorded (the line item's query kept).
- ``GET /courses/<c>/memberships``: NRPS, ``page_size`` members a page, ``Link: rel=next``.
- ``POST /deep-link-return``: the tool's signed deep-linking response, checked and recorded;
  each resource link it carries is added to the course (with its line item).
"""

import html
import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.lms.keys import Refused, now, verify_tool_jwt
from tests.lms.platform import AGS_SCOPES, DL, LTI, NRPS_SCOPE, PlatformState, Score

SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
MEMBERS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
LINE_ITEMS_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json"


def auto_post(action: str, fields: dict[str, str]) -> bytes:
    inputs = "".join(
        f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
        for k, v in fields.items()
    )
    return (
        "<!doctype html><html><head><title>LMS stand-in</title></head>"
        f'<body><form id="go" method="post" action="{html.escape(action)}">{inputs}'
        '<button type="submit">Continue</button></form>'
        "<script>document.getElementById('go').submit()</script></body></html>"
    ).encode()


class Handler(BaseHTTPRequestHandler):
    server: "Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- plumbing ----------------------------------------------------------------------

    @property
    def state(self) -> PlatformState:
        return self.server.state

    def body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def form(self) -> dict[str, str]:
        found = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
        if self.command == "POST" and "form" in (self.headers.get("Content-Type") or ""):
            found.update({k: v[0] for k, v in parse_qs(self.body().decode()).items()})
        return found

    def answer(self, status: int, body: bytes = b"", content_type: str = "application/json",
               headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        if body:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def json(self, status: int, data: Any, content_type: str = "application/json",
             headers: dict[str, str] | None = None) -> None:
        self.answer(status, json.dumps(data).encode(), content_type, headers)

    def refuse(self, status: int, why: str) -> None:
        with self.state.lock:
            self.state.refusals.append(f"{self.command} {self.path}: {why}")
        self.json(status, {"error": why})

    def redirect(self, location: str) -> None:
        self.answer(302, headers={"Location": location})

    def bearer_scopes(self) -> list[str] | None:
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
        with self.state.lock:
            return self.state.tokens.get(token)

    # -- routing -----------------------------------------------------------------------

    def do_GET(self) -> None:
        self.route()

    def do_POST(self) -> None:
        self.route()

    def route(self) -> None:
        if self.server.unavailable:
            with self.state.lock:
                self.state.answered_away += 1
            self.body()
            self.answer(503, b"away for a while", "text/plain", {"Retry-After": "1"})
            return
        parts = [p for p in urlsplit(self.path).path.lower().split("/") if p]
        try:
            self.dispatch(parts)
        except Refused as refusal:
            self.refuse(400, str(refusal))

    def dispatch(self, parts: list[str]) -> None:
        match parts:
            case ["jwks"]:
                self.json(200, {"keys": [self.state.key.jwk()]})
            case ["launch", launch_id]:
                self.start_launch(launch_id)
            case ["auth"]:
                self.authorize()
            case ["token"] if self.command == "POST":
                self.token()
            case ["deep-link-return"] if self.command == "POST":
                self.deep_link_return()
            case ["courses", course_id, "memberships"]:
                self.memberships(course_id)
            case ["courses", course_id, "lineitems"]:
                self.line_items(course_id)
            case ["courses", course_id, "lineitems", item_id, "lineitem"]:
                self.line_item(course_id, item_id)
            case ["courses", course_id, "lineitems", item_id, "lineitem", "scores"]:
                self.score(course_id, item_id)
            case _:
                self.refuse(404, "no such endpoint")

    # -- launches ----------------------------------------------------------------------

    def start_launch(self, launch_id: str) -> None:
        launch = self.state.launches.get(launch_id)
        if launch is None:
            self.refuse(404, "no such launch")
            return
        fields = self.state.login_initiation(launch)
        if launch.method == "GET":
            self.redirect(self.state.tool_login_url + "?" + "&".join(
                f"{k}={v}" for k, v in _quoted(fields).items()))
        else:
            self.answer(200, auto_post(self.state.tool_login_url, fields), "text/html")

    def authorize(self) -> None:
        params = self.form()
        action, fields = authorize(self.state, params)
        launch = self.state.launches[params["lti_message_hint"]]
        if launch.method == "GET":
            self.redirect(action + "?" + "&".join(
                f"{k}={v}" for k, v in _quoted(fields).items()))
        else:
            self.answer(200, auto_post(action, fields), "text/html")

    def deep_link_return(self) -> None:
        token = self.form().get("JWT", "")
        state = self.state
        claims = verify_tool_jwt(token, keyset=state.tool_keyset, audience=state.issuer)
        if claims.get("iss") != state.client_id:
            raise Refused(f"iss {claims.get('iss')!r} is not the tool's client id")
        if claims.get(f"{LTI}message_type") != "LtiDeepLinkingResponse":
            raise Refused("not an LtiDeepLinkingResponse")
        with state.lock:
            state.deep_link_responses.append(claims)
        for item in claims.get(f"{DL}content_items") or []:
            if item.get("type") == "ltiResourceLink":
                add_linked(state, claims, item)
        self.answer(200, b"<!doctype html><title>Added</title><p>Content added.</p>",
                    "text/html")

    # -- services ----------------------------------------------------------------------

    def token(self) -> None:
        form = self.form()
        state = self.state
        with state.lock:
            state.token_requests.append(form)
        if form.get("grant_type") != "client_credentials":
            self.refuse(400, "unsupported_grant_type")
            return
        if form.get("client_assertion_type") != (
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        ):
            self.refuse(400, "invalid_client: a JWT client assertion is wanted")
            return
        claims = verify_tool_jwt(form.get("client_assertion", ""), keyset=state.tool_keyset,
                                 audience=[state.url("/token"), state.issuer])
        if claims.get("iss") != state.client_id or claims.get("sub") != state.client_id:
            self.refuse(401, "invalid_client: iss and sub must be the client id")
            return
        granted = [s for s in form.get("scope", "").split() if s in (*AGS_SCOPES, NRPS_SCOPE)]
        if not granted:
            self.refuse(400, "invalid_scope")
            return
        token = secrets.token_urlsafe(24)
        with state.lock:
            state.tokens[token] = granted
        self.json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                        "scope": " ".join(granted)})

    def memberships(self, course_id: str) -> None:
        scopes = self.bearer_scopes()
        if scopes is None or NRPS_SCOPE not in scopes:
            self.refuse(401, "a token with the memberships scope is wanted")
            return
        course = self.state.courses.get(course_id)
        if course is None:
            self.refuse(404, "no such course")
            return
        page = int(self.form().get("page", "1"))
        members, more = self.state.members_page(course, page)
        here = self.state.memberships_url(course)
        headers = {"Link": f'<{here}?page={page + 1}>; rel="next"'} if more else {}
        self.json(200, {"id": here, "context": {"id": course.id, "label": course.label,
                                                "title": course.title}, "members": members},
                  MEMBERS_TYPE, headers)

    def line_items(self, course_id: str) -> None:
        course = self.state.courses.get(course_id)
        scopes = self.bearer_scopes()
        if course is None or scopes is None:
            self.refuse(404 if course is None else 401, "no such course, or no token")
            return
        if self.command == "POST":
            given = json.loads(self.body() or b"{}")
            item = self.state.line_item(
                course, given.get("label", ""), score_maximum=given.get("scoreMaximum", 100),
                resource_link_id=given.get("resourceLinkId", ""), tag=given.get("tag", ""))
            self.json(201, self.line_item_json(item), LINE_ITEM_TYPE)
            return
        items = [self.line_item_json(i) for i in course.line_items.values()]
        self.json(200, items, LINE_ITEMS_TYPE)

    def line_item_json(self, item: Any) -> dict[str, Any]:
        return {"id": self.state.line_item_url(item), "label": item.label,
                "scoreMaximum": item.score_maximum, "resourceLinkId": item.resource_link_id,
                "tag": item.tag}

    def found_item(self, course_id: str, item_id: str) -> Any:
        course = self.state.courses.get(course_id)
        item = course.line_items.get(item_id) if course else None
        query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
        if item is None or query != item.query:
            self.refuse(404, f"no line item {item_id} in {course_id} with query {query}")
            return None
        return item

    def line_item(self, course_id: str, item_id: str) -> None:
        item = self.found_item(course_id, item_id)
        if item is not None:
            self.json(200, self.line_item_json(item), LINE_ITEM_TYPE)

    def score(self, course_id: str, item_id: str) -> None:
        raw = self.body()
        with self.state.lock:
            self.state.score_attempts += 1
        scopes = self.bearer_scopes()
        if scopes is None or f"{_ags('score')}" not in scopes:
            self.refuse(401, "a token with the score scope is wanted")
            return
        content_type = self.headers.get("Content-Type") or ""
        if content_type.split(";")[0].strip() != SCORE_TYPE:
            self.refuse(415, f"content type {content_type!r} is not {SCORE_TYPE}")
            return
        item = self.found_item(course_id, item_id)
        if item is None:
            return
        body = json.loads(raw)
        if body.get("userId") in self.state.refused_users:
            self.refuse(422, f"user {body.get('userId')!r} is not in the course")
            return
        query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
        with self.state.lock:
            self.state.scores.append(Score(course_id, item_id, query, content_type, body, scopes))
        self.answer(204)


def _ags(scope: str) -> str:
    return next(s for s in AGS_SCOPES if s.endswith(f"/{scope}"))


def _quoted(fields: dict[str, str]) -> dict[str, str]:
    from urllib.parse import quote

    return {k: quote(v, safe="") for k, v in fields.items()}


def authorize(state: PlatformState, params: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The platform's answer to the tool's authentication request: where to send the
    ``id_token`` and ``state``, and the two. Raises ``Refused`` for a request the platform
    must refuse (wrong client, redirect URI, user, unknown launch)."""
    if params.get("scope") != "openid" or params.get("response_type") != "id_token":
        raise Refused("scope must be openid and response_type id_token")
    if params.get("client_id") != state.client_id:
        raise Refused(f"unknown client {params.get('client_id')!r}")
    redirect = params.get("redirect_uri", "")
    if redirect not in (state.redirect_uris or [state.tool_launch_url]):
        raise Refused(f"redirect_uri {redirect!r} is not registered")
    if not params.get("nonce"):
        raise Refused("no nonce")
    launch = state.launches.get(params.get("lti_message_hint", ""))
    if launch is None or launch.user.sub != params.get("login_hint"):
        raise Refused("the login hint and message hint name no launch of this user")
    with state.lock:
        state.nonces[params["nonce"]] = launch.id
    return redirect, {"id_token": state.id_token(launch, params["nonce"]),
                      "state": params.get("state", "")}


def add_linked(state: PlatformState, claims: dict[str, Any], item: dict[str, Any]) -> None:
    """A resource link the tool's deep-linking response made: added to the course the
    response's deployment and data lead to (the launch whose ``data`` it echoes)."""
    data = (claims.get(f"{DL}data") or "")
    launch = next((x for x in state.launches.values() if x.deep_link_data == data), None)
    if launch is None:
        raise Refused("the response's data echoes no deep-linking request")
    course = launch.course
    link_id = f"dl-{len(course.links) + 1}"
    link = state.link(course, link_id, item.get("title", ""), graded=False,
                      custom=item.get("custom") or {})
    if item.get("lineItem"):
        wanted = item["lineItem"]
        link.line_item = state.line_item(
            course, wanted.get("label") or link.title,
            score_maximum=wanted.get("scoreMaximum", 100), resource_link_id=link.id,
            tag=wanted.get("tag", ""))
    item["_platform_link_id"] = link.id


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], state: PlatformState) -> None:
        super().__init__(address, Handler)
        self.state = state
        self.unavailable = False


class Running:
    """The server's thread; ``stop`` closes its socket (connections refused from then on)."""

    def __init__(self, state: PlatformState, port: int = 0) -> None:
        self.server = Server(("127.0.0.1", port), state)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


__all__ = ["Running", "authorize", "now"]
