#!/usr/bin/env bash
# The ASGI server for the long-poll and stream endpoints: waiting clients hold no worker thread.
# PORT (8001), BIND_ADDRESS (0.0.0.0), EVENTS_WORKERS (2 processes), EVENTS_BACKLOG (4096),
# EVENTS_SERVER (granian or uvicorn), EVENTS_OPEN_FILES (65536).
set -o errexit -o pipefail -o nounset

# The server: Granian (default) or uvicorn (EVENTS_SERVER=uvicorn). Granian woke thousands of
# waiting clients sooner for less CPU, at about 20 KiB more memory per waiting client
# (docs/benchmarks.md, "The server, measured").
server="${EVENTS_SERVER:-granian}"

# Client addresses come from Django (TRUSTED_PROXY_COUNT); the server rewrites nothing itself
# (Granian never does; uvicorn only when proxies are trusted), so a forged X-Forwarded-For
# never reaches the throttles.
proxy_headers=(--no-proxy-headers)
if [ "${TRUSTED_PROXY_COUNT:-0}" != "0" ]; then
  proxy_headers=(--proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-*}")
fi

# Every waiting client (long-poll or stream) holds a socket, so a process needs about one open
# file per client plus a few hundred of its own: raise the soft limit to EVENTS_OPEN_FILES
# (default 65536), or to the hard limit when that is lower.
wanted="${EVENTS_OPEN_FILES:-65536}"
hard="$(ulimit -Hn)"
if [ "$hard" != "unlimited" ] && [ "$hard" -lt "$wanted" ]; then
  wanted="$hard"
fi
ulimit -Sn "$wanted" || echo "start-events: could not raise the open-file limit to $wanted" >&2

# Metrics (docs/operations.md, "Metrics"): this server's processes add up their metrics in
# PROMETHEUS_MULTIPROC_DIR, a directory of their own (compose: /tmp/boardpost-metrics in each
# container; unless given, one per port on this host). Files a previous run
# left there would be added to this run's counts: they go before the processes start.
export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-${TMPDIR:-/tmp}/boardpost-metrics-events-${PORT:-8001}}"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -type f -name '*.db' -delete

# The listen backlog must hold the clients that reconnect together after a restart. Granian's
# backpressure (requests a worker serves at once) is as high as the open files allow: every
# waiting client is one request under way. A worker that dies is started again.
case "$server" in
  granian)
    exec granian --interface asgi config.asgi:application --host "${BIND_ADDRESS:-0.0.0.0}" \
      --port "${PORT:-8001}" --workers "${EVENTS_WORKERS:-2}" --backlog "${EVENTS_BACKLOG:-4096}" \
      --backpressure "$wanted" --loop uvloop --no-access-log --respawn-failed-workers
    ;;
  uvicorn)
    exec uvicorn config.asgi:application --host "${BIND_ADDRESS:-0.0.0.0}" --port "${PORT:-8001}" \
      --workers "${EVENTS_WORKERS:-2}" --backlog "${EVENTS_BACKLOG:-4096}" --no-access-log \
      "${proxy_headers[@]}"
    ;;
  *)
    echo "start-events: EVENTS_SERVER must be granian or uvicorn, not $server" >&2
    exit 2
    ;;
esac
