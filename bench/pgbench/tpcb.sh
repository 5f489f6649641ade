#!/usr/bin/env bash
# pgbench's own workloads on joind and on PostgreSQL 15, one after the other:
# `pgbench -i` with its default steps, then the built-in TPC-B script and the
# select-only script (-S) through the extended protocol with prepared
# statements (-M prepared).
#   bench/pgbench/tpcb.sh JOIND_PORT PG_PORT [SCALE] [SECONDS] [CLIENTS] [PG_DB]
# Both servers must accept user postgres on 127.0.0.1; joind's database is
# postgres, PostgreSQL's PG_DB (default postgres: use your own on a shared
# cluster).
set -euo pipefail
pgbin=/usr/lib/postgresql/15/bin
scale=${3:-1} secs=${4:-60} clients=${5:-8} pgdb=${6:-postgres}
for target in "joind:$1:postgres" "postgres:$2:$pgdb"; do
	IFS=: read -r name port db <<<"$target"
	args=(-h 127.0.0.1 -p "$port" -U postgres)
	echo "== $name (port $port, database $db): pgbench -i -s $scale"
	"$pgbin/pgbench" "${args[@]}" -i -s "$scale" "$db"
	echo "== $name: TPC-B, -M prepared -c $clients -j 2 -T $secs"
	"$pgbin/pgbench" "${args[@]}" -M prepared -c "$clients" -j 2 -T "$secs" "$db"
	echo "== $name: select-only (-S), -M prepared -c $clients -j 2 -T $secs"
	"$pgbin/pgbench" "${args[@]}" -S -M prepared -c "$clients" -j 2 -T "$secs" "$db"
done
