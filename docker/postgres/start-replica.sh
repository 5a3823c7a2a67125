#!/usr/bin/env bash
# The replica service: on an empty data directory, a base backup of the primary taken with
# pg_basebackup -R (which writes the standby's connection settings and standby.signal), then
# PostgreSQL as a hot standby replaying what the primary streams. Runs as the postgres user of
# the postgres image; PRIMARY_HOST, POSTGRES_USER and POSTGRES_PASSWORD name the primary.
set -o errexit -o pipefail -o nounset

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -q -h "$PRIMARY_HOST" -U "$POSTGRES_USER"; do
    echo "waiting for the primary at $PRIMARY_HOST..." >&2
    sleep 1
  done
  PGPASSWORD="$POSTGRES_PASSWORD" pg_basebackup -h "$PRIMARY_HOST" -U "$POSTGRES_USER" \
    -D "$PGDATA" -X stream -R --checkpoint=fast
  chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on
