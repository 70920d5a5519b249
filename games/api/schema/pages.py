"""The documentation pages and the schema, as drf-spectacular serves them, with one change:
``OPTIONS`` answers the allowed methods and no body.

DRF answers ``OPTIONS`` with a metadata object, rendered by the view's own renderer: for an
HTML page that renderer has no template for it (a 500), for the schema it is YAML that is
not the schema. A page has nothing to describe beyond its methods.
"""

from typing import Any

from django.http import HttpResponse
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.request import Request
from rest_framework.views import APIView


class AllowOnly(APIView):
    def options(  # type: ignore[override]  # an answer with no body, not one to render
        self, request: Request, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        response = HttpResponse(status=200, headers={"Allow": ", ".join(self.allowed_methods)})
        del response["Content-Type"]
        return response


class SchemaView(AllowOnly, SpectacularAPIView):
    pass


class SwaggerView(AllowOnly, SpectacularSwaggerView):
    pass


class RedocView(AllowOnly, SpectacularRedocView):
    # Our own page: no web fonts, and the bundle from this service
    # (games.api.operations.pages.redoc_bundle).
    template_name = "docs/redoc.html"
