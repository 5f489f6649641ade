-- Typed literals with qualifiers and precision: interval fields and
-- typmods, interval range errors, time/timestamp precision, length
-- coercions, and DateStyle's field order on input.
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

-- A bare number takes the unit of the qualifier's last field.
SELECT interval '3' month AS a, interval '1' year AS b, interval '999' hour AS c,
       interval '90' day AS d, interval '7' minute AS e, interval '8' second AS f;
SELECT interval '1' year to month AS a, interval '2' day to hour AS b,
       interval '3' day to minute AS c, interval '4' day to second AS d,
       interval '5' hour to minute AS e, interval '6' hour to second AS f,
       interval '7' minute to second AS g;
SELECT interval '1 2' day to hour AS a, interval '1 2:03' day to minute AS b,
       interval '1:2' minute to second AS c, interval '1:2' hour to minute AS d,
       interval '1:2.5' hour to second AS e, interval '2-3' year to month AS f;
-- Lower fields are truncated, higher ones kept.
SELECT interval '1 year 2 months 3 days 04:05:06.789' year AS a,
       interval '1 year 2 months 3 days 04:05:06.789' month AS b,
       interval '1 year 2 months 3 days 04:05:06.789' day AS c,
       interval '1 year 2 months 3 days 04:05:06.789' hour AS d,
       interval '1 year 2 months 3 days 04:05:06.789' minute AS e,
       interval '1 year 2 months 3 days 04:05:06.789' second AS f;
SELECT interval '1 day 2:03:04.5678' day to hour AS a, interval '1 day 2:03:04.5678' day to minute AS b,
       interval '1 day 2:03:04.5678' hour to minute AS c, interval '1 day 2:03:04.5678' minute to second AS d,
       interval '-1 day -2:03:04.5678' hour AS e, interval '1.5' month AS f, interval '1.5' year AS g,
       interval '1.5' day AS h, interval '-25' month AS i, interval '-25' year AS j;
-- Fractional-second precision.
SELECT interval(0) '1 day 01:23:45.6789' AS a, interval(2) '1.23456' AS b,
       interval '1.23456' second(2) AS c, interval '1 day 01:23:45.6789' day to second(3) AS d,
       interval '01:23:45.6789' hour to second(1) AS e, interval '1:45.6789' minute to second(0) AS f,
       interval(3) '-1.2345' AS g, interval(0) '-0.5' AS h, interval(0) '0.5' AS i;
-- As casts of literals, of text values, and between intervals.
SELECT '3'::interval month AS a, CAST('3' AS interval year) AS b,
       '1 day 01:23:45.6789'::interval day to second(3) AS c, '1.23456'::interval(1) AS d,
       CAST('1 year 2 months 3 days' AS interval month) AS e;
SELECT '3'::text::interval month AS a, CAST('1 day 5 hours'::text AS interval day) AS b,
       (interval '1 year 2 months 3 days 04:05:06.789')::interval hour AS c,
       (interval '1 day 01:23:45.6789')::interval(2) AS d,
       (interval '1 day 01:23:45.6789')::interval day to minute AS e;
SELECT interval(-1) '1';
SELECT interval '1' second(-1);
SELECT interval '1 day' hour;

-- TPC-H date arithmetic.
SELECT date '1998-12-01' - interval '90' day AS q1, date '1994-01-01' + interval '1' year AS q5,
       date '1995-09-01' + interval '1' month AS q14, date '1993-10-01' + interval '3' month AS q10,
       timestamp '1998-12-01 10:00' - interval '90' day AS q1ts;

-- Columns with interval typmods: INSERT and COPY values are coerced.
CREATE TABLE li_iv (id int, a interval day to second(3), b interval year to month, c interval hour, d interval(0));
INSERT INTO li_iv VALUES (1, '1 day 01:23:45.6789', '1 year 2 months 3 days', '2 days 03:04:05', '00:00:01.5'),
  (2, interval '1 day 01:23:45.6789', interval '5 weeks', interval '90 minutes', interval '2.5 seconds'),
  (3, '7', '7', '7', '7');
COPY li_iv FROM stdin;
4	1 day 01:23:45.6789	1 year 2 months 3 days	1 day 02:59:59	12:00:00.49
5	9	9	9	9
\.
SELECT * FROM li_iv ORDER BY id;
-- An interval value assigned to a narrower column is rounded to it.
INSERT INTO li_iv SELECT 10 + id, a, a, a, a FROM li_iv WHERE id IN (1, 4);
SELECT id, a, b, c, d FROM li_iv WHERE id > 10 ORDER BY id;
SELECT id, a + a AS aa FROM li_iv WHERE id = 1;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute
  WHERE attrelid = 'li_iv'::regclass AND attnum > 0 ORDER BY attnum;
DROP TABLE li_iv;

-- Interval range: decoding overflows are 22015, results out of range 22008.
SELECT interval '2147483647 years';
SELECT interval '2147483648 years';
SELECT interval '178956970 years 7 months';
SELECT interval '178956970 years 8 months';
SELECT interval '-178956970 years -8 months' AS a, interval '-2147483648 months' AS b,
       interval '2147483647 days' AS c, interval '-2147483648 days' AS d;
SELECT interval '2147483648 days';
SELECT interval '2147483648 months';
SELECT interval '-2147483649 days';
SELECT interval '306783379 weeks';
SELECT interval '9223372036854775808 microseconds';
SELECT interval '2562047789 hours';
SELECT interval '2147483647 days ago' AS a, interval '2147483647 months ago' AS b;
SELECT interval '-2147483648 days ago';
SELECT interval '2147483647 days' + interval '1 day';
SELECT interval '-2147483648 days' - interval '1 day';
SELECT interval '2147483647 months' + interval '1 month';
SELECT interval '2147483647 days' * 2;
SELECT interval '1000000000 months' * 3;
SELECT -interval '-2147483648 days';
SELECT interval '1 month' * 2147483647.5 AS a, interval '1 day' * 2147483647.9 AS b,
       interval '-1 month' * 2147483648 AS c, interval '5 mons 3 days 01:02:03.4' / 7 AS d;
SELECT interval '1 mon 1 day' * 2147483647.9;
SELECT interval '-1 month' * 2147483648.5;
SELECT interval '2147483647 months' / 0.5;
SELECT interval '1 day' / 'nan'::float8;
SELECT interval '1 day' / 0;
SELECT sum(x) FROM (VALUES (interval '2147483647 days'), (interval '1 day')) v(x);
SELECT avg(x) FROM (VALUES (interval '2147483647 days'), (interval '2147483647 days')) v(x);
-- PostgreSQL 15 does not check timestamp - timestamp: the difference wraps.
SELECT timestamp '294000-01-01' - timestamp '4000-01-01 BC' AS wrapped;
SELECT make_interval() AS a, make_interval(1, 2) AS b, make_interval(1, 2, 3, 4, 5, 6, 7.5) AS c,
       make_interval(0, 0, 0, 0, 0, 0, -2.5e-6) AS d, make_interval(0, 0, 0, 2147483647, 1) AS e;
-- PostgreSQL 15 checks only the seconds; years * 12 wraps.
SELECT make_interval(2147483647) AS wrapped;
SELECT make_interval(0, 0, 0, 0, 0, 0, 'infinity');
SELECT justify_days(interval '2147483647 days 2147483647 months');
SELECT justify_interval(interval '2147483647 months 30 days');
SELECT justify_days(interval '2147483647 days') AS a, justify_interval(interval '-2147483647 months -29 days -23:59:59') AS b,
       justify_interval(interval '1 mon -1 day 25:00:00') AS c, justify_hours(interval '2147483646 days 47:00:00') AS d;
SELECT justify_hours(interval '2147483647 days 48:00:00');
SELECT justify_days(interval '-2147483648 months -30 days');

-- Interval input syntax details.
SELECT interval '1 day 2 hours ago' AS a, interval '1:00:60' AS b, interval '1 2:03:04' AS c,
       interval '1 year 1-2' AS d, interval '@ 1 hour' AS e, interval '1.5 weeks' AS f,
       interval '0.5 microseconds' AS g, interval '1.5 microseconds' AS h, interval '2.5 microseconds' AS i;
-- Under IntervalStyle sql_standard a lone leading minus negates every field.
SET IntervalStyle = 'sql_standard';
SELECT interval '-1 2:03:04' AS a, interval '-1 2' day to hour AS b, interval '-1 -2:03:04' AS c,
       interval '-1 +2:03:04' AS d, interval '-1-2 3 4:05:06' AS e, interval '-1 day 2 hours' AS f;
SELECT '-1 2:03:04'::text::interval AS a, interval '-3' month AS b;
SET IntervalStyle = 'postgres';
SELECT interval '-1 2:03:04' AS a, interval '-1 day 2 hours' AS b;
SELECT interval '1 2';
SELECT interval '1 ago';
SELECT interval '1:60';
SELECT interval '1 hour 1:00';

-- Precision on timestamps (joind has no time/timetz/bit types: they are
-- refused with 0A000, tested in types/names_test.go).
SELECT timestamp(0) '2020-01-01 12:34:56.7' AS a, timestamptz(2) '2020-01-01 12:34:56.789' AS b,
       '2020-01-01 12:34:56.789'::timestamp(1) AS c, timestamp(3) '2020-01-01 12:34:56.78951' AS d,
       CAST(timestamp '2020-01-01 23:59:59.9' AS timestamp(0)) AS e;
SELECT timestamp(-1) '2020-01-01';

-- Length and precision coercions: explicit casts truncate, assignment errors.
SELECT numeric(5,2) '1.005' AS a, varchar(3) 'abcd' AS b, char(2) 'a' AS c,
       'abcd'::varchar(3) AS d, CAST('abcd' AS char(2)) AS e, '1.005'::numeric(5,2) AS f;
SELECT numeric(3,2) '12.5';
CREATE TABLE li_len (v varchar(3), c char(2));
INSERT INTO li_len VALUES ('abc', 'a');
INSERT INTO li_len VALUES ('abcd', 'a');
INSERT INTO li_len VALUES ('abc', 'abc');
INSERT INTO li_len VALUES ('abc   ', 'ab   ');
SELECT v, c, length(v) AS lv, octet_length(c) AS lc FROM li_len ORDER BY v, c;
DROP TABLE li_len;

-- Modifiers are applied or refused, never dropped.
SELECT '1'::int4(3);
SELECT 'x'::pg_catalog.text(3);
SELECT '2020-01-01'::date(1);
SELECT 'x'::name(3);
SELECT 'pg_class'::regclass(2);
SELECT '1'::float(0);
SELECT '1'::float(54);
SELECT '1'::float(24) AS r, '1'::float(25) AS d;
SELECT 'a'::varchar(0);
SELECT '1'::numeric(1001);
SELECT '1'::numeric(1,2,3);
SELECT '1'::interval(-1);

-- DateStyle decides the field order of ambiguous dates on input.
SET DateStyle = 'ISO, DMY';
SELECT '01/02/03'::date AS a, date '01/02/03' AS b, '01/02/03'::timestamp AS c,
       '1/2/2003'::date AS d, '2003-01-02'::date AS e, '01/02/03 04:05'::timestamptz AS f,
       '1 Feb 2003'::date AS g, 'Feb 1 2003'::date AS h, '01/Feb/03'::date AS i;
SELECT '13/02/03'::date;
SELECT '02/13/03'::date;
SET DateStyle = 'ISO, YMD';
SELECT '01/02/03'::date AS a, date '03/02/01' AS b, '2003-01-02'::date AS c,
       '99/12/31'::timestamp AS d, '1 Feb 2003'::date AS e;
SELECT 'Jan 12 01'::date AS a, '2 Jan 03'::date AS b, '13-December-1'::date AS c, '03/Sept/03 BC'::date AS d,
       '00-feb-03'::date AS e, '20030102'::date AS f;
SELECT 'Sept 1 31 BC'::date;
SELECT '1/2/2003'::date;
SELECT '13/03/feb'::date;
SET DateStyle = 'ISO, MDY';
SELECT 'Jan 12 01'::date AS a, '2 Jan 03'::date AS b, 'Sept 1 31 BC'::date AS c, '1-31-70 BC'::date AS d,
       'feb.1.00'::date AS e, '1.feb.70'::date AS f, '030102'::date AS g;
SELECT '00-feb-03'::date;
SELECT '13/01/03'::date;
SET DateStyle = 'Postgres, DMY';
SELECT '01/02/03'::date AS a, '01/02/2003 10:00'::timestamp AS b, '2003-01-02'::date AS c;
SET DateStyle = 'SQL, MDY';
SELECT '01/02/03'::date AS a, '1/2/2003'::date AS b;
SET DateStyle = 'ISO, DMY';
CREATE TABLE li_dates (id int, d date, ts timestamp, tz timestamptz);
INSERT INTO li_dates VALUES (1, '01/02/03', '01/02/03 04:05:06', '01/02/03 04:05:06+00');
COPY li_dates FROM stdin;
2	03/04/05	03/04/05 06:07:08	03/04/05 06:07:08+00
\.
INSERT INTO li_dates SELECT 3, x::date, x::timestamp, x::timestamptz FROM (VALUES ('05/06/07'::text)) v(x);
-- Views and defaults keep the value their literals had when created, as
-- PostgreSQL stores them converted.
SET TimeZone = 'America/New_York';
CREATE VIEW li_view AS SELECT '01/02/03'::date AS d, '01/02/03 04:05'::timestamptz AS tz,
  '01/02/03 04:05'::timestamp(0) AS ts, interval '3' month AS m, interval '1 2' day to hour AS dh,
  '1.5'::interval(0) AS p, 'epoch'::timestamp AS e
  FROM (VALUES (1)) v(x) WHERE '01/02/03'::date < '05/02/03';
CREATE TABLE li_defaults (id int, d date DEFAULT '01/02/03', tz timestamptz DEFAULT '01/02/03 04:05',
  iv interval DEFAULT '-1 day 2 hours', m interval month DEFAULT '3', p interval(2) DEFAULT '1.2345',
  q interval DEFAULT '1.2345'::interval(1));
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'sql_standard';
INSERT INTO li_defaults (id) VALUES (1);
SELECT * FROM li_view;
SET IntervalStyle = 'postgres';
INSERT INTO li_defaults (id) VALUES (2);
SELECT * FROM li_view;
SELECT * FROM li_defaults ORDER BY id;
SELECT * FROM li_dates ORDER BY id;
\d li_defaults
DROP VIEW li_view;
DROP TABLE li_defaults;
DROP TABLE li_dates;

-- A zone offset needs no time before it (DecodeDateTime's DTK_TZ).
SELECT '1970-01-01+00'::timestamptz, '1970-01-01 +05:30'::timestamptz, '2020-06-15+02:00'::timestamptz;
SELECT '+05 2020-01-01'::timestamptz, 'Jan 5 2020 +3'::timestamptz, '2020-01-01 +3 12:00'::timestamptz, '20200101+02'::timestamptz;
SELECT '1970-01-01+00'::timestamp, '2020-01-01 -15:59:59'::timestamp, '1970-01-01+00'::date;
SELECT '2020-01-01 12:00 +01 +02'::timestamptz;
SELECT '2020-01-01 +16'::timestamptz;
