#!/usr/bin/env bash
# One-shot, before the long-running services start (compose: the `migrate` service, which
# `web`, `events`, `worker` and `beat` wait for): apply migrations, then make sure the bot
# accounts exist. Run once per deployment, never by every server: two processes migrating the
# same database at once can fail each other.
set -o errexit -o pipefail -o nounset

python manage.py migrate --noinput
python manage.py seed_bots
