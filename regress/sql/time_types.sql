--
-- time_types: time and time with time zone as a column, in COPY, in
-- comparisons, sorting, grouping and joins, arithmetic, casts, extract,
-- AT TIME ZONE, make_time, named arguments and OVERLAPS.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE tm_t (id integer, t time, t2 time(2), tz time with time zone, tz0 timetz(0));
INSERT INTO tm_t VALUES
  (1, '00:00', '00:00:00.125', '00:00+00', '12:00:00.5-08'),
  (2, '24:00:00', '23:59:59.999', '24:00:00-15:59', '23:59:59.5+05:30'),
  (3, '11:59:59.99 PM', '1:02:03.456', '12:34:56.789+05:30', '01:02:03 PST'),
  (4, '2003-07-07 15:36:39 America/New_York', '15:36:39.994', '2003-07-07 15:36:39 America/New_York', 'allballs'),
  (5, '040506.789', 'T040506', '040506.789-08', '12:00 EDT'),
  (6, NULL, NULL, NULL, NULL),
  (7, '12:00 AM', '12:00 PM', '12:00:00 zulu', '07:07 z');
SELECT * FROM tm_t ORDER BY id;
COPY tm_t FROM stdin;
8	13:14:15.5	13:14:15.555	13:14:15.5+01	13:14:15.5-01
\.
COPY (SELECT id, t, tz FROM tm_t WHERE id >= 7 ORDER BY id) TO stdout;
\d tm_t

-- input errors
SELECT '24:00:00.01'::time;
SELECT '23:59:60.01'::time;
SELECT '25:00'::time;
SELECT '13:00 PM'::time;
SELECT '15:36:39 America/New_York'::time;
SELECT '15:36:39 America/New_York'::timetz;
SELECT '12:00 foo'::timetz;
SELECT '12:00+16:01'::timetz;
SELECT time(-1) '12:00';
SELECT '23:59:60'::time, '23:59:59.9999999'::time, '23:59:59.999'::time(2);

-- order, grouping, joins (timetz orders by UTC time, then zone)
SELECT tz, tz < '12:00+00' AS before_noon_utc FROM tm_t WHERE tz IS NOT NULL ORDER BY tz, id;
SELECT t FROM tm_t ORDER BY t DESC NULLS LAST, id;
SELECT '12:00+01'::timetz = '11:00+00'::timetz AS same_instant_other_zone,
       '12:00+01'::timetz > '11:00+00'::timetz AS east_sorts_after;
SELECT min(t), max(t), min(tz), max(tz), count(DISTINCT t2) FROM tm_t;
SELECT a.id, b.id FROM tm_t a JOIN tm_t b ON a.t = b.t2::time(0) ORDER BY 1, 2;
SELECT t2, count(*) FROM (VALUES (time '01:00'), ('01:00:00'), ('02:00')) v(t2) GROUP BY t2 ORDER BY t2;

-- arithmetic
SELECT time '01:30' + interval '02:01', time '01:30' - interval '02:01', time '02:30' + interval '36:01',
       time '03:30' + interval '1 month 04:01', interval '1 hour' + time '23:30', time '24:00' + interval '0';
SELECT time '12:00' - time '13:30:00.5', date '2024-02-29' + time '23:59:59.5', time '01:02' + date '2024-01-01';
SELECT timetz '01:30-08' - interval '02:01', timetz '02:30-08' + interval '36:01', interval '1 hour' + timetz '23:30+02';
SELECT date '1991-02-03' + timetz '04:05:06 PST', timetz '04:05:06+02' + date '1991-02-03';
SELECT time '01:00' + time '02:00';
SELECT timetz '01:00' + timetz '02:00';
SELECT date 'infinity' + time '01:00', date '-infinity' + timetz '01:00+00';

-- casts
SELECT CAST(time '01:02' AS interval), CAST(interval '25:03:04.5' AS time), CAST(interval '-01:00' AS time);
SELECT timestamp '2024-05-06 07:08:09.5'::time, timestamptz '2024-05-06 07:08:09.5+03'::time,
       timestamptz '2024-05-06 07:08:09.5+03'::timetz, timestamp 'infinity'::time IS NULL AS inf_null;
SELECT timetz '13:14:15+05'::time, time '13:14:15'::timetz, '13:14:15.678'::time(1), '13:14:15.678-01'::timetz(1);
SELECT time '01:02:03'::text, timetz '01:02:03-04:30'::varchar, '01:02'::text::time;
SELECT time '01:00' - time '00:30' AS iv, date '2020-01-01' + time '01:00' AS ts,
       date '2020-01-01' + timetz '01:00' AS tstz;
SELECT timetz '12:00' AS session_zone_utc;

-- extract and date_part
SELECT extract(microseconds FROM time '13:30:25.575401'), extract(milliseconds FROM time '13:30:25.575401'),
       extract(second FROM time '13:30:25.575401'), extract(minute FROM time '13:30:25.575401'),
       extract(hour FROM time '13:30:25.575401'), extract(epoch FROM time '13:30:25.575401');
SELECT date_part('second', time '24:00'), date_part('epoch', time '24:00'), date_part('hour', time '24:00');
SELECT extract(timezone FROM timetz '13:30-04:30'), extract(timezone_hour FROM timetz '13:30-04:30'),
       extract(timezone_minute FROM timetz '13:30-04:30'), extract(epoch FROM timetz '13:30:25.5-04');
SELECT extract(day FROM time '13:30');
SELECT extract(fortnight FROM timetz '13:30+00');
SELECT extract(timezone FROM time '13:30');

-- AT TIME ZONE
SELECT timetz '12:00-07' AT TIME ZONE 'UTC', timetz '12:00-07' AT TIME ZONE 'UTC+10',
       timetz '12:00-07' AT TIME ZONE INTERVAL '-10:00', timetz '23:00+00' AT TIME ZONE INTERVAL '05:30';
SELECT timetz '12:00-07' AT TIME ZONE 'Mars/Olympus';
SELECT timetz '12:00-07' AT TIME ZONE INTERVAL '1 day';

-- make_time, named arguments
SELECT make_time(8, 15, 23.5), make_time(24, 0, 0), make_time(hour => 1, min => 2, sec => 3);
SELECT make_time(24, 0, 0.5);
SELECT make_time(-1, 0, 0);
SELECT make_interval(days => 10), make_interval(1, 2, secs => 1.5), make_interval(hours => 1, mins => 30);
SELECT make_interval(days => 1, days => 2);
SELECT make_interval(dayz => 1);
SELECT make_interval(1, years => 2);
SELECT make_date(year => 2024, month => 2, day => 29), make_timestamp(2024, 2, 29, hour => 1, min => 2, sec => 3.5);

-- OVERLAPS
SELECT (time '00:00', time '01:00') OVERLAPS (time '00:30', time '01:30') AS t1,
       (time '00:00', interval '1 hour') OVERLAPS (time '01:30', interval '1 day') AS f1,
       (timetz '00:00+00', timetz '01:00+00') OVERLAPS (timetz '02:30+01', timetz '03:00+01') AS t2,
       (time '02:00', NULL::time) OVERLAPS (time '01:00', time '03:00') AS t3,
       (time '02:00', NULL::time) OVERLAPS (time '03:00', time '04:00') AS n1;
SELECT (timestamp '2000-01-01', timestamp '2000-01-31') OVERLAPS (timestamp '2000-01-15', interval '1 year') AS t1,
       (date '2000-01-01', date '2000-01-31') OVERLAPS (date '2000-01-31', date '2000-02-28') AS f1;

DROP TABLE tm_t;
-- date_part's float epoch of a timetz is time / 1e6 + zone in float8.
SELECT date_part('epoch', '12:34:56.789+05:30'::timetz), extract(epoch FROM '12:34:56.789+05:30'::timetz);
