"""Settings for `make run` and local development."""

from .base import *  # noqa: F403
from .base import env, logging_config

DEBUG = env.bool("DJANGO_DEBUG", default=True)

# Static files: as in production, hashed and compressed once collected; make run
# (scripts/run_local.py) runs collectstatic on start, so restart it after editing the client's
# files. Before any collectstatic (manage.py runserver) the pages name the plain files.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "config.staticfiles.DevStaticStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = False

# Readable lines for a person at a terminal (LOG_FORMAT=json for the production format).
LOGGING = logging_config(env("LOG_FORMAT", default="plain"),
                         env("DJANGO_LOG_LEVEL", default="INFO"))

# Notifications on embedded defaults: mails are printed by the console backend unless mail is
# configured (EMAIL_URL or EMAIL_BACKEND), and Web Push uses the key pair that make run keeps
# in var/vapid.json (manage.py vapid_keys) unless VAPID keys are set.
if not env("EMAIL_URL", default="") and not env("EMAIL_BACKEND", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
_VAPID_FILE = VAR_DIR / "vapid.json"  # noqa: F405
if not VAPID_PRIVATE_KEY and _VAPID_FILE.exists():  # noqa: F405
    import json as _json

    _pair = _json.loads(_VAPID_FILE.read_text())
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _pair["public"], _pair["private"]
