#!/usr/bin/env bash
set -o errexit -o pipefail -o nounset

exec celery -A config.celery_app beat --loglevel=INFO --schedule /tmp/celerybeat-schedule
