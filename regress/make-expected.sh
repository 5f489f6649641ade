#!/usr/bin/env bash
# Regenerate regress/expected/<name>.out by running regress/sql/<name>.sql on
# a scratch PostgreSQL 15 cluster, under exactly the psql invocation and
# environment the Go runner (psql.go) uses. Usage:
#   regress/make-expected.sh            # every suite in regress/schedule
#   regress/make-expected.sh types ...  # just these suites
# Env: PORT (default 55445) for the scratch cluster. Run as root (the
# cluster runs as user postgres) or as an ordinary user.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin=/usr/lib/postgresql/15/bin
port=${PORT:-55445}

if [ $# -gt 0 ]; then
	suites=("$@")
else
	mapfile -t suites < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$here/schedule")
fi

tmp=$(mktemp -d /tmp/joind-expected-XXXXXX)
as_server() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
	as_server "$bin/pg_ctl" -D "$tmp/data" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
if [ "$(id -u)" = 0 ]; then chown postgres "$tmp"; fi

# Same cluster settings as regress/oracle.
as_server "$bin/initdb" -D "$tmp/data" -A trust -U postgres --locale=C.UTF-8 --encoding=UTF8 --no-sync >/dev/null
as_server "$bin/pg_ctl" -D "$tmp/data" -w -l "$tmp/log" -o "-p $port -k $tmp \
	-c listen_addresses=127.0.0.1 -c TimeZone=UTC -c DateStyle='ISO, MDY' \
	-c IntervalStyle=postgres -c work_mem=256MB -c fsync=off" start >/dev/null
"$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c 'CREATE DATABASE regression'

# Same environment as PsqlEnv in regress/psql.go.
run_env=(env)
for v in $(env | sed -n 's/^\(PG[A-Za-z_]*\|LC_[A-Z_]*\|LANG\|LANGUAGE\)=.*/\1/p'); do
	run_env+=(-u "$v")
done
run_env+=(PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres PGDATABASE=regression
	PGTZ=UTC "PGDATESTYLE=ISO, MDY" "PGOPTIONS=-c intervalstyle=postgres"
	PGAPPNAME=joind_regress LC_ALL=C)

mkdir -p "$here/expected"
for s in "${suites[@]}"; do
	# stdin, not -f: like pg_regress, so errors have no "psql:file:line:" prefix.
	"${run_env[@]}" PG_ABS_SRCDIR="$here" "$bin/psql" -X -a -q -d regression <"$here/sql/$s.sql" >"$here/expected/$s.out" 2>&1 || true
	echo "expected/$s.out: $(wc -l <"$here/expected/$s.out") lines"
done
