--
-- datetime_input: PostgreSQL's date/time input grammar (ISO 8601, run-together
-- fields, Julian days, day of year, BC, special values, zone abbreviations
-- fixed and dynamic, POSIX zones, numeric offsets), DateStyle for input and
-- output, IntervalStyle output and interval input in its styles.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE dti_in (id integer, s text);
INSERT INTO dti_in VALUES
  (1, '1997-02-10 17:32:01-08'), (2, '1997-02-10T17:32:01-08'), (3, '19970210 173201 -0800'),
  (4, '19970210 173201 PST'), (5, '1997.041 17:32:01 UTC'), (6, 'J2450490 17:32:01 UTC'),
  (7, 'Feb 10 17:32:01 1997 PST'), (8, '10 Feb 1997 17:32:01 PST'), (9, '2000-03-15 13:14:02 GMT-1'),
  (10, '2000-03-15 03:14:04 PST+8'), (11, '2000-03-15 02:14:05 MST+7:00'), (12, '20011227 040506-08'),
  (13, '20011227T040506+08'), (14, '1997-02-10 17:32:01 America/New_York'), (15, '1997-02-10 17:32:01 EST5EDT'),
  (16, '1997-07-10 17:32:01 Europe/Moscow'), (17, '2011-03-27 02:30:00 MSK'), (18, '2014-10-26 00:30:00 MSK'),
  (19, '0044-03-15 12:00 BC'), (20, '100000312 23:58:48 IST'), (21, 'epoch'), (22, 'infinity'), (23, '-infinity'),
  (24, '1997-02-10 17:32:01.123456789+05:30'), (25, 'Mon Feb 10 17:32:01 1997 Z'), (26, '1997-02-10 17:32:01 zulu');
SELECT id, s, s::timestamptz AS tstz, s::timestamp AS ts FROM dti_in ORDER BY id;
SELECT id, s::date AS d FROM dti_in WHERE id NOT IN (21) ORDER BY id;

-- errors
SELECT '19970710 173201 America/Does_not_exist'::timestamptz;
SELECT '1997-02-30'::date;
SELECT '0000-01-01'::date;
SELECT '1997-02-10 25:00'::timestamp;
SELECT '1997-02-10 12:00 +16:30'::timestamptz;
SELECT 'tomorrow tomorrow'::date;
SELECT '13/13/2000'::date;

-- special values with a time and a zone are consistent with one another
SELECT timestamptz 'tomorrow EST' = timestamptz 'tomorrow EST' AS same,
       timestamp 'tomorrow zulu' = timestamp 'tomorrow' AS zone_ignored,
       timestamp 'yesterday' + interval '2 days' = timestamp 'tomorrow' AS two_days,
       date 'today' = current_date AS today;

-- DateStyle: field order for input, style for output
SET DateStyle = 'ISO, DMY';
SELECT '01/02/2003'::date, '01-02-03'::date, '1.2.2003'::date;
SET DateStyle = 'ISO, YMD';
SELECT '03/02/01'::date, '2003-02-01'::date;
SET DateStyle = 'SQL, MDY';
SELECT '01/02/2003'::date, timestamp '2003-01-02 03:04:05.6', timestamptz '2003-01-02 03:04:05.6+00', date '0044-03-15 BC';
SET DateStyle = 'SQL, DMY';
SELECT '01/02/2003'::date, timestamp '2003-01-02 03:04:05.6';
SET DateStyle = 'Postgres, MDY';
SELECT date '2003-01-02', timestamp '2003-01-02 03:04:05.6', timestamptz '2003-07-02 03:04:05.6+00';
SET TimeZone = 'America/New_York';
SELECT timestamptz '2003-07-02 03:04:05.6+00', timestamptz '2003-01-02 03:04:05.6+00';
SET DateStyle = 'German';
SELECT date '2003-01-02', timestamp '2003-01-02 03:04:05.6', timestamptz '2003-01-02 03:04:05.6+00', '02.01.2003'::date;
SET DateStyle = 'ISO, MDY';
-- a POSIX zone with DST rules, and one with the default (US) rules
SET TimeZone = 'CST7CDT,M4.1.0,M10.5.0';
SELECT timestamptz '2005-04-02 12:00-07' + interval '1 day' AS across_dst, timestamptz '2005-07-01 12:00' AS summer,
       timestamptz '2005-12-01 12:00' AS winter;
SET TimeZone = 'UTC';
SELECT make_timestamptz(2014, 12, 10, 10, 10, 10, 'FOO8BAR') AS winter, make_timestamptz(2014, 7, 10, 10, 10, 10, 'FOO8BAR') AS summer,
       timestamp '2014-07-10 10:00' AT TIME ZONE 'EST5EDT,M3.2.0,M11.1.0' AS at_zone;
SELECT make_timestamptz(2014, 12, 10, 10, 10, 10, 'FOO8BARX,M99');

-- IntervalStyle output
CREATE TABLE dti_iv (id integer, iv interval);
INSERT INTO dti_iv VALUES (1, '1 year 2 mons 3 days 04:05:06.789'), (2, '-1 year -2 mons +3 days -04:05:06'),
  (3, '0'), (4, '-00:00:01.5'), (5, '1 day -01:00:00'), (6, '15 mons'), (7, '36:00:00');
SELECT id, iv FROM dti_iv ORDER BY id;
SET IntervalStyle = 'postgres_verbose';
SELECT id, iv FROM dti_iv ORDER BY id;
SET IntervalStyle = 'sql_standard';
SELECT id, iv FROM dti_iv ORDER BY id;
SET IntervalStyle = 'iso_8601';
SELECT id, iv FROM dti_iv ORDER BY id;
SET IntervalStyle = 'postgres';

-- interval input in every style
SELECT interval 'P1Y2M3DT4H5M6S', interval 'P0001-02-03T04:05:06', interval 'PT1.5S', interval 'P2W',
       interval 'P1Y-2M', interval '@ 1 year 2 mons ago', interval '1-2', interval '3 4:05:06',
       interval '1 day 02:03:04.5', interval '-1 2:03', interval '2 weeks 1.5 days';
SELECT interval 'P1.5Y', interval 'PT36H', interval 'P1DT', interval '1 millennium 2 centuries 3 decades';
SELECT interval 'P00021015T103020', interval 'P0002', interval 'P0002-10', interval 'P0002-10T1S', interval 'PT10',
       interval 'PT10:30', interval 'PT103020.5', interval 'P10.5e4Y', interval 'P1.Y0M3DT4H5M6S';
SELECT interval 'P0002-10-15-01';
SELECT interval 'P1Y2M3DT4H5M6Sx';
SELECT interval '1 fortnight';

-- time and timetz input forms
SELECT time 'allballs', time '040506', time 'T040506.789', time '11:59:59.99 PM', time '2003-03-07 15:36:39 America/New_York',
       timetz '040506.789+08', timetz 'T040506.789 -08', timetz '2003-07-07 15:36:39 America/New_York', timetz '12:00 MSK';

DROP TABLE dti_in;
DROP TABLE dti_iv;

-- A word run into digits after a date that is no datetktbl keyword is a
-- POSIX zone spec, whatever its length ("B0": zone B, UTC+0); datetktbl
-- words ("s", "t", "j", "y") are not; "a"/"p" are no AM/PM.
SELECT timestamptz '20000101B0', timestamptz '20000101 B5', timestamptz '20000101AB0', timestamptz '2000-01-01B0',
       timestamptz 'Jan 1 2000 B0', timestamptz '20000101z5', timestamptz '20000101zulu5', timestamptz '20000101z0 10:00',
       timestamptz '20000101B167', timestamptz '20000101B1:59:60', timestamptz '20000101 <Q>3', timestamptz '20000701B5C';
SELECT timestamptz '00000000B0';
SELECT timestamptz '20001301B0';
SELECT timestamptz '20000101B0+3';
SELECT timestamptz '20000101B168';
SELECT timestamptz '20000101B1:60';
SELECT timestamptz '20000101Bx';
SELECT timestamptz '20000101J0';
SELECT timestamptz '20000101t0';
SELECT timestamptz '20000101isodow0';
SELECT timestamptz '20000101p0', timestamptz '20000101A0';
SELECT timestamptz '2000-01-01 10:00 p';
SELECT time '10:00 a';
SET TimeZone = 'B5';
SELECT timestamptz '2000-01-01 00:00';
SET TimeZone = 'B-5:30';
SELECT timestamptz '2000-01-01 00:00';
SET TimeZone = 'B1:2:3';
SET TimeZone = 'UTC';
SELECT timestamptz '2000-01-01 00:00' AT TIME ZONE 'B5', timestamptz '2000-01-01 00:00' AT TIME ZONE 'B1:2:3',
       timestamptz '2000-07-01 00:00' AT TIME ZONE 'AB5CD';

-- ISO 8601 labelled fields (y, m, d, h, mm, s before each number): no range
-- check on them, "m" after a month and an hour is minutes, only seconds take
-- a fraction.
SELECT timestamptz 'y2001m02d04h05mm06s07', timestamp '2001-02-04 h05mm06s07.25', timestamp '20010204 h5 m6',
       timestamp 'd4 m2 y2001', timestamp 'y2001m02d04h25', timestamp 'y2001m02d04s61', timestamp 'y2001m02d04h',
       timestamptz 'y2001m02d04h05mm06s07.25+03', timestamp '20000101s0', date 'y2001m02d04';
SELECT timestamp 'y2001m02d04 10:00 h5';
SELECT timestamp 'y2001m02d04y5';
SELECT timestamp 'y2001.5m02d04';
SELECT timestamp 'y-2001m02d04';
SELECT timestamp 'y2001m13d04';

-- Julian days with a fractional day (the time, truncated to microseconds)
-- or a zone run in.
SELECT timestamptz 'J2452271-08', timestamp 'J2452271-08', timestamptz 'J2452271.5+08', timestamp 'J2452271.5-08',
       timestamp 'J2452271.123456789', date 'J2452271.5';
SELECT timestamptz 'J2452271-08 04:05';
SELECT timestamp 'J2452271.5 04:05';
