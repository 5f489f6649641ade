--
-- types: every foundation type in CREATE TABLE / INSERT / SELECT, output
-- formatting, casts, and the errors of invalid or out-of-range values.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

-- integers
CREATE TABLE ty_int (s smallint, i integer, b bigint);
INSERT INTO ty_int VALUES (1, 2, 3), (-32768, -2147483648, -9223372036854775808),
  (32767, 2147483647, 9223372036854775807), (NULL, NULL, NULL), (0, 0, 0);
SELECT s, i, b FROM ty_int ORDER BY b NULLS LAST;
SELECT s + 1 AS s1, i * 2 AS i2, b - 1 AS b1 FROM ty_int WHERE s = 1;
INSERT INTO ty_int (s) VALUES (32768);
INSERT INTO ty_int (i) VALUES (2147483648);
INSERT INTO ty_int (b) VALUES (9223372036854775808);
INSERT INTO ty_int (i) VALUES ('12x');
INSERT INTO ty_int (i) VALUES ('  42  ');
INSERT INTO ty_int (s) VALUES (12.5);
SELECT i FROM ty_int WHERE i = 42 OR s = 13 ORDER BY i;
SELECT 32767::smallint + 1::smallint;
SELECT 2147483647 + 1;
SELECT (-2147483648)::integer * -1;
SELECT 9223372036854775807 + 1;
SELECT -9223372036854775808::bigint;
SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3;
SELECT 1 / 0;
SELECT 1 % 0;
SELECT 5::bigint / 0::bigint;
SELECT 3000000000 AS big_literal, 2147483647 + 1::bigint AS promoted, 32767::smallint + 1 AS to_int;

-- floating point
CREATE TABLE ty_float (r real, d double precision);
INSERT INTO ty_float VALUES (0.1, 0.1), (1e10, 1e100), (-0.0, -0.0),
  ('NaN', 'NaN'), ('Infinity', '-Infinity'), (3.14159265358979, 3.14159265358979), (NULL, NULL);
SELECT r, d FROM ty_float ORDER BY d NULLS FIRST;
SELECT 1/3::float8 AS third, 2/3::float4 AS two_thirds, 1e100::float8 AS big, 1e-300::float8 AS tiny;
SELECT 0.1::float8 + 0.2::float8 AS sum, 1.5e300::float8 * 1 AS mul;
SELECT 'NaN'::float8 = 'NaN'::float8 AS nan_eq, 'NaN'::float8 > 'Infinity'::float8 AS nan_gt;
SELECT 'inf'::float8, '-inf'::float8, 'nan'::float4, '-0'::float8;
SELECT 1e308::float8 * 10;
SELECT 1.0::float8 / 0;
SELECT 'abc'::float8;
SELECT 1e39::real;
SELECT 12345678.9::real, 123456789012345678::float8;

-- numeric
CREATE TABLE ty_num (n numeric(10,2), m numeric, p numeric(5,0));
INSERT INTO ty_num VALUES (1.5, 1.50, 1), (123.456, 0.000100, 99999), (-0.005, -1e20, -99999), (NULL, NULL, NULL);
SELECT n, m, p FROM ty_num ORDER BY n NULLS LAST;
INSERT INTO ty_num (n) VALUES (123456789.12);
INSERT INTO ty_num (p) VALUES (100000);
INSERT INTO ty_num (p) VALUES (99999.5);
SELECT 1.10 + 2.205 AS s, 1.5 * 2.25 AS p, 10.0 / 4 AS q, 1 / 3.0 AS third;
SELECT 2.5::numeric(3,0), (-2.5)::numeric(3,0), 0.125::numeric(4,2);
SELECT 'NaN'::numeric AS nan, 'NaN'::numeric > 1e300 AS nan_greatest;
SELECT 1.0::numeric / 0;
SELECT '1.2.3'::numeric;
SELECT 123.456::numeric(5,2);
SELECT 12345.678::numeric(10,3)::text;

-- boolean
CREATE TABLE ty_bool (b boolean);
INSERT INTO ty_bool VALUES (true), (false), (NULL), ('yes'), ('off'), ('t'), ('0');
SELECT b, NOT b AS nb, b::text AS bt FROM ty_bool ORDER BY b NULLS FIRST;
INSERT INTO ty_bool VALUES ('maybe');
SELECT true AND NULL, false AND NULL, true OR NULL, 1::integer::boolean, 0::integer::boolean;

-- character types
CREATE TABLE ty_char (t text, v varchar(5), c char(5));
INSERT INTO ty_char VALUES ('hello world', 'abc', 'ab'), ('', '', ''), (NULL, NULL, NULL),
  ('trail  ', 'xy  ', 'xy  ');
SELECT t, v, c, length(t) AS lt, length(v) AS lv, length(c) AS lc, octet_length(c) AS oc
  FROM ty_char ORDER BY t NULLS LAST;
SELECT '[' || c || ']' AS bracketed, c = 'xy' AS c_eq FROM ty_char WHERE v LIKE 'xy%';
INSERT INTO ty_char (v) VALUES ('abcdef');
INSERT INTO ty_char (c) VALUES ('abcdef');
INSERT INTO ty_char (v) VALUES ('abcde   ');
SELECT v, length(v) FROM ty_char WHERE v LIKE 'abcde%';
SELECT 'abcdef'::varchar(3), 'abcdef'::char(3), 'ab'::char(4) || '|';
SELECT 'it''s' AS quoted, E'tab\there' AS escaped, 'ünïcödé' AS utf8, length('ünïcödé') AS chars;

-- date
CREATE TABLE ty_date (d date);
INSERT INTO ty_date VALUES ('2024-02-29'), ('1999-12-31'), ('0001-01-01'), ('2000-01-01'), (NULL);
SELECT d, d + 1 AS next_day, d - 1 AS prev_day FROM ty_date ORDER BY d;
SELECT '2024-03-01'::date - '2024-02-01'::date AS days, '2024-01-31'::date + 30 AS plus30;
SELECT 'infinity'::date, '-infinity'::date;
SELECT '2023-02-29'::date;
SELECT 'not a date'::date;
SELECT '2024-13-01'::date;

-- timestamp
CREATE TABLE ty_ts (ts timestamp);
INSERT INTO ty_ts VALUES ('2024-02-29 13:45:00'), ('1999-12-31 23:59:59.999999'),
  ('2000-01-01 00:00:00.5'), ('2024-06-01'), (NULL);
SELECT ts FROM ty_ts ORDER BY ts NULLS FIRST;
SELECT ts::date AS d, ts + interval '1 day 2 hours' AS later FROM ty_ts WHERE ts IS NOT NULL ORDER BY ts;
SELECT '2024-01-01 00:00:00'::timestamp - '2023-12-25 12:00:00'::timestamp AS diff;
SELECT '2024-01-01'::date + interval '10:30' AS combined, '2024-01-01'::date::timestamp AS midnight;
SELECT '2024-02-30 10:00'::timestamp;
SELECT '2024-01-01 25:00:00'::timestamp;

-- interval
CREATE TABLE ty_iv (iv interval);
INSERT INTO ty_iv VALUES ('1 day'), ('2 hours 30 minutes'), ('1 year 2 months'), ('-3 days'),
  ('1 day -1 hour'), ('00:00:01.5'), ('0'), (NULL);
SELECT iv FROM ty_iv ORDER BY iv NULLS LAST;
SELECT interval '1 hour' * 3 AS x3, interval '1 day' / 2 AS half, interval '90 minutes' + interval '30 minutes' AS sum;
SELECT interval '1 month' = interval '30 days' AS month_eq, interval '25 hours' > interval '1 day' AS hours_gt;
SELECT '1 fortnight'::interval;

-- casts between types
SELECT '42'::integer + 1 AS int_from_text, 42::text || '!' AS text_from_int, CAST('3.5' AS numeric) * 2 AS num;
SELECT 3.7::integer AS round_up, 2.5::integer AS half_even, (-2.5)::integer AS neg_half, 3.7::float8::bigint AS f_to_b;
SELECT 1.5::float8::numeric, 10::numeric / 4, 7::smallint::float4;
SELECT '2024-05-06'::date::text, '2024-05-06 07:08:09'::timestamp::date, true::text, 't'::boolean::integer;
SELECT CAST(NULL AS integer) AS n, NULL::text IS NULL AS is_null;
SELECT 70000::smallint;
SELECT 'x'::boolean;

DROP TABLE ty_int;
DROP TABLE ty_float;
DROP TABLE ty_num;
DROP TABLE ty_bool;
DROP TABLE ty_char;
DROP TABLE ty_date;
DROP TABLE ty_ts;
DROP TABLE ty_iv;
