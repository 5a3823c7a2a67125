from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import health
from games.web import views as web

urlpatterns = [
    # For operators: liveness and readiness (config.health), not part of the API.
    path("health/live", health.live, name="health-live"),
    path("health/ready", health.ready, name="health-ready"),
    path("admin/", admin.site.urls),
    path("api/schema", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("accounts.urls")),
    path("api/", include("games.api.urls")),
    # The reference web client (after the API: its routes never shadow an API URL).
    path("", web.index, name="web"),
    re_path(web.CLIENT_ROUTES, web.index, name="web-route"),
]

handler400 = "config.api.json_bad_request"
handler403 = "config.api.json_permission_denied"
handler404 = "config.api.json_not_found"
handler500 = "config.api.json_server_error"
