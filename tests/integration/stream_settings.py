"""The test settings with a short stream heartbeat, for the uvicorn the stream tests start."""

from config.settings.test import *  # noqa: F403

EVENTS_HEARTBEAT_SECONDS = 0.5
