#!/usr/bin/env bash
# Run the regress suites under PostgreSQL's own pg_regress against a running
# server (joind or PostgreSQL): an independent check of the Go runner.
#   regress/pg_regress.sh PORT [HOST] [DBNAME]
# Results go to regress/output/ (results/*.out, regression.diffs). PG 15's
# pg_regress has no --expecteddir: it reads <inputdir>/expected/<name>.out
# (after <outputdir>/expected, which we never create). pg_regress
# sets PGTZ=PST8PDT, PGDATESTYLE='Postgres, MDY' and
# PGOPTIONS='-c intervalstyle=postgres_verbose' itself; every suite SETs
# DateStyle, TimeZone and IntervalStyle first, so the expected files hold
# under both runners.
set -euo pipefail

port=${1:?usage: pg_regress.sh PORT [HOST] [DBNAME]}
host=${2:-127.0.0.1}
db=${3:-regression}
here=$(cd "$(dirname "$0")" && pwd)
pgr=/usr/lib/postgresql/15/lib/pgxs/src/test/regress/pg_regress
bin=/usr/lib/postgresql/15/bin
[ -x "$pgr" ] || { echo "pg_regress not found at $pgr (package postgresql-server-dev-15)" >&2; exit 2; }

# --use-existing needs the database; create it where the server has none.
if ! "$bin/psql" -X -q -h "$host" -p "$port" -U postgres -d "$db" -c 'SELECT 1' >/dev/null 2>&1; then
	"$bin/psql" -X -q -h "$host" -p "$port" -U postgres -d postgres -c "CREATE DATABASE $db"
fi

sched=$(mktemp /tmp/joind-schedule-XXXXXX)
trap 'rm -f "$sched"' EXIT
sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' -e 's/^/test: /' "$here/schedule" >"$sched"

mkdir -p "$here/output"
cd "$here"
PGUSER=postgres "$pgr" --use-existing --host="$host" --port="$port" --dbname="$db" \
	--bindir="$bin" --inputdir="$here" --outputdir="$here/output" \
	--schedule="$sched"
