-- timestamp with time zone: input, output under several TimeZones and
-- DateStyles, casts, comparisons, arithmetic, functions, storage, joins.
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';
SELECT timestamptz '2024-01-02 03:04:05+02' AS a, '2024-01-02 03:04:05Z'::timestamptz AS b,
       '2024-07-02 03:04:05.5 America/New_York'::timestamptz AS c, 'epoch'::timestamptz AS d,
       'infinity'::timestamptz AS e;
SELECT timestamptz '2024-01-01', to_timestamp(0), '2030-01-01Z'::timestamptz, 'Jan 5 2024 PST'::timestamptz;
SELECT '2024-01-02 03:04:05+25'::timestamptz;
SELECT '2024-01-02 03:04:05 Mars/Olympus'::timestamptz;
SELECT '2024-01-02 03:04:05 junk'::timestamptz;
SELECT '2024-01-02 03:04:05.555+02'::timestamptz(1), '2024-01-02 03:04:05.555+02'::timestamp with time zone;

CREATE TABLE tz_events (id int, at timestamptz, local_at timestamp);
INSERT INTO tz_events VALUES
  (1, '2024-01-02 03:04:05+02', '2024-01-02 03:04:05'),
  (2, '2024-03-10 06:59:59+00', '2024-03-10 01:59:59'),
  (3, '2024-03-10 07:00:00+00', '2024-03-10 03:00:00'),
  (4, '2024-11-03 05:30:00+00', '2024-11-03 01:30:00'),
  (5, '2024-11-03 06:30:00+00', '2024-11-03 01:30:00'),
  (6, NULL, NULL),
  (7, '-infinity', '-infinity'),
  (8, '1999-12-31 23:59:59.999999-08', '1999-12-31 23:59:59.999999');
SELECT id, at FROM tz_events ORDER BY at, id;

SET TimeZone = 'America/New_York';
SHOW TimeZone;
SELECT id, at, at::timestamp AS wall, at::date AS day, at::text AS txt FROM tz_events ORDER BY id;
SELECT id, local_at::timestamptz AS as_tz, local_at = at AS same FROM tz_events ORDER BY id;
SELECT id FROM tz_events WHERE at > '2024-03-10 02:00' ORDER BY id;
SELECT id FROM tz_events WHERE at >= DATE '2024-03-10' AND at < timestamp '2024-11-03 01:45' ORDER BY id;
SELECT '2024-03-10 02:30'::timestamptz AS gap, '2024-11-03 01:30'::timestamptz AS overlap;
SELECT at + interval '1 day' AS plus_day, at + interval '24 hours' AS plus_24h,
       at - interval '1 month' AS minus_month
FROM tz_events WHERE id IN (2, 4) ORDER BY id;
SELECT timestamptz '2024-07-01' - timestamptz '2024-01-15 12:00' AS diff,
       age(timestamptz '2024-07-01', timestamptz '2024-01-15 12:00') AS age;
SELECT id, extract(hour FROM at) AS h, date_part('day', at) AS d, extract(epoch FROM at) AS ep,
       extract(timezone FROM at) AS tz, extract(timezone_hour FROM at) AS tzh
FROM tz_events ORDER BY id;
SELECT id, date_trunc('day', at) AS d, date_trunc('hour', at) AS h, date_trunc('month', at) AS m,
       date_trunc('day', at, 'Asia/Tokyo') AS tokyo_day
FROM tz_events ORDER BY id;
SELECT date_trunc('day', DATE '2022-01-01') AS from_date;

-- AT TIME ZONE
SELECT at AT TIME ZONE 'UTC' AS utc, at AT TIME ZONE 'Asia/Kolkata' AS kolkata,
       at AT TIME ZONE 'PST' AS pst, at AT TIME ZONE INTERVAL '05:30' AS plus530
FROM tz_events WHERE id IN (1, 4, 7) ORDER BY id;
SELECT local_at AT TIME ZONE 'Europe/Paris' AS paris, local_at AT TIME ZONE 'UTC' AS utc
FROM tz_events WHERE id IN (1, 3) ORDER BY id;
SELECT timestamp '2024-01-02 03:04:05' AT TIME ZONE 'Nowhere/Special';
SELECT timestamptz '2024-01-02 03:04:05+00' AT TIME ZONE INTERVAL '1 day';

-- DateStyles
SET DateStyle = 'Postgres, MDY';
SELECT id, at FROM tz_events WHERE id IN (1, 3, 4, 7, 8) ORDER BY id;
SET DateStyle = 'SQL, DMY';
SELECT id, at FROM tz_events WHERE id IN (1, 3) ORDER BY id;
SET DateStyle = 'German';
SELECT id, at FROM tz_events WHERE id IN (1, 3) ORDER BY id;
SET DateStyle = 'ISO, MDY';

-- other zones
SET TimeZone = 'Asia/Kolkata';
SELECT id, at FROM tz_events WHERE id IN (1, 5) ORDER BY id;
SET TimeZone = '5';
SELECT at FROM tz_events WHERE id = 1;
SET TimeZone = '-3.5';
SELECT at FROM tz_events WHERE id = 1;
SET TimeZone = 'PST8PDT';
SELECT id, at FROM tz_events WHERE id IN (1, 3) ORDER BY id;
SET TimeZone = 'Australia/Adelaide';
SELECT timestamptz '2024-01-02 03:04:05' AS adelaide, timestamptz '2024-01-02 03:04:05' AT TIME ZONE 'UTC' AS in_utc;
SET TimeZone = 'UTC';

-- aggregates, grouping, sorting, joins
SELECT min(at), max(at), count(at), count(*) FROM tz_events;
SELECT date_trunc('year', at) AS y, count(*) FROM tz_events GROUP BY 1 ORDER BY 1;
CREATE TABLE tz_marks (at timestamptz, label text);
INSERT INTO tz_marks VALUES ('2024-01-02 01:04:05+00', 'first'), ('2024-11-03 01:30:00-05', 'fallback'),
  ('2000-01-01 07:59:59.999999Z', 'y2k'), ('2030-01-01Z', 'none');
SELECT e.id, m.label FROM tz_events e JOIN tz_marks m ON e.at = m.at ORDER BY e.id;
SELECT m.label FROM tz_marks m WHERE m.at NOT IN (SELECT at FROM tz_events WHERE at IS NOT NULL) ORDER BY 1;
SELECT DISTINCT at FROM (SELECT at FROM tz_events UNION ALL SELECT at FROM tz_marks) u WHERE at IS NOT NULL ORDER BY at DESC LIMIT 3;

-- generate_series in the session zone
SET TimeZone = 'America/New_York';
SELECT * FROM generate_series(timestamptz '2024-03-09', timestamptz '2024-03-12', interval '1 day');
SELECT g FROM generate_series(DATE '2024-11-02', DATE '2024-11-04', interval '1 day') g;
SET TimeZone = 'UTC';

-- functions of the current time: only stable properties are printed
SELECT now() = current_timestamp AS same, now() = transaction_timestamp() AS tx,
       now() > '2020-01-01' AS recent, clock_timestamp() >= '2020-01-01' AS clock,
       now()::date = current_date AS today, localtimestamp = now()::timestamp AS localts;
SELECT to_timestamp(1700000000.5), to_timestamp(-1e10), to_timestamp('Infinity');
SELECT to_timestamp('NaN');
DROP TABLE tz_events;
DROP TABLE tz_marks;
