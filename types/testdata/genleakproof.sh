#!/bin/sh
# Regenerates leakproof_pg15.tsv from a PostgreSQL 15, with psql's
# environment (PGHOST, PGPORT, PGUSER) and psql on PATH:
#   types/testdata/genleakproof.sh > types/testdata/leakproof_pg15.tsv
# Every operator, function and cast over the types joind has, with
# pg_proc.proleakproof (an operator: its oprcode's; a cast: its cast
# function's, binary-coercible casts 't'). TestLeakproofAsPgProc reads it.
set -e
types="'bool','int2','int4','int8','float4','float8','numeric','text','varchar','bpchar','date','timestamp','interval','timestamptz','bytea','uuid','time','timetz','inet','cidr','macaddr','macaddr8','any','anynonarray'"
psql -X -AtF '	' -v ON_ERROR_STOP=1 <<SQL
WITH ty AS (SELECT oid, typname FROM pg_type WHERE typname IN ($types)),
ops AS (
  SELECT 'op' AS kind, o.oprname::text AS name,
         concat_ws(',', l.typname, r.typname) AS args, p.proleakproof AS lp
  FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
  LEFT JOIN ty l ON l.oid = o.oprleft JOIN ty r ON r.oid = o.oprright
  WHERE o.oprleft = 0 OR l.oid IS NOT NULL),
fns AS (
  SELECT 'fn', p.proname::text,
         (SELECT string_agg(ty.typname, ',' ORDER BY a.n) FROM unnest(p.proargtypes) WITH ORDINALITY a(t, n) JOIN ty ON ty.oid = a.t),
         p.proleakproof
  FROM pg_proc p
  WHERE p.prokind = 'f' AND p.pronargs > 0
    AND (SELECT count(*) FROM unnest(p.proargtypes) a(t) JOIN ty ON ty.oid = a.t) = p.pronargs
  UNION ALL
  SELECT 'fn', p.proname::text, '', p.proleakproof FROM pg_proc p WHERE p.prokind = 'f' AND p.pronargs = 0),
casts AS (
  SELECT 'cast', s.typname::text, t.typname, coalesce(p.proleakproof, c.castmethod = 'b')
  FROM pg_cast c JOIN ty s ON s.oid = c.castsource JOIN ty t ON t.oid = c.casttarget
  LEFT JOIN pg_proc p ON p.oid = c.castfunc)
SELECT kind, name, args, CASE WHEN lp THEN 't' ELSE 'f' END FROM (
  SELECT * FROM ops UNION SELECT * FROM fns UNION SELECT * FROM casts) x
ORDER BY kind COLLATE "C", name COLLATE "C", args COLLATE "C";
SQL
