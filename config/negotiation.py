"""DRF's content negotiation, its choice for an ``Accept`` header remembered per process.

DRF parses the request's ``Accept`` header into media types and matches them against the
view's renderers on every request: about 40 µs of CPU (``manage.py stack_costs``), half as
much as the rest of DRF's own work for an API call. The choice depends only on the header and
the renderers' media types (unless the URL asks for a format), so
``RememberedContentNegotiation`` works it out once per header and set of renderers, with DRF's
own code, and answers from memory after that: the same renderer, the same media type, the same
406 ``not_acceptable`` for a header no renderer serves.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation

# Distinct (Accept header, renderers) pairs a process remembers; longer headers (rare, and
# mostly made up) are negotiated afresh each time.
MEMORY = 512
LONGEST_REMEMBERED = 512


class _Probe:
    """What DRF's negotiation reads of a request: its ``Accept`` header, no query string."""

    def __init__(self, accept: str | None) -> None:
        self.headers = {} if accept is None else {"accept": accept}
        self.query_params: dict[str, str] = {}


class _Renderer:
    """A stand-in renderer of one media type (all that the negotiation reads of one)."""

    format = None

    def __init__(self, media_type: str) -> None:
        self.media_type = media_type


@lru_cache(maxsize=MEMORY)
def negotiated(accept: str | None, media_types: tuple[str, ...]) -> tuple[int, str] | None:
    """Which renderer (by position) and media type DRF picks for ``accept`` (None: no header)
    among renderers of ``media_types``; None when it refuses with 406."""
    renderers: list[Any] = [_Renderer(media_type) for media_type in media_types]
    probe: Any = _Probe(accept)
    try:
        chosen, media_type = DefaultContentNegotiation().select_renderer(probe, renderers)
    except exceptions.NotAcceptable:
        return None
    return renderers.index(chosen), media_type


class RememberedContentNegotiation(DefaultContentNegotiation):
    """DRF's ``DefaultContentNegotiation``, with ``negotiated`` remembering its choices. A URL
    that names a format (a suffix, ``?format=``) is negotiated by DRF as it comes."""

    def select_renderer(self, request: Any, renderers: Any,
                        format_suffix: Any = None) -> Any:
        meta = getattr(request, "_request", request).META
        accept = meta.get("HTTP_ACCEPT")
        if (format_suffix or (meta.get("QUERY_STRING")
                              and request.query_params.get(self.settings.URL_FORMAT_OVERRIDE))
                or (accept is not None and len(accept) > LONGEST_REMEMBERED)):
            return super().select_renderer(request, renderers, format_suffix)
        choice = negotiated(accept, tuple(renderer.media_type for renderer in renderers))
        if choice is None:
            raise exceptions.NotAcceptable(available_renderers=renderers)
        return renderers[choice[0]], choice[1]
