from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView

from games.api.games.views import UUID_RE
from games.api.lti import views as lti
from games.api.operations.metrics import metrics
from games.api.operations.pages import catalogue, play, redoc_bundle, teach
from games.api.schema.pages import RedocView, SchemaView, SwaggerView
from games.http.problems import not_found

urlpatterns = [
    # A redirect changes nothing: any method is sent on, with no CSRF page in the way.
    path("", csrf_exempt(RedirectView.as_view(url="/api/v1/docs/", permanent=False))),
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SchemaView.as_view(), name="schema"),
    path("api/v1/docs/", SwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/v1/redoc/", RedocView.as_view(url_name="schema"), name="redoc"),
    path("api/v1/redoc/redoc.standalone.js", redoc_bundle, name="redoc-bundle"),
    path("api/v1/", include("games.api.urls")),
    path("play/", play, name="play"),
    re_path(rf"^play/(?P<game_id>{UUID_RE})/$", play, name="play-game"),
    re_path(rf"^play/tournaments/(?P<game_id>{UUID_RE})/$", play, name="play-tournament"),
    path("teach/", teach, name="teach"),
    path("pages/words/<str:language>.js", catalogue, name="js-catalogue"),
    # The LTI 1.3 tool (games/api/lti/): pages for platforms and browsers, not the JSON API.
    path("lti/", lti.tool, name="lti-tool"),
    path("lti/login/", lti.login, name="lti-login"),
    path("lti/launch/", lti.launch, name="lti-launch"),
    path("lti/jwks/", lti.jwks, name="lti-jwks"),
    path("lti/continue/", lti.continue_, name="lti-continue"),
    path("lti/deep-link/", lti.deep_link, name="lti-deep-link"),
    path("lti/register/", lti.register, name="lti-register"),
    path("metrics", metrics, name="metrics"),
    # Unknown paths under /api/ answer a problem document, never an HTML page.
    re_path(r"^api/", not_found),
]

handler400 = "games.http.problems.bad_request"
handler403 = "games.http.problems.forbidden"
handler404 = "games.http.problems.not_found"
handler500 = "games.http.problems.server_error"
