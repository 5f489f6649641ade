#!/usr/bin/env bash
# Rewrites settings/pg15.tsv, PostgreSQL 15's run-time parameters as
# pg_settings lists them, from a freshly initdb'd PostgreSQL 15 cluster
# (--locale=C.UTF-8 --encoding=UTF8, TimeZone UTC):
#   settings/gen-pg15.sh "host=/tmp port=55999 user=postgres"
# Machine-specific values (paths, port, sockets, shared memory sizes) are
# written as their boot values so the file does not depend on the machine.
set -euo pipefail
cd "$(dirname "$0")"
psql -X -q -v ON_ERROR_STOP=1 "$1" -c "COPY (
  SELECT name, vartype, context, coalesce(unit, ''), category, short_desc, extra_desc,
         min_val, max_val, enumvals, boot_val,
         CASE WHEN name IN ('config_file', 'data_directory', 'hba_file', 'ident_file', 'port',
                            'unix_socket_directories', 'shared_memory_size',
                            'shared_memory_size_in_huge_pages', 'max_stack_depth', 'log_timezone')
              THEN coalesce(boot_val, '') ELSE setting END,
         CASE WHEN name IN ('config_file', 'data_directory', 'hba_file', 'ident_file', 'port',
                            'unix_socket_directories', 'shared_memory_size',
                            'shared_memory_size_in_huge_pages', 'max_stack_depth', 'log_timezone')
              THEN coalesce(boot_val, '') ELSE reset_val END
  FROM pg_settings ORDER BY lower(name)) TO STDOUT" > pg15.tsv
