"""Pages for people: the web client (``/play/``) and the offline ReDoc page.

The web client is one page of plain ES modules and CSS from ``games/static/play/``, served
by WhiteNoise; it talks to the public API only, as any other frontend does; the game id is
in its address (``/play/<id>/``).

ReDoc's bundle draws a logo from Redocly's CDN, and drf-spectacular's page links web fonts
from Google: the docs must work with no internet access, so the page here loads no font,
and the bundle is served with that logo's address pointing at a file of the service.
"""

from collections.abc import Callable
from functools import cache, wraps
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.templatetags.static import static
from django.utils import translation
from django.views.decorators.http import require_safe
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

from games.http.sessions import session_key_id

# The pages' Content-Security-Policy: scripts, styles, images, fonts and connections (the
# API, its event streams) from the service's own origin only; no inline script or style, no
# plugin, no other page framing them, no form or <base> pointing elsewhere. The teacher's
# key lives in the page's session storage: a script injected from anywhere else must not
# run there.
PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def own_origin_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serves a page under :data:`PAGE_POLICY`, never sniffed as another type."""

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["Content-Security-Policy"] = PAGE_POLICY
        response["X-Content-Type-Options"] = "nosniff"
        return response

    return page


class PageView(TemplateView):
    """A page in the language the request is answered in (the language middleware's choice:
    the page's language menu, kept in Django's language cookie, else the browser's
    ``Accept-Language``), with the menu to choose another and the catalogue of its words."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["language"] = translation.get_language() or settings.LANGUAGE_CODE
        context["languages"] = settings.LANGUAGES
        context["language_cookie"] = settings.LANGUAGE_COOKIE_NAME
        # Whether a course launch signed this browser in: the page then asks the API who it
        # is by its session, and a page with no session never sends that request (whose 401
        # a browser would report as an error).
        context["signed_in"] = session_key_id(self.request) is not None
        return context


play = own_origin_only(require_safe(PageView.as_view(template_name="play/index.html")))


# The teacher's page, built like the web client from ``games/static/teach/``: a classroom,
# its assignments and their results; the teacher key stays in the tab's session storage.
teach = own_origin_only(require_safe(PageView.as_view(template_name="teach/index.html")))

# The pages' words in one language: Django's JavaScript catalogue of the ``djangojs`` domain
# (locale/<dir>/LC_MESSAGES/djangojs.po), a script that defines ``django.gettext`` and the
# rest; the page names its language in the address, so that a cached catalogue is never one
# of another language.
_catalogue_view = JavaScriptCatalog.as_view(domain="djangojs")


@require_safe
def catalogue(request: HttpRequest, language: str) -> HttpResponseBase:
    if language not in dict(settings.LANGUAGES):
        raise Http404(language)
    with translation.override(language):
        response = _catalogue_view(request)
    response["Content-Language"] = language
    return response
REDOC_BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@cache
def offline_redoc_bundle() -> bytes:
    """The sidecar's ReDoc bundle, its one address on another host replaced by our logo."""
    path = finders.find(REDOC_BUNDLE)
    if not isinstance(path, str):
        raise FileNotFoundError(REDOC_BUNDLE)
    with open(path, encoding="utf-8") as bundle:
        return bundle.read().replace(REDOC_LOGO, static("docs/redoc-logo.svg")).encode()


@require_safe
def redoc_bundle(request: HttpRequest) -> HttpResponse:
    return HttpResponse(
        offline_redoc_bundle(),
        content_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "public, max-age=86400"},
    )
