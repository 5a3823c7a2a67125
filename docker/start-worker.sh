#!/usr/bin/env bash
# A Celery worker: WORKER_CONCURRENCY pool processes (4), named WORKER_NAME (celery@<host>;
# give each worker on one host a name of its own), consuming WORKER_QUEUES (a comma-separated
# list; default: CELERY_TASK_DEFAULT_QUEUE, "celery").
set -o errexit -o pipefail -o nounset

queues=()
if [ -n "${WORKER_QUEUES:-}" ]; then
  queues=(--queues "$WORKER_QUEUES")
fi

exec celery -A config.celery_app worker --loglevel=INFO \
  --concurrency "${WORKER_CONCURRENCY:-4}" --hostname "${WORKER_NAME:-celery@%h}" \
  "${queues[@]}"
