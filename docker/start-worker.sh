#!/usr/bin/env bash
set -o errexit -o pipefail -o nounset

exec celery -A config.celery_app worker --loglevel=INFO --concurrency "${WORKER_CONCURRENCY:-4}"
