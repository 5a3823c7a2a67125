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
exec "$@"
