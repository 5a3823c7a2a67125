#!/usr/bin/env bash
# A Celery worker: WORKER_CONCURRENCY pool processes (4), named WORKER_NAME (celery@<host>;
# give each worker on one host a name of its own), consuming WORKER_QUEUES (a comma-separated
# list; default: CELERY_TASK_DEFAULT_QUEUE, "celery"). With CELERY_METRICS_PORT set, the worker
# serves its pool processes' metrics (task counts and run times, bot think time) on that port.
set -o errexit -o pipefail -o nounset

# Metrics (docs/operations.md, "Metrics"): this server's processes add up their metrics in
# PROMETHEUS_MULTIPROC_DIR, a directory of their own (compose: /tmp/boardpost-metrics in each
# container; unless given, one per worker name on this host). Files a previous run
# left there would be added to this run's counts: they go before the processes start.
export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-${TMPDIR:-/tmp}/boardpost-metrics-worker-${WORKER_NAME:-celery}}"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -type f -name '*.db' -delete

queues=()
if [ -n "${WORKER_QUEUES:-}" ]; then
  queues=(--queues "$WORKER_QUEUES")
fi

exec celery -A config.celery_app worker --loglevel=INFO \
  --concurrency "${WORKER_CONCURRENCY:-4}" --hostname "${WORKER_NAME:-celery@%h}" \
  "${queues[@]}"
