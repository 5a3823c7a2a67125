"""Static file storage: the same hashed, compressed files in every mode.

``collectstatic`` (``make run`` runs it on start; a deploy runs it once) writes every file under
a content-hashed name with gzip and Brotli copies beside it. WhiteNoise then serves a hashed name
with ``Cache-Control: max-age=315360000, public, immutable`` and the compressed copy the browser
accepts. ES module imports between the client's files (``import ... from "./dom.js";``) are
rewritten to the hashed names, so a module never loads a stale neighbour after a deploy; the page's
import map covers the one dynamic import (a game module by its slug).
"""

from __future__ import annotations

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]

# Django's patterns for ES module imports, anchored at the start of a line: unanchored, a
# comment such as "every export optional; ..." starts a match that runs on to the next real
# import, and that import's URL is then hashed twice ("api.<hash>.<hash>.js", a 404).
_JS_MODULE_PATTERNS = (
    "*.js",
    (
        (r"""(?m)^(?P<matched>import(?s:(?P<import>[\s\{].*?|\*\s*as\s*\w+))"""
         r"""\s*from\s*['"](?P<url>[./].*?)["']\s*;)""",
         """import%(import)s from "%(url)s";"""),
        (r"""(?m)^(?P<matched>export(?s:(?P<exports>[\s\{].*?))"""
         r"""\s*from\s*["'](?P<url>[./].*?)["']\s*;)""",
         """export%(exports)s from "%(url)s";"""),
        (r"""(?m)^(?P<matched>import\s*['"](?P<url>[./].*?)["']\s*;)""",
         """import"%(url)s";"""),
    ),
)


class ClientStaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed URLs even with DEBUG on (Django hands out plain names then): ``make run`` serves
    what production serves."""

    support_js_module_import_aggregation = True
    _js_module_import_aggregation_patterns = _JS_MODULE_PATTERNS

    def url(self, name: str | None, force: bool = False) -> str:
        return super().url(name, force=True)


class DevStaticStorage(ClientStaticStorage):
    """For ``make run`` and the tests: plain names (served from the apps) until ``collectstatic``
    has filled STATIC_ROOT, hashed ones after. ``make run`` collects on start; the browser tests
    collect once per session into a directory of their own; a test that only renders a page
    needs nothing collected."""

    def url(self, name: str | None, force: bool = False) -> str:
        if self.hashed_files:
            try:
                return super().url(name, force)
            except ValueError:  # a file added since the last collectstatic: the plain one
                pass
        return StaticFilesStorage.url(self, name)
