#!/bin/sh
# Regenerates the built-in catalog rows joind lists from PostgreSQL 15's own
# catalogs (pg_type, pg_proc, pg_operator, pg_aggregate, pg_cast, the
# keywords). Run against a stock PostgreSQL 15 cluster:
#   PGHOST=/tmp PGPORT=55999 PGUSER=postgres pgcatalog/pgdata/generate.sh
# pgcatalog embeds the files; it lists a row only for what joind has.
set -eu
cd "$(dirname "$0")"
q() { psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "COPY ($2) TO STDOUT" > "$1.tsv"; }
q pg_type "SELECT oid, typname, typlen, typbyval, typtype, typcategory, typispreferred, typdelim,
  typsubscript::oid::regproc, typelem, typarray, typinput, typoutput, typreceive, typsend, typmodin, typmodout,
  typanalyze, typalign, typstorage, typcollation, obj_description(oid, 'pg_type')
  FROM pg_type WHERE typnamespace = 11 AND typrelid = 0 ORDER BY oid"
q pg_proc "SELECT oid, proname, prolang, procost, prorows, provariadic, prosupport, prokind, prosecdef,
  proleakproof, proisstrict, proretset, provolatile, proparallel, pronargs, pronargdefaults, prorettype,
  proargtypes::text, proallargtypes, proargmodes, proargnames, prosrc,
  pg_get_function_arguments(oid), pg_get_function_identity_arguments(oid), pg_get_function_result(oid),
  obj_description(oid, 'pg_proc')
  FROM pg_proc WHERE pronamespace = 11 ORDER BY oid"
q pg_operator "SELECT oid, oprname, oprkind, oprcanmerge, oprcanhash, oprleft, oprright, oprresult,
  oprcom, oprnegate, oprcode, oprrest, oprjoin FROM pg_operator WHERE oprnamespace = 11 ORDER BY oid"
q pg_aggregate "SELECT aggfnoid::oid, aggkind, aggnumdirectargs, aggtransfn, aggfinalfn, aggcombinefn,
  aggserialfn, aggdeserialfn, aggmtransfn, aggminvtransfn, aggmfinalfn, aggfinalextra, aggmfinalextra,
  aggfinalmodify, aggmfinalmodify, aggsortop, aggtranstype, aggtransspace, aggmtranstype, aggmtransspace,
  agginitval, aggminitval FROM pg_aggregate ORDER BY 1"
q pg_cast "SELECT oid, castsource, casttarget, castfunc, castcontext, castmethod FROM pg_cast ORDER BY oid"
q pg_keywords "SELECT word, catcode, barelabel, catdesc, baredesc FROM pg_get_keywords() ORDER BY word"
q pg_language "SELECT oid, lanname, lanispl, lanpltrusted, lanplcallfoid, laninline, lanvalidator FROM pg_language ORDER BY oid"
q pg_rowtype "SELECT n.nspname, c.relname, c.reltype, t.typname, t.typarray, a.typname FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = c.reltype JOIN pg_type a ON a.oid = t.typarray
  WHERE n.nspname IN ('pg_catalog', 'information_schema') ORDER BY c.reltype"
