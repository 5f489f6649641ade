SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- The vectorized kernels (operators/vec*.go) over columns with NULLs:
-- datetime arithmetic and comparisons, extract/date_part/date_trunc, text
-- comparisons, LIKE/ILIKE fast paths, substring, CASE, IN lists,
-- COALESCE and casts, each against PostgreSQL's own answers.
CREATE TABLE vk_t (id int, d date, ts timestamp, tz timestamptz, iv interval, n int, s text, c char(6), v varchar(8));
INSERT INTO vk_t VALUES
 (1, '2024-02-29', '2024-02-29 10:30:00', '2024-02-29 10:30:00+00', '1 mon 2 days 03:00:00', 1, 'MAIL', 'MAIL', 'alpha'),
 (2, '1999-12-31', '1999-12-31 23:59:59.5', '1999-12-31 23:59:59+00', '-1 year', -1, 'SHIP', 'SHIP  ', 'Beta'),
 (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (4, 'infinity', 'infinity', 'infinity', '00:00:01', 0, 'PROMO BRUSHED', 'AIR', 'gamma%'),
 (5, '-infinity', '-infinity', '-infinity', '10 days', 365, 'special requests', 'a b', 'a_b'),
 (6, '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00', '1 day -01:00:00', 31, 'éclair', 'é', 'ÉCLAIR'),
 (7, '0001-01-01', '0001-01-01 00:00:00', '0001-01-01 00:00:00+00', '0', 7, '', '', ''),
 (8, '1995-09-15', '1995-09-15 12:00:00', '1995-09-15 12:00:00+00', '2 mons', 12, 'PROMO%', 'MAIL', 'green'),
 (9, '1994-01-01', '1994-01-01 00:00:00', '1994-01-01 00:00:00+00', '1 year', 100, 'forest green', 'SHIP', 'GREEN');

-- date ± integer, date - date, date ± interval, timestamp ± interval
SELECT id, d + n AS plus, d - n AS minus, n + d AS rplus FROM vk_t ORDER BY id;
SELECT id, d - date '1994-01-01' AS days FROM vk_t WHERE d > '-infinity' AND d < 'infinity' ORDER BY id;
SELECT id, d + iv AS d_iv, d - iv AS d_miv, ts + iv AS ts_iv, ts - iv AS ts_miv, iv + ts AS iv_ts FROM vk_t ORDER BY id;
SELECT id, iv + iv AS iv2, iv - interval '1 day' AS ivm, ts - timestamp '1994-01-01' AS tsd FROM vk_t WHERE ts > '-infinity' AND ts < 'infinity' ORDER BY id;
SELECT id, tz + iv AS tz_iv, tz - iv AS tz_miv FROM vk_t ORDER BY id;
-- errors: out of the date range
SELECT id, d + 2147483000 FROM vk_t ORDER BY id;
SELECT d - 3000000 FROM vk_t WHERE id = 7;
SELECT d + interval '300000 years' FROM vk_t WHERE id = 1;

-- date / timestamp comparisons, with constants on either side
SELECT id FROM vk_t WHERE d >= date '1994-01-01' AND d < date '1994-01-01' + interval '1' year ORDER BY id;
SELECT id FROM vk_t WHERE d <= date '1998-12-01' - interval '90' day ORDER BY id;
SELECT id, d = ts AS eq, d < ts AS lt, ts >= d AS ge, timestamp '1995-09-15' > d AS cgt FROM vk_t ORDER BY id;
SELECT id, d < tz AS dtz, ts <= tz AS tstz, iv > interval '1 day' AS ivgt FROM vk_t ORDER BY id;

-- extract, date_part, date_trunc
SELECT id, extract(year FROM d) AS y, extract(month FROM ts) AS m, extract(epoch FROM ts) AS e, date_part('dow', d) AS dow, date_part('doy', ts) AS doy FROM vk_t ORDER BY id;
SELECT id, extract(day FROM iv) AS ivd, date_part('hour', iv) AS ivh, extract(quarter FROM tz) AS q FROM vk_t ORDER BY id;
SELECT id, date_trunc('month', ts) AS mon, date_trunc('year', d) AS yr, date_trunc('week', tz) AS wk, date_trunc('hour', iv) AS ivh FROM vk_t ORDER BY id;
SELECT date_trunc('fortnight', ts) FROM vk_t ORDER BY id;
SELECT extract(fortnight FROM d) FROM vk_t ORDER BY id;
SELECT extract(year FROM d) AS y, count(*) FROM vk_t GROUP BY 1 ORDER BY 1;

-- text comparisons: text in byte order (C collation), char(n) without trailing blanks
SELECT id, s < 'PROMO' AS lt, s >= 'SHIP' AS ge, s = 'MAIL' AS eq, s <> v AS ne, v > s AS vgt FROM vk_t ORDER BY id;
SELECT id, c = 'SHIP' AS eq, c < 'MAIL  ' AS lt, c > 'A' AS gt, c = c AS self FROM vk_t ORDER BY id;
SELECT id FROM vk_t WHERE v::text > 'a' AND s < 'z' ORDER BY id;

-- LIKE / ILIKE / NOT LIKE: exact, prefix, suffix, contains, segments, general
SELECT id, s LIKE 'PROMO%' AS pre, s LIKE '%green' AS suf, s LIKE '%e%' AS con, s LIKE 'MAIL' AS ex, s NOT LIKE '%special%requests%' AS seg FROM vk_t ORDER BY id;
SELECT id, s LIKE '_HIP' AS us, s LIKE 'PROMO\%' AS esc, s LIKE '%' AS pct, s LIKE '' AS empty, v LIKE 'a\_b' AS vesc FROM vk_t ORDER BY id;
SELECT id, s ILIKE 'promo%' AS ipre, v ILIKE '%GREEN%' AS icon, v NOT ILIKE 'é%' AS inot, s ILIKE 'ÉCLAIR' AS iex FROM vk_t ORDER BY id;
SELECT id, c LIKE 'SHIP%' AS cpre, c LIKE '%P' AS csuf, c LIKE 'a b' AS cex FROM vk_t ORDER BY id;
SELECT id, s LIKE v AS colpat FROM vk_t ORDER BY id;
SELECT id FROM vk_t WHERE s LIKE 'x\' ORDER BY id;
SELECT count(*) FROM vk_t WHERE s LIKE 'MAIL\';

-- substring / substr
SELECT id, substr(s, 2) AS s2, substr(s, 2, 3) AS s23, substring(v, 0, 2) AS v02, substring(s FROM n FOR 2) AS sn FROM vk_t WHERE id <> 5 ORDER BY id;
SELECT substr(s, 1, n) FROM vk_t ORDER BY id;

-- CASE, searched and simple
SELECT id, CASE WHEN s LIKE 'PROMO%' THEN 1 WHEN c = 'SHIP' THEN 2 ELSE 0 END AS k,
       CASE c WHEN 'MAIL' THEN 'm' WHEN 'SHIP' THEN 's' END AS simple,
       CASE WHEN d < date '1995-01-01' THEN d + 1 ELSE d END AS dd FROM vk_t ORDER BY id;
SELECT id, CASE WHEN n <> 0 THEN 100 / n ELSE -1 END AS safe_div FROM vk_t ORDER BY id;
SELECT id, CASE WHEN s = 'MAIL' THEN 1 / (n - 1) ELSE 0 END AS lazy FROM vk_t ORDER BY id;
SELECT sum(CASE WHEN c = 'MAIL' THEN 1 WHEN c = 'SHIP' THEN 2 ELSE 0 END) FROM vk_t;

-- IN lists over constants, NULL semantics
SELECT id, c IN ('MAIL', 'SHIP') AS cin, s IN ('MAIL', NULL) AS snull, n IN (1, 7, 12, 31, 100, 365, 1000, 2000, 4000) AS nin,
       n NOT IN (0, 1) AS nnot, n NOT IN (0, NULL) AS nnotnull, d IN (date '1994-01-01', date 'infinity') AS din FROM vk_t ORDER BY id;
SELECT id FROM vk_t WHERE c IN ('MAIL', 'SHIP') AND d >= date '1994-01-01' ORDER BY id;
SELECT id FROM vk_t WHERE s NOT IN ('MAIL', 'SHIP', '') ORDER BY id;

-- COALESCE
SELECT id, coalesce(d, date '2000-01-01') AS d, coalesce(s, v, 'none') AS s, coalesce(n, 0) + 1 AS n, coalesce(iv, interval '0') AS iv FROM vk_t ORDER BY id;

-- casts between the common types
SELECT id, d::timestamp AS dts, ts::date AS tsd, n::smallint AS n2, n::bigint AS n8, n::float8 AS nf, c::text AS ct, v::text AS vt FROM vk_t ORDER BY id;
SELECT id, d::text AS dt, ts::text AS tst, iv::text AS ivt, n::text AS nt, s::varchar(3) AS s3 FROM vk_t ORDER BY id;
SELECT ('2' || n::text)::int FROM vk_t ORDER BY id;
SELECT (n * 100000)::smallint FROM vk_t ORDER BY id;
SELECT s::int FROM vk_t ORDER BY id;
SELECT v::date FROM vk_t ORDER BY id;
SELECT s::char(4) AS c4, length(s::char(4)) AS l FROM vk_t ORDER BY id;
INSERT INTO vk_t (id, v) SELECT 10, s FROM vk_t WHERE id = 1;
INSERT INTO vk_t (id, v) SELECT 11, s FROM vk_t WHERE id = 5;

DROP TABLE vk_t;
