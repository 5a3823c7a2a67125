#!/usr/bin/env bash
# Wait until PostgreSQL accepts connections, then run the given command.
set -o errexit -o pipefail -o nounset

if [[ "${DATABASE_URL:-}" == postgres* ]]; then
  for attempt in $(seq 1 60); do
    if pg_isready -q -d "$DATABASE_URL"; then
      break
    fi
    echo "waiting for PostgreSQL ($attempt)..." >&2
    sleep 1
  done
fi
# Metrics: the directory where this container's processes add up their metrics
# (PROMETHEUS_MULTIPROC_DIR) is emptied of what a previous run left in it: a restarted
# container keeps its files, and they would be added to this run's counts.
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
  find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -type f -name '*.db' -delete
fi
exec "$@"
