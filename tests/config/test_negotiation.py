"""DRF's content negotiation with its choices remembered (config.negotiation): the same renderer,
media type and 406 as DRF's own for every Accept header; a URL that names a format is negotiated
by DRF."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer, StaticHTMLRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from config.api import ORJSONRenderer
from config.negotiation import LONGEST_REMEMBERED, RememberedContentNegotiation, negotiated

HEADERS = [None, "", "*/*", "application/json", "application/json; indent=4",
           "application/*", "text/html", "text/html, application/json;q=0.5",
           "image/svg+xml", "application/json, */*;q=0.1", "bogus", "text/*;q=0.2, */*",
           "application/json;q=0", ",,,", "a" * (LONGEST_REMEMBERED + 1)]
RENDERER_SETS = [[ORJSONRenderer], [JSONRenderer, BrowsableAPIRenderer],
                 [StaticHTMLRenderer, JSONRenderer]]


def _request(accept: str | None, path: str = "/api/games") -> Request:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Request(APIRequestFactory().get(path, **headers))


def _choice(negotiation, accept, renderer_classes, path="/api/games", suffix=None):
    renderers = [cls() for cls in renderer_classes]
    try:
        renderer, media_type = negotiation.select_renderer(_request(accept, path), renderers,
                                                           suffix)
    except exceptions.NotAcceptable as exc:
        return "406", [type(r) for r in exc.available_renderers]
    except Http404:
        return "404", None
    return type(renderer), media_type


@pytest.mark.parametrize("renderer_classes", RENDERER_SETS)
@pytest.mark.parametrize("accept", HEADERS)
def test_every_choice_is_drf_s_own(accept, renderer_classes):
    ours = RememberedContentNegotiation()
    expected = _choice(DefaultContentNegotiation(), accept, renderer_classes)
    assert _choice(ours, accept, renderer_classes) == expected
    assert _choice(ours, accept, renderer_classes) == expected  # from memory


@pytest.mark.parametrize(("path", "suffix"), [("/api/games?format=json", None),
                                              ("/api/games?format=html", None),
                                              ("/api/games?format=xml", None),
                                              ("/api/games", "json")])
def test_a_format_in_the_url_is_negotiated_by_drf(path, suffix):
    classes = [JSONRenderer, BrowsableAPIRenderer]
    assert _choice(RememberedContentNegotiation(), "text/html", classes, path, suffix) == \
        _choice(DefaultContentNegotiation(), "text/html", classes, path, suffix)


def test_a_header_is_worked_out_once_per_set_of_renderers():
    negotiated.cache_clear()
    for _ in range(3):
        _choice(RememberedContentNegotiation(), "application/json", [ORJSONRenderer])
    info = negotiated.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_the_api_answers_406_for_an_accept_header_it_cannot_serve(client_for, alice):
    response = client_for(alice).get("/api/me", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert response.json()["code"] == "not_acceptable"
    assert client_for(alice).get("/api/me", HTTP_ACCEPT="application/json").status_code == 200
