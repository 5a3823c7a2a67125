#!/usr/bin/env bash
# The ASGI server for long-poll endpoints: waiting clients hold no worker thread.
set -o errexit -o pipefail -o nounset

exec uvicorn config.asgi:application --host 0.0.0.0 --port "${PORT:-8001}" \
  --workers "${EVENTS_WORKERS:-2}" --no-access-log
