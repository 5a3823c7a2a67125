#!/usr/bin/env bash
# PgBouncer (Debian's package) in transaction mode between every process and PostgreSQL: the
# processes connect here (DATABASE_URL naming this host and port, DATABASE_POOLER=pgbouncer) and
# hold as many client connections as they like; PostgreSQL sees at most PGBOUNCER_POOL_SIZE
# server connections per database and user. The configuration is written from the environment:
#   POSTGRES_HOST, POSTGRES_PORT (5432)   the PostgreSQL server
#   POSTGRES_USER, POSTGRES_PASSWORD      the one account the processes use; without a password
#                                         clients are trusted (a private network or a test only)
#   PORT (6432), BIND_ADDRESS (0.0.0.0)   where PgBouncer listens
#   PGBOUNCER_POOL_SIZE (20)              server connections per database and user
#   PGBOUNCER_MAX_CLIENT_CONN (2000)      client connections in all
#   PGBOUNCER_QUERY_WAIT_TIMEOUT (10)     seconds a client waits for a server connection before
#                                         its query fails (the application answers 503 then)
#   PGBOUNCER_DIR                         where the configuration goes (a directory of its own)
set -o errexit -o pipefail -o nounset

dir="${PGBOUNCER_DIR:-${TMPDIR:-/tmp}/boardpost-pgbouncer-${PORT:-6432}}"
mkdir -p "$dir"
user="${POSTGRES_USER:-postgres}"
password="${POSTGRES_PASSWORD:-}"
if [ -n "$password" ]; then
  auth_type=scram-sha-256
else
  auth_type=trust
fi
# auth_file: "user" "password" (PgBouncer logs in to PostgreSQL with it and checks clients).
printf '"%s" "%s"\n' "$user" "${password//\"/\"\"}" > "$dir/users.txt"
chmod 600 "$dir/users.txt"

cat > "$dir/pgbouncer.ini" <<EOF
[databases]
* = host=${POSTGRES_HOST:-127.0.0.1} port=${POSTGRES_PORT:-5432} user=$user

[pgbouncer]
listen_addr = ${BIND_ADDRESS:-0.0.0.0}
listen_port = ${PORT:-6432}
unix_socket_dir =
auth_type = $auth_type
auth_file = $dir/users.txt
admin_users = $user
stats_users = $user
pool_mode = transaction
default_pool_size = ${PGBOUNCER_POOL_SIZE:-20}
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = ${PGBOUNCER_MAX_CLIENT_CONN:-2000}
max_db_connections = 0
query_wait_timeout = ${PGBOUNCER_QUERY_WAIT_TIMEOUT:-10}
server_login_retry = 1
server_connect_timeout = 5
server_lifetime = 3600
server_idle_timeout = 60
server_reset_query =
ignore_startup_parameters = extra_float_digits
log_connections = 0
log_disconnections = 0
pidfile = $dir/pgbouncer.pid
EOF

# One open file per client and per server connection, plus a few of its own.
wanted=$(( ${PGBOUNCER_MAX_CLIENT_CONN:-2000} + ${PGBOUNCER_POOL_SIZE:-20} * 4 + 64 ))
hard="$(ulimit -Hn)"
if [ "$hard" != "unlimited" ] && [ "$hard" -lt "$wanted" ]; then
  wanted="$hard"
fi
ulimit -Sn "$wanted" || echo "start-pgbouncer: could not raise the open-file limit to $wanted" >&2

exec pgbouncer "$dir/pgbouncer.ini"
