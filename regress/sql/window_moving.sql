-- Moving window frames (issue 14 part 1): numeric sum/avg whose display
-- scale follows the values in the frame, NaN/Infinity, interval avg,
-- min/max over text, float sums in row order, offsets and EXCLUDE.
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
CREATE TABLE wmv_n (i int, g int, v numeric, k int);
INSERT INTO wmv_n VALUES
  (1, 1, 1.5, 1), (2, 1, 1.500, 1), (3, 1, 2.25, 2), (4, 1, NULL, 3), (5, 1, 3, 3),
  (6, 1, 0.1, 4), (7, 1, 7, 5), (8, 1, 'NaN', 6), (9, 1, 2, 7), (10, 1, 4.0, 8),
  (11, 2, 'Infinity', 1), (12, 2, 1.25, 2), (13, 2, '-Infinity', 3), (14, 2, 5, 4), (15, 2, 5.00, 5),
  (16, 2, NULL, 6), (17, 2, -0.001, 7);
-- The 1.500 leaves the frame: the scale drops with it.
SELECT i, v, sum(v) OVER w AS s, avg(v) OVER w AS a, count(v) OVER w AS c
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY i;
SELECT i, sum(v) OVER w AS s, avg(v) OVER w AS a
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING) ORDER BY i;
SELECT i, k, sum(v) OVER w AS s, avg(v) OVER w AS a
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY k RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY i;
SELECT i, k, sum(v) OVER w AS s
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY k GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE GROUP) ORDER BY i;
SELECT i, k, sum(v) OVER w AS s, avg(v) OVER w AS a
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY k ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) ORDER BY i;
SELECT i, k, sum(v) OVER w AS s
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY k RANGE BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES) ORDER BY i;
SELECT i, sum(v) OVER w AS s, avg(v) OVER w AS a
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 3 FOLLOWING AND 5 FOLLOWING) ORDER BY i;
-- A numeric(6,3) column and an expression of mixed scales.
SELECT i, sum(CAST(v AS numeric(6,3))) OVER w AS s, sum(v * 2) OVER w AS s2, avg(v / 3) OVER w AS a
FROM wmv_n WHERE v BETWEEN -10 AND 10 WINDOW w AS (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) ORDER BY i;
-- min and max over text, numeric of equal values (the later wins), NULLs skipped.
CREATE TABLE wmv_t (i int, g int, s text);
INSERT INTO wmv_t VALUES (1, 1, 'pear'), (2, 1, NULL), (3, 1, 'Apple'), (4, 1, 'apple'), (5, 1, 'banana'),
  (6, 1, ''), (7, 1, 'Zebra'), (8, 2, 'b'), (9, 2, NULL), (10, 2, NULL), (11, 2, 'a');
SELECT i, min(s) OVER w AS mn, max(s) OVER w AS mx
FROM wmv_t WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY i;
SELECT i, min(s) OVER w AS mn, max(s) OVER w AS mx
FROM wmv_t WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) ORDER BY i;
SELECT i, min(v) OVER w AS mn, max(v) OVER w AS mx
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) ORDER BY i;
-- interval sum and avg.
CREATE TABLE wmv_i (i int, d interval);
INSERT INTO wmv_i VALUES (1, '1 day'), (2, '2 hours'), (3, NULL), (4, '1 mon 3 days'), (5, '-5 min'), (6, '1 year 7 sec');
SELECT i, sum(d) OVER w AS s, avg(d) OVER w AS a
FROM wmv_i WINDOW w AS (ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY i;
-- float: no inverse transition, so each frame adds its rows left to right
-- (a sum that subtracted the row leaving, or a compensated one, differs).
CREATE TABLE wmv_f (i int, x float8);
INSERT INTO wmv_f VALUES (1, 1e16), (2, 1), (3, 1), (4, -1e16), (5, 0.1), (6, 0.2), (7, 0.3), (8, NULL), (9, -0.0);
SELECT i, sum(x) OVER w AS s, avg(x) OVER w AS a
FROM wmv_f WINDOW w AS (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) ORDER BY i;
SELECT i, sum(x) OVER w AS s
FROM wmv_f WINDOW w AS (ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) ORDER BY i;
SELECT i, sum(CAST(x AS float4)) OVER w AS s, avg(CAST(x AS float4)) OVER w AS a
FROM wmv_f WHERE abs(x) < 10 WINDOW w AS (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY i;
-- bool_and / bool_or
SELECT i, bool_and(v > 2) OVER w AS ba, bool_or(v > 2) OVER w AS bo, every(v > 2) OVER w AS ev
FROM wmv_n WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY i;
-- a float sum overflowing within a frame is an error
SELECT sum(x) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1, 1e308::float8), (2, 1e308::float8)) t(i, x);
DROP TABLE wmv_n, wmv_t, wmv_i, wmv_f;
-- var/stddev of numeric (mixed scales, NaN, NULL) and of integers, with FILTER,
-- and interval sum/avg with FILTER, over moving frames.
SELECT i, var_samp(v) OVER w, stddev(v) OVER w, var_pop(i % 7) OVER w,
       stddev_pop(v) FILTER (WHERE i % 3 <> 0) OVER w
FROM (SELECT i, CASE WHEN i = 9 THEN 'NaN'::numeric WHEN i % 5 = 0 THEN NULL
                     WHEN i % 2 = 0 THEN ((i * 37) % 11)::numeric / 4
                     ELSE ((i * 13) % 7)::numeric(6,3) END AS v
      FROM generate_series(1, 30) i) s
WINDOW w AS (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW)
ORDER BY i;
SELECT i, sum(v) FILTER (WHERE i % 3 <> 0) OVER w, avg(v) OVER w
FROM (SELECT i, make_interval(months => (i * 7) % 5 - 2, days => (i * 13) % 9 - 4,
                              secs => ((i * 37) % 101 - 50) * 1.25) AS v
      FROM generate_series(1, 20) i) s
WINDOW w AS (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE TIES)
ORDER BY i;
-- count(*) with FILTER over moving frames
SELECT i, count(*) FILTER (WHERE i % 3 <> 0) OVER w,
       count(*) FILTER (WHERE v IS NULL) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND CURRENT ROW),
       count(*) OVER w
FROM (SELECT i, NULLIF(i % 4, 0) AS v FROM generate_series(1, 20) i) s
WINDOW w AS (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP)
ORDER BY i;
