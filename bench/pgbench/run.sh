#!/usr/bin/env bash
# Runs analytic.sql with pgbench (extended protocol, 16 clients, 2 threads)
# against joind and against PostgreSQL 15 on the same data.
#   bench/pgbench/run.sh JOIND_PORT PG_PORT [SECONDS]
# Both servers must accept user postgres on 127.0.0.1, database postgres.
set -euo pipefail
cd "$(dirname "$0")"
pgbin=/usr/lib/postgresql/15/bin
secs=${3:-30}
for target in "joind:$1" "postgres:$2"; do
	name=${target%%:*} port=${target##*:}
	echo "== $name (port $port)"
	"$pgbin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -f setup.sql
	"$pgbin/pgbench" -h 127.0.0.1 -p "$port" -U postgres -n -M extended -c 16 -j 2 -T "$secs" -f analytic.sql postgres
done
