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
