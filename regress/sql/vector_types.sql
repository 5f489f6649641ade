SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- int2vector and oidvector: text I/O, subscripts from 0, = ANY, casts to arrays.
SELECT ''::int2vector, ' 1  2 '::int2vector, '1 -1'::oidvector, ''::oidvector::oid[], '1 2'::int2vector::text::int2vector;
SELECT '1 x'::int2vector;
SELECT '70000'::int2vector;
SELECT pg_typeof(('1 2'::int2vector)[0]), ('1 2'::int2vector)[0], ('1 2'::int2vector)[1], ('1 2'::int2vector)[2],
       array_upper('1 2'::int2vector, 1), array_lower('1 2'::int2vector, 1), array_length('1 2'::int2vector, 1);
SELECT '1 2'::int2vector::int2[], '1 2'::int2vector::int4[], '23 25'::oidvector::oid[], 2 = ANY('1 2'::int2vector), 3 = ANY('1 2'::int2vector);
SELECT '{1,2}'::int2[]::int2vector;
SELECT '1 2'::int2vector = '1 2'::int2vector, '1 2'::int2vector::text;
CREATE TABLE vt_t (a int, b text, c int, PRIMARY KEY (a, c));
CREATE UNIQUE INDEX vt_t_cb ON vt_t (c, b);
SELECT c.relname, i.indkey, pg_typeof(i.indkey), i.indkey[0], i.indkey[1], i.indnatts, pg_typeof(i.indclass), i.indoption
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'vt_t'::regclass ORDER BY c.relname;
SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
  WHERE i.indrelid = 'vt_t'::regclass ORDER BY c.relname, a.attnum;
SELECT c.relname, a.attname, k.n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  CROSS JOIN generate_series(0, 1) k(n) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[k.n]
  WHERE i.indrelid = 'vt_t'::regclass ORDER BY c.relname, k.n;
SELECT c.relname, array_to_string(i.indkey::int2[], ',') FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'vt_t'::regclass ORDER BY 1;
SELECT proname, proargtypes, pg_typeof(proargtypes), proargtypes[0]::regtype FROM pg_proc WHERE oid = 'abs(int4)'::regprocedure;
SELECT typname, typelem, typcategory FROM pg_type WHERE oid IN (22, 30) ORDER BY oid;
SELECT proname FROM pg_proc WHERE proname = 'abs' AND proargtypes = '23';
SELECT '1 2'::oidvector < '1 3'::oidvector, '1 2'::int2vector = '1 2', '1 2'::oidvector = '1 2'::oidvector;
SELECT '1 2'::int2vector < '1 3'::int2vector;
DROP TABLE vt_t;
