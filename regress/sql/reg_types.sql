SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- oid and the reg* types: input by name, output by name, casts, arrays.
SELECT '-1'::oid, '4294967295'::oid, (-1)::int4::oid, 4294967295::oid::int4, 4294967295::oid::int8, ' 12 '::oid;
SELECT 'abc'::oid;
SELECT '4294967296'::oid;
SELECT 4294967296::int8::oid;
SELECT 1::oid + 1;
SELECT pg_typeof(1::oid), pg_typeof('pg_class'::regclass), pg_typeof(pg_typeof(1)), pg_typeof('x'), pg_typeof(pg_typeof(1))::text;
-- regclass
CREATE SCHEMA rt_s;
CREATE TABLE rt_t (a int PRIMARY KEY, b text);
CREATE TABLE rt_s.rt_u (x int);
SELECT 'rt_t'::regclass, 'public.rt_t'::regclass, 'rt_s.rt_u'::regclass, '"rt_t"'::regclass, 'RT_T'::regclass;
SELECT 'rt_u'::regclass;
SELECT 'nosuch.rt_t'::regclass;
SELECT 0::regclass, '-'::regclass, 999999::regclass, 'pg_class'::regclass::oid, 'pg_class'::regclass::int4;
SELECT attname, atttypid::regtype FROM pg_attribute WHERE attrelid = 'rt_t'::regclass AND attnum > 0 ORDER BY attnum;
SELECT relname FROM pg_class WHERE oid = 'rt_s.rt_u'::regclass;
SELECT c.oid::regclass, pg_typeof(c.oid), pg_typeof(c.relnamespace) FROM pg_class c WHERE c.relname IN ('rt_t', 'rt_u') ORDER BY 1;
SELECT indexrelid::regclass, indrelid::regclass FROM pg_index WHERE indrelid = 'rt_t'::regclass;
SELECT 'rt_t'::text::regclass, ('rt_' || 't')::regclass, to_regclass('rt_t'), to_regclass('nosuch'), pg_typeof(to_regclass('rt_t'));
SELECT ('no' || 'such')::regclass;
SELECT 'rt_t'::regclass = 'public.rt_t'::regclass, 'pg_class'::regclass = 1259, 1259 = 'pg_class'::regclass::oid;
SET search_path = rt_s;
SELECT 'rt_u'::regclass, 'public.rt_t'::regclass;
RESET search_path;
-- regtype
SELECT 'int4'::regtype, 'int'::regtype, 'varchar(10)'::regtype, 'character varying[]'::regtype, 'double precision'::regtype, 'timestamptz'::regtype;
SELECT 'nosuch'::regtype;
SELECT 23::regtype, 1043::regtype, 99999::regtype, 0::regtype, 705::regtype, 'int4'::regtype::oid;
SELECT typname FROM pg_type WHERE oid = 'bigint'::regtype;
SELECT t::regtype FROM (VALUES ('text'), ('bool'), ('numeric')) v(t) ORDER BY 1;
-- regproc, regprocedure, regoper, regoperator
SELECT 'now'::regproc, 'pg_catalog.now'::regproc, 'now'::regproc::oid, 1397::regproc, 1299::regproc;
SELECT 'abs'::regproc;
SELECT 'nosuch'::regproc;
SELECT 'abs(int4)'::regprocedure, 'now()'::regprocedure, 'abs(integer)'::regprocedure::oid, 1397::regprocedure;
SELECT 'abs(int4'::regprocedure;
SELECT 'abs'::regprocedure;
SELECT 'nosuch(int4)'::regprocedure;
SELECT 'abs(nosuch)'::regprocedure;
SELECT '||/'::regoper, 551::regoper, '+(int4,int4)'::regoperator, '-(NONE,int4)'::regoperator, 551::regoperator;
SELECT '+'::regoper;
SELECT 'nosuch'::regoper;
SELECT '+(int4)'::regoperator;
-- regnamespace, regrole
SELECT 'public'::regnamespace, 'pg_catalog'::regnamespace, 'rt_s'::regnamespace, 11::regnamespace, 'public'::regnamespace::oid;
SELECT 'nosuch'::regnamespace;
SELECT 'nosuch'::regrole;
SELECT nspname FROM pg_namespace WHERE oid = 'rt_s'::regnamespace;
-- modifiers are not allowed
SELECT 'rt_t'::regclass(1);
-- arrays
SELECT '{1259,rt_t}'::regclass[], '{int4,text}'::regtype[], '{1,2}'::oid[], pg_typeof('{1}'::oid[]), pg_typeof('{}'::regtype[]);
SELECT ARRAY['rt_t'::regclass, 'pg_class'::regclass];
-- ordering and grouping by oid values
SELECT o FROM (VALUES (3::oid), (4294967295::oid), (1::oid)) v(o) ORDER BY o;
SELECT max(o::int8), count(DISTINCT o) FROM (VALUES (3::oid), (3::oid), (1::oid)) v(o);
DROP TABLE rt_t;
DROP TABLE rt_s.rt_u;
DROP SCHEMA rt_s;
