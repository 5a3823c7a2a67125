from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog, JSONCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import health, metrics
from games.web import app_manifest, worker
from games.web import views as web

# Swagger UI's page loads its script from a URL of its own (the split view), so the
# Content-Security-Policy needs no inline script; only its small inline stylesheet is allowed.
docs_view = csp_update({"style-src": ["'unsafe-inline'"]})(
    SpectacularSwaggerSplitView.as_view(url_name="schema"))

urlpatterns = [
    # For operators: liveness and readiness (config.health), not part of the API.
    path("health/live", health.live, name="health-live"),
    path("health/ready", health.ready, name="health-ready"),
    # Prometheus metrics, behind METRICS_TOKEN / METRICS_ALLOWED_ADDRESSES (config.metrics).
    path("metrics", metrics.metrics_view, name="metrics"),
    *([path("admin/", admin.site.urls)] if settings.ADMIN_ENABLED else []),  # DJANGO_ADMIN_ENABLED
    path("api/schema", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs", docs_view, name="docs"),
    path("api/", include("accounts.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include("games.notify.urls")),
    path("api/", include("games.lifecycle.urls")),
    path("api/", include("games.people.urls")),
    path("api/", include("games.tournaments.urls")),
    # The web client's translated texts (locale/<lang>/LC_MESSAGES/djangojs.po) in the
    # request's language: as a script defining gettext() and friends, or as JSON for a module.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games.web"]), name="javascript-catalog"),
    path("jsi18n.json", JSONCatalog.as_view(packages=["games.web"]), name="json-catalog"),
    # The web client's service worker (offline shell, moves kept on the device, Web Push), at
    # the root so that it may serve every page; its manifest, which makes it installable.
    path("sw.js", worker.service_worker, name="service-worker"),
    path("manifest.webmanifest", app_manifest.manifest_view, name="web-manifest"),
    # The reference web client (after the API: its routes never shadow an API URL).
    path("", web.index, name="web"),
    re_path(web.CLIENT_ROUTES, web.index, name="web-route"),
]

handler400 = "config.api.json_bad_request"
handler403 = "config.api.json_permission_denied"
handler404 = "config.api.json_not_found"
handler500 = "config.api.json_server_error"
