from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api.errors import not_found
from games.api.views import UUID_RE
from games.web import OfflineRedocView, play, redoc_bundle

urlpatterns = [
    path("", RedirectView.as_view(url="/api/v1/docs/", permanent=False)),
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/v1/redoc/", OfflineRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/v1/redoc/redoc.standalone.js", redoc_bundle, name="redoc-bundle"),
    path("api/v1/", include("games.api.urls")),
    path("play/", play, name="play"),
    re_path(rf"^play/(?P<game_id>{UUID_RE})/$", play, name="play-game"),
    # Unknown paths under /api/ answer a problem document, never an HTML page.
    re_path(r"^api/", not_found),
]

handler400 = "games.api.errors.bad_request"
handler403 = "games.api.errors.forbidden"
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"
