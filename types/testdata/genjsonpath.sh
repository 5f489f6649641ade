#!/bin/sh
# Regenerates jsonpath_pg15.tsv from a PostgreSQL 15, with psql's
# environment (PGHOST, PGPORT, PGUSER) and psql on PATH:
#   types/testdata/genjsonpath.sh > types/testdata/jsonpath_pg15.tsv
# For each line of jsonpath_inputs.txt (jsonpath.sql's inputs and more):
# the input, then jsonpath_out of it or "ERROR <sqlstate> <message>", in
# COPY text format. TestJSONPathRoundTrip reads it.
set -e
dir=$(dirname "$0")
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE inputs (n serial, p text);
\copy inputs (p) from program 'sed -e "s/\\\\\\\\/\\\\\\\\\\\\\\\\/g" "$dir/jsonpath_inputs.txt"'
CREATE FUNCTION pg_temp.jp(p text) RETURNS text LANGUAGE plpgsql AS \$\$
BEGIN
  RETURN p::jsonpath::text;
EXCEPTION WHEN others THEN
  RETURN 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
END \$\$;
\copy (SELECT p, pg_temp.jp(p) FROM inputs ORDER BY n) to stdout
SQL
