SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- jsonpath .datetime(): formats, standard-mode errors, types
SELECT jsonb_path_query('"10-03-2017 12:34 +05:20"', '$.datetime("dd-mm-yyyy HH24:MI TZH:TZM")');
SELECT jsonb_path_query('"10-03-2017 12:34"', '$.datetime("dd-mm-yyyy HH24:MI TZH")');
SELECT jsonb_path_query('"10-03-2017t12:34:56"', '$.datetime("dd-mm-yyyy\"T\"HH24:MI:SS")');
SELECT jsonb_path_query('"12:34"', '$.datetime("aaa")', '{}', true);
SELECT jsonb_path_query('"aaaa"', '$.datetime("HH24")', '{}', true);
SELECT jsonb_path_query('"2017 +3"', '$.datetime("YYYY TZH")');
SELECT jsonb_path_query('"2017"', '$.datetime("")');
SELECT jsonb_path_query('"12:00:00.123"', '$.datetime("HH24:MI:SS.FF2")');
SELECT s, jsonb_path_query_first(to_jsonb(s), '$.datetime()') AS v,
       jsonb_path_query_first(to_jsonb(s), '$.datetime().type()') AS t
  FROM (VALUES (1, '2017-03-10'), (2, '12:34:56.5+3'), (3, '2017-03-10T12:34:56.789-03:10'),
               (4, '2017-03-10 12:34:56'), (5, '12:34:56'), (6, '  2017-3-1  ')) v(i, s) ORDER BY i;
SELECT jsonb_path_query('"12:34:56.1234567"', '$.datetime()');
SELECT jsonb_path_query('"12:34:56"', '$.datetime().datetime()');
-- comparisons across types: an error without _tz, the session zone with it
SELECT jsonb_path_query('["2017-03-10", "2017-03-10 00:00:00", "2017-03-10 01:00:00+01", "12:00:00"]',
  '$[*].datetime() ? (@ == "2017-03-10".datetime())');
SELECT jsonb_path_query_tz('["2017-03-10", "2017-03-10 00:00:00", "2017-03-10 01:00:00+01", "12:00:00"]',
  '$[*].datetime() ? (@ == "2017-03-10".datetime())');
SET TimeZone = 'America/New_York';
SELECT jsonb_path_query_tz('["2017-03-10", "2017-03-10 05:00:00+00", "2017-03-10 00:00:00+00"]',
  '$[*].datetime() ? (@ == "2017-03-10".datetime())');
SELECT jsonb_path_exists_tz('["12:00:00"]', '$[*].datetime() ? (@ < "12:00:00-04".datetime())');
SET TimeZone = 'UTC';
SELECT jsonb_path_query('"1000000-01-01"', '$.datetime() > "2020-01-01 12:00:00".datetime()');
-- arrays of time, timetz, uuid, jsonpath
SELECT array['12:00'::time, NULL], '{"12:00+01"}'::timetz[], '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid[];
SELECT '{"$.a", "$.b ? (@ > 1)"}'::jsonpath[], pg_typeof(array['$'::jsonpath]);
CREATE TABLE arrpath_t (a time[], b timetz[], c uuid[], p jsonpath[]);
INSERT INTO arrpath_t VALUES ('{01:02:03,04:05}', '{01:02:03+02}', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}', '{"$.a","$.b"}');
SELECT a, b, c, p, a[2], c[1], p[2] FROM arrpath_t;
SELECT jsonb_path_query('{"a": 1, "b": 2}', p[2]) FROM arrpath_t;
SELECT u FROM arrpath_t, unnest(a) u ORDER BY u;
DROP TABLE arrpath_t;
-- ARRAY(subquery) of arrays stacks a dimension
SELECT array(SELECT array[i, i / 2] FROM generate_series(1, 5) i);
SELECT array(SELECT array[i] FROM generate_series(1, 0) i);
SELECT array(SELECT CASE WHEN i = 2 THEN array[1, 2] ELSE array[i] END FROM generate_series(1, 3) i);
SELECT array(SELECT NULL::int[] FROM generate_series(1, 3) i);
SELECT trim_array('[10:16]={1,2,3,4,5,6,7}'::int[], 2), trim_array('[-2:-1][1:2]={{1,2},{3,4}}'::int[], 1);
SELECT ('{}'::int[])[1][2][3][4][5][6][7];
SELECT (now())[1];
-- unnest of a computed array, per row
SELECT k, unnest(ARRAY[k, k + 1, NULL]) FROM generate_series(1, 3) k ORDER BY 1, 2;
SELECT count(*), sum(x) FROM (SELECT unnest(ARRAY[k, k * 2]) AS x FROM generate_series(1, 1000) k) q;
-- array resolution: anycompatible's common type, anyarray's exact types
SELECT pg_typeof(bpchar 'A' || '{a}'::text[]), pg_typeof(array_cat('{a}'::varchar[], '{b}'::text[])),
       pg_typeof(array_append(array[1::int2], 5)), pg_typeof(array_cat(array[1], array[1.5]));
SELECT '{a}'::bpchar[] <> '{a}'::text[];
SELECT '{1}'::int4[] @> '{1}'::int8[];
SELECT '{a}'::text[] = '{a}', array[1, 2] <@ '{1,2,3}';
