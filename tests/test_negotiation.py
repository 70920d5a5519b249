"""The short way of content negotiation decides as DRF's own does (games.http.negotiation)."""

import pytest
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from games.http.fastjson import FastJSONRenderer
from games.http.negotiation import QuickContentNegotiation

ACCEPTS = [
    None, "*/*", "application/json", "application/json; indent=4", "text/html",
    "text/html, */*;q=0.1", "application/*", "application/problem+json", "image/png",
    "application/json;q=0", "", "*/*; q=0.5",
]
RENDERERS = [
    [FastJSONRenderer()], [JSONRenderer(), BrowsableAPIRenderer()],
    [BrowsableAPIRenderer(), JSONRenderer()],
]


def decide(negotiation: DefaultContentNegotiation, request: Request, renderers: list) -> object:
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)
    except NotAcceptable:
        return "406"
    except Http404:  # a ?format= no renderer writes
        return "404"
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("renderers", RENDERERS)
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api"])
def test_the_short_way_chooses_what_drf_chooses(accept: str | None, renderers: list,
                                                query: str) -> None:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get(f"/api/v1/rulesets/{query}", **headers))
    expected = decide(DefaultContentNegotiation(), request, renderers)
    assert decide(QuickContentNegotiation(), request, renderers) == expected


def test_a_client_asking_for_what_the_api_does_not_write_is_refused(client) -> None:
    answer = client.get("/api/v1/rulesets/", HTTP_ACCEPT="image/png")
    assert answer.status_code == 406
    assert answer["Content-Type"] == "application/problem+json"
