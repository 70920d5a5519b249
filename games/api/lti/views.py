"""The LTI 1.3 tool's pages. Each parses the request, calls one service of games.lti and
renders HTML (a platform's browser is at the other end, not an API client): a refused
launch is a page that says why, 400 or 403, and has created nothing.

The launch signs the browser in through a single-use ticket rather than at once: inside
the platform's frame the launch page offers a button that goes on in a new window (where
the tool's cookies are first-party), and outside a frame it goes on by itself. The ticket
is posted, never put in an address, lives five minutes and works once.
"""

import secrets
import uuid
from typing import Any
from urllib.parse import urlsplit

from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.api.lti.forms import DeepLinkForm
from games.http.problems import PROBLEM_TYPES
from games.http.sessions import SESSION_KEY
from games.http.translation import said
from games.lti import deep_links, dynamic, launches
from games.lti.keys import tool_jwks
from games.lti.registrations import TOOL_PATHS, tool_urls
from games.lti.tool import launch_check, login_response
from games.play.errors import REFUSALS, ServiceCode, ServiceError
from scoring.errors import Worded

TICKET_SALT = "games.lti.continue"
DEEP_LINK_SALT = "games.lti.deep-link"
TICKET_SECONDS = 300
DEEP_LINK_SECONDS = 3600
EXPIRED = ServiceCode.LTI_LAUNCH_INVALID
# The tool's own pages: the platform frames them (frame-ancestors *); scripts and styles of
# the service only.
POLICY = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors *",
]


def _page(
    request: HttpRequest, template: str, context: dict[str, Any], *, status: int = 200,
    form_action: str = "'self'",
) -> HttpResponse:
    response = render(request, template, context, status=status)
    response["Content-Security-Policy"] = "; ".join([*POLICY, f"form-action {form_action}"])
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def refused(request: HttpRequest, refusal: Exception) -> HttpResponse:
    code = getattr(refusal, "code", None)
    kind = PROBLEM_TYPES.get(code) if code is not None else None
    status = kind.status if kind is not None and kind.status in (400, 401, 403) else 400
    return _page(
        request,
        "lti/refused.html",
        {
            "title": gettext(kind.title if kind is not None else "Launch refused"),
            "detail": said(refusal) if isinstance(refusal, Worded) else str(refusal),
            "code": str(code or "lti_launch_invalid"),
        },
        status=403 if status == 401 else status,
    )


def _absolute(request: HttpRequest, name: str) -> str:
    return request.build_absolute_uri(TOOL_PATHS[name])


@require_safe
def tool(request: HttpRequest) -> JsonResponse:
    """The tool's URLs for the host this request reached (https behind a TLS proxy that
    says so, per SECURE_PROXY_SSL_HEADER): what an operator gives a platform."""
    return JsonResponse(
        {**tool_urls(request.build_absolute_uri("/")),
         "register": request.build_absolute_uri("/lti/register/")}
    )


@require_safe
def jwks(request: HttpRequest) -> JsonResponse:
    """The tool's public keys (RSA), as platforms fetch them to check what it signs."""
    response = JsonResponse(tool_jwks())
    response["Cache-Control"] = "public, max-age=300"
    return response


@csrf_exempt
@xframe_options_exempt
@require_http_methods(["GET", "POST"])
def login(request: HttpRequest) -> HttpResponse:
    """OpenID Connect login initiation from a platform (third-party initiated login)."""
    try:
        return login_response(request, launch_url=_absolute(request, "launch"))
    except REFUSALS as refusal:
        return refused(request, refusal)


@csrf_exempt
@xframe_options_exempt
@require_http_methods(["GET", "POST"])
def launch(request: HttpRequest) -> HttpResponse:
    """A resource link or deep-linking launch: checked, entered, then the page that goes on
    (a deep-linking request: the form that picks or sets the assignment)."""
    try:
        checked = launch_check(request)
        entered = launches.launch_enter(
            registration=checked.registration,
            deployment=checked.deployment,
            claims=checked.claims,
            state=checked.state,
        )
    except REFUSALS as refusal:
        return refused(request, refusal)
    if entered.deep_link is not None:
        return _deep_link_form(request, entered, checked.deployment.pk)
    ticket = {
        "n": secrets.token_urlsafe(16),
        "k": entered.key_id,
        "p": entered.path,
        "g": str(entered.game_id) if entered.game_id else None,
        "s": entered.seat,
        "t": entered.seat_token,
    }
    return _page(
        request,
        "lti/launched.html",
        {
            "ticket": signing.dumps(ticket, salt=TICKET_SALT),
            "teacher": entered.role == "teacher",
            "notice": entered.notice,
        },
    )


@csrf_exempt
@xframe_options_exempt
@require_POST
def continue_(request: HttpRequest) -> HttpResponse:
    """The launch's ticket, spent: this browser signed in (a session cookie), then on to
    /teach/ or /play/ (a learner's game: the seat's token handed to the page)."""
    try:
        ticket = signing.loads(
            request.POST.get("ticket", ""), salt=TICKET_SALT, max_age=TICKET_SECONDS
        )
        launches.ticket_spend(ticket_id=str(ticket["n"]))
    except (signing.BadSignature, KeyError, TypeError):
        return refused(request, ServiceError(
            EXPIRED, gettext_noop("this launch has expired: launch again")
        ))
    except REFUSALS as refusal:
        return refused(request, refusal)
    request.session.cycle_key()
    request.session[SESSION_KEY] = int(ticket["k"])
    get_token(request)
    if not ticket.get("g"):
        return HttpResponseRedirect(str(ticket["p"]), status=303)
    return _page(
        request,
        "lti/seat.html",
        {"game": ticket["g"], "seat": ticket["s"], "token": ticket["t"], "path": ticket["p"]},
    )


@csrf_exempt
@xframe_options_exempt
@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    """LTI Dynamic Registration: the platform opens this page with its configuration's
    URL and a registration token; the administrator confirms, and the tool registers (the
    token is what authorises it: the page needs no cookie inside the platform's frame)."""
    params = request.POST if request.method == "POST" else request.GET
    config = params.get("openid_configuration", "")
    token = params.get("registration_token", "")
    if not config:
        return refused(request, ServiceError(EXPIRED, gettext_noop(
            "open this page from the platform's dynamic registration (no openid_configuration)"
        )))
    if request.method == "GET":
        return _page(request, "lti/register.html", {"config": config, "token": token})
    try:
        registered = dynamic.dynamic_register(
            openid_configuration=config, registration_token=token,
            base=request.build_absolute_uri("/"),
        )
    except REFUSALS as refusal:
        return refused(request, refusal)
    return _page(
        request,
        "lti/registered.html",
        {"issuer": registered.registration.issuer, "deployments": registered.deployments},
    )


def _deep_link_form(
    request: HttpRequest, entered: launches.Entered, deployment_pk: int, *,
    form: DeepLinkForm | None = None, status: int = 200,
) -> HttpResponse:
    context = {
        "k": entered.key_id,
        "c": str(entered.classroom_id),
        "d": deployment_pk,
        "s": entered.deep_link,
    }
    return _page(
        request,
        "lti/deep_link.html",
        {
            "form": form or DeepLinkForm(),
            "context": signing.dumps(context, salt=DEEP_LINK_SALT),
            "assignments": deep_links.deep_link_choices(classroom_id=entered.classroom_id),
        },
        status=status,
    )


@csrf_exempt
@xframe_options_exempt
@require_POST
def deep_link(request: HttpRequest) -> HttpResponse:
    """The deep-linking form sent: the signed answer, posted to the platform's return URL
    by the page itself. The form's signed context (made at the launch) says which course
    and deployment it is for: no cookie is needed inside the platform's frame."""
    try:
        context = signing.loads(
            request.POST.get("context", ""), salt=DEEP_LINK_SALT, max_age=DEEP_LINK_SECONDS
        )
        classroom_id = uuid.UUID(context["c"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return refused(request, ServiceError(
            EXPIRED, gettext_noop("this form has expired: add it again")
        ))
    form = DeepLinkForm(request.POST)
    entered = launches.Entered(
        role="teacher", key_id=int(context["k"]), classroom_id=classroom_id, course_id=0,
        deep_link=context["s"],
    )
    if not form.is_valid():
        return _deep_link_form(request, entered, int(context["d"]), form=form, status=400)
    try:
        answer = deep_links.deep_link_answer(
            deployment_pk=int(context["d"]),
            classroom_id=classroom_id,
            settings=dict(context["s"] or {}),
            launch_url=_absolute(request, "launch"),
            assignment_id=form.cleaned_data.get("assignment"),
            new=form.new_assignment(),
        )
    except REFUSALS as refusal:
        if isinstance(refusal, ServiceError) and refusal.field:
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.detail)
            return _deep_link_form(request, entered, int(context["d"]), form=form, status=400)
        return refused(request, refusal)
    target = urlsplit(answer.return_url)
    return _page(
        request,
        "lti/deep_link_answer.html",
        {"return_url": answer.return_url, "jwt": answer.jwt, "title": answer.assignment.title},
        form_action=f"{target.scheme}://{target.netloc}",
    )
