#!/usr/bin/env bash
# The API under gunicorn (WSGI); settings in docker/gunicorn.conf.py: PORT (8000),
# BIND_ADDRESS (0.0.0.0), WEB_CONCURRENCY (4 processes), WEB_THREADS (2 per process).
# Migrations are not run here: start-migrate.sh runs them once before any server starts, so any
# number of these can start side by side. Run from the application's directory (/app).
set -o errexit -o pipefail -o nounset

exec gunicorn --config "${GUNICORN_CONFIG:-docker/gunicorn.conf.py}" config.wsgi:application
