import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_asgi_application()

# The long-poll URLs go to a handler under which a waiting request holds no thread.
from games.live.asgi import with_long_poll  # noqa: E402 - needs the apps loaded above

application = with_long_poll(application)
