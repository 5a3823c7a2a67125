#!/usr/bin/env bash
# The ASGI server for long-poll endpoints: waiting clients hold no worker thread.
set -o errexit -o pipefail -o nounset

# Client addresses come from Django (TRUSTED_PROXY_COUNT); uvicorn rewrites nothing itself
# unless proxies are trusted, so a forged X-Forwarded-For never reaches the throttles.
proxy_headers=(--no-proxy-headers)
if [ "${TRUSTED_PROXY_COUNT:-0}" != "0" ]; then
  proxy_headers=(--proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-*}")
fi

exec uvicorn config.asgi:application --host 0.0.0.0 --port "${PORT:-8001}" \
  --workers "${EVENTS_WORKERS:-2}" --no-access-log "${proxy_headers[@]}"
