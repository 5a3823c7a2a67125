#!/usr/bin/env bash
# Migrate, make sure the bot accounts exist, then serve the API with gunicorn
# (settings: docker/gunicorn.conf.py).
set -o errexit -o pipefail -o nounset

python manage.py migrate --noinput
python manage.py seed_bots
exec gunicorn --config /app/docker/gunicorn.conf.py config.wsgi:application
