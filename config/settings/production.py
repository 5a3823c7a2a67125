"""Production settings: hardening only; everything else comes from the environment.

With the documented environment (docs/security.md, "HTTPS and headers"), ``manage.py check
--deploy`` is clean: the site is served over HTTPS only (SSL redirect, HSTS, secure cookies),
whether Django sees TLS itself or, behind a TLS-terminating proxy, learns it from X-Forwarded-Proto
(DJANGO_SECURE_PROXY_SSL_HEADER=true; the proxy must set that header and drop the client's).
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production.")
DEBUG = False

# --- HTTPS
if env.bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=False):
    # Only behind a proxy that sets X-Forwarded-Proto itself: a client could send it too.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# The container health checks call /health/* over plain HTTP from inside the container.
# So do scrapers of /metrics on the private network (the token still applies).
SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# --- Headers (Content-Security-Policy: base.CONTENT_SECURITY_POLICY)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# STORAGES: base (hashed, compressed static files, as in every mode).

# /metrics: only with METRICS_TOKEN, or from addresses named in METRICS_ALLOWED_ADDRESSES
# (none by default: behind a proxy on the same host every client would come from 127.0.0.1).
METRICS_ALLOWED_ADDRESSES = env.list("METRICS_ALLOWED_ADDRESSES", default=[])
