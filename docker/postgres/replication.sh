#!/usr/bin/env bash
# The primary's first start (the postgres image runs /docker-entrypoint-initdb.d/*.sh once, on an
# empty data directory): let the replica service stream the WAL with the application's account,
# which the image made a superuser, by password.
set -o errexit -o pipefail -o nounset
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
