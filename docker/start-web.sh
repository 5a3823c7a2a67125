#!/usr/bin/env bash
# The API under gunicorn (WSGI); settings in docker/gunicorn.conf.py: PORT (8000),
# BIND_ADDRESS (0.0.0.0), WEB_CONCURRENCY (4 processes), WEB_THREADS (2 per process).
# Migrations are not run here: start-migrate.sh runs them once before any server starts, so any
# number of these can start side by side. Run from the application's directory (/app).
set -o errexit -o pipefail -o nounset

# Metrics (docs/operations.md, "Metrics"): this server's processes add up their metrics in
# PROMETHEUS_MULTIPROC_DIR, a directory of their own (compose: /tmp/boardpost-metrics in each
# container; unless given, one per port on this host). Files a previous run
# left there would be added to this run's counts: they go before the processes start.
export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-${TMPDIR:-/tmp}/boardpost-metrics-web-${PORT:-8000}}"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -type f -name '*.db' -delete

exec gunicorn --config "${GUNICORN_CONFIG:-docker/gunicorn.conf.py}" config.wsgi:application
