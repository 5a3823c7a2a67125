#!/usr/bin/env bash
# Migrate, make sure the bot accounts exist, then serve the API with gunicorn.
set -o errexit -o pipefail -o nounset

python manage.py migrate --noinput
python manage.py seed_bots
exec gunicorn config.wsgi:application \
  --bind "0.0.0.0:${PORT:-8000}" \
  --workers "${WEB_CONCURRENCY:-4}" \
  --threads "${WEB_THREADS:-2}" \
  --access-logfile - \
  --timeout 30
