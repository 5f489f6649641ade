--
-- ordered_aggregates: ORDER BY inside aggregate calls, ordered-set and
-- hypothetical-set aggregates (WITHIN GROUP), statistical aggregates over
-- int, numeric and float inputs, bit and bool aggregates.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE oa_t (id integer, g integer, x integer, y double precision, n numeric(10,3),
  s text, iv interval, b boolean);
INSERT INTO oa_t VALUES
  (1, 1, 5, 1.5, 1.250, 'e', '1 day', true),
  (2, 1, 3, 2.25, 2.500, 'c', '2 days', true),
  (3, 1, NULL, 0.1, NULL, NULL, NULL, NULL),
  (4, 1, 8, -4.75, 10.125, 'h', '3 hours', false),
  (5, 2, 1, 100, 0.001, 'a', '1 hour', true),
  (6, 2, 1, 100, 0.001, 'b', '1 hour', true),
  (7, 2, 2, NULL, 7.000, 'a', '30 minutes', NULL),
  (8, 3, NULL, NULL, NULL, NULL, NULL, NULL),
  (9, 4, 7, 3, 3.333, 'z', '5 days', false);
CREATE TABLE oa_empty (x integer, y double precision, n numeric, s text);

-- ORDER BY inside aggregates
SELECT g, string_agg(s, ',' ORDER BY s) AS asc_s, string_agg(s, ',' ORDER BY s DESC) AS desc_s,
  string_agg(s, '|' ORDER BY x DESC NULLS LAST, id) AS by_x
FROM oa_t GROUP BY g ORDER BY g;
SELECT string_agg(s, ',' ORDER BY id DESC) FROM oa_t;
SELECT string_agg(s, ',' ORDER BY x NULLS FIRST, id) FROM oa_t;
SELECT string_agg(s, ',' ORDER BY y USING >, id) FROM oa_t;
SELECT string_agg(DISTINCT s, ',' ORDER BY s DESC) FROM oa_t;
SELECT string_agg(DISTINCT s, ',' ORDER BY s) FILTER (WHERE g < 3) FROM oa_t;
SELECT string_agg(DISTINCT s, ',' ORDER BY x) FROM oa_t;
SELECT sum(x ORDER BY y), count(* ORDER BY s), count(x ORDER BY id), max(s ORDER BY x) FROM oa_t;
SELECT g, string_agg(x::text, '-' ORDER BY y, id), string_agg(x::text, '-' ORDER BY y DESC, id)
FROM oa_t GROUP BY g ORDER BY g;
SELECT string_agg(s, ',' ORDER BY s) FROM oa_empty;
SELECT string_agg(s, ',' ORDER BY sum(x)) FROM oa_t;
SELECT abs(x ORDER BY x) FROM oa_t;
SELECT g, (SELECT string_agg(o.s, ',' ORDER BY o.id DESC) FROM oa_t o WHERE o.g = t.g) FROM oa_t t
WHERE id IN (1, 5) ORDER BY g;

-- ordered-set aggregates
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY x) AS med,
  percentile_cont(0.25) WITHIN GROUP (ORDER BY y) AS q1,
  percentile_cont(0.75) WITHIN GROUP (ORDER BY y DESC) AS q3desc,
  percentile_disc(0.5) WITHIN GROUP (ORDER BY s) AS disc_s,
  percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS disc_n,
  mode() WITHIN GROUP (ORDER BY x) AS mode_x
FROM oa_t GROUP BY g ORDER BY g;
SELECT percentile_cont(0) WITHIN GROUP (ORDER BY y), percentile_cont(1) WITHIN GROUP (ORDER BY y),
  percentile_cont(0.1234567) WITHIN GROUP (ORDER BY x), percentile_disc(0) WITHIN GROUP (ORDER BY x),
  percentile_disc(1) WITHIN GROUP (ORDER BY x), percentile_disc(0.3) WITHIN GROUP (ORDER BY x DESC)
FROM oa_t;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY iv), percentile_cont(0.3) WITHIN GROUP (ORDER BY iv),
  percentile_disc(0.5) WITHIN GROUP (ORDER BY iv)
FROM oa_t;
SELECT mode() WITHIN GROUP (ORDER BY s), mode() WITHIN GROUP (ORDER BY s DESC), mode() WITHIN GROUP (ORDER BY b)
FROM oa_t;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x) FROM oa_empty;
SELECT percentile_cont(NULL) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FILTER (WHERE g = 1) FROM oa_t;
SELECT g, percentile_disc(g / 4.0) WITHIN GROUP (ORDER BY x) FROM oa_t GROUP BY g ORDER BY g;
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT percentile_cont(-0.1) WITHIN GROUP (ORDER BY x) FROM oa_empty;
SELECT percentile_disc('NaN') WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT percentile_cont(x) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s) FROM oa_t;
SELECT percentile_cont(0.5, 0.2) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT percentile_cont(0.5) FROM oa_t;
SELECT percentile_cont(DISTINCT 0.5) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT sum(x) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT count(*) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT string_agg(s) WITHIN GROUP (ORDER BY s) FROM oa_t;

-- hypothetical-set aggregates
SELECT rank(3) WITHIN GROUP (ORDER BY x), dense_rank(3) WITHIN GROUP (ORDER BY x),
  percent_rank(3) WITHIN GROUP (ORDER BY x), cume_dist(3) WITHIN GROUP (ORDER BY x)
FROM oa_t;
SELECT g, rank(1) WITHIN GROUP (ORDER BY x DESC), dense_rank(1) WITHIN GROUP (ORDER BY x DESC),
  percent_rank(1) WITHIN GROUP (ORDER BY x DESC), cume_dist(1) WITHIN GROUP (ORDER BY x DESC)
FROM oa_t GROUP BY g ORDER BY g;
SELECT rank(NULL) WITHIN GROUP (ORDER BY x), rank(NULL) WITHIN GROUP (ORDER BY x NULLS FIRST),
  dense_rank(2, 'b') WITHIN GROUP (ORDER BY x, s), rank(2.5) WITHIN GROUP (ORDER BY x)
FROM oa_t;
SELECT rank(3) WITHIN GROUP (ORDER BY x), percent_rank(3) WITHIN GROUP (ORDER BY x),
  cume_dist(3) WITHIN GROUP (ORDER BY x), dense_rank(3) WITHIN GROUP (ORDER BY x)
FROM oa_empty;
SELECT rank(1, 2) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT rank('a') WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT mode() WITHIN GROUP (ORDER BY x) OVER () FROM oa_t;

-- statistical aggregates: integer, numeric and float inputs
SELECT g, variance(x), var_pop(x), var_samp(x), stddev(x), stddev_pop(x), stddev_samp(x)
FROM oa_t GROUP BY g ORDER BY g;
SELECT g, variance(n), var_pop(n), stddev(n), stddev_pop(n) FROM oa_t GROUP BY g ORDER BY g;
SELECT g, variance(y), var_pop(y), stddev(y), stddev_pop(y) FROM oa_t GROUP BY g ORDER BY g;
SELECT variance(y::real), stddev_pop(y::real), var_samp(x::smallint), var_pop(x::bigint) FROM oa_t;
SELECT variance(x), stddev(n), var_pop(y), stddev_pop(x) FROM oa_empty;
SELECT var_pop(v), var_samp(v), stddev_pop(v) FROM (VALUES (1e100::float8), (1e100::float8)) a(v);
SELECT var_pop(v), stddev(v) FROM (VALUES ('Infinity'::float8), (1)) a(v);
SELECT var_pop(v), stddev(v) FROM (VALUES ('NaN'::numeric), (1)) a(v);
SELECT var_samp(v), var_pop(v) FROM (VALUES (1.1::numeric), (1.1), (1.1)) a(v);
SELECT variance(v), stddev(v) FROM (VALUES (0.00001::numeric), (123456789.123), (-5)) a(v);
SELECT var_pop(v) FROM (VALUES (1e308::float8), (-1e308)) a(v);
SELECT g, covar_pop(y, x), covar_samp(y, x), corr(y, x), regr_count(y, x), regr_sxx(y, x),
  regr_syy(y, x), regr_sxy(y, x), regr_avgx(y, x), regr_avgy(y, x), regr_r2(y, x),
  regr_slope(y, x), regr_intercept(y, x)
FROM oa_t GROUP BY g ORDER BY g;
SELECT covar_pop(y, x), corr(y, x), regr_count(y, x), regr_r2(y, x), regr_slope(y, x) FROM oa_empty;
SELECT corr(v, w), regr_r2(v, w), regr_slope(v, w) FROM (VALUES (1, 2), (1, 3), (1, 4)) a(v, w);
SELECT corr(v, w), regr_r2(v, w), regr_slope(v, w) FROM (VALUES (1, 2), (2, 2), (3, 2)) a(v, w);
SELECT regr_sxx(v, w), regr_avgx(v, w) FROM (VALUES (1::float8, 'NaN'::float8), (2, 3)) a(v, w);

-- bit and bool aggregates
SELECT g, bit_and(x), bit_or(x), bit_xor(x), bool_and(b), bool_or(b), every(b)
FROM oa_t GROUP BY g ORDER BY g;
SELECT bit_and(x::smallint), bit_or(x::bigint), bit_xor(-x) FROM oa_t;
SELECT bit_and(x), bool_or(b) FROM oa_empty, (VALUES (true)) v(b);
SELECT any_value(x) FROM oa_t;
SELECT percentile_cont(y, y) FROM oa_t;
SELECT mode(x) FROM oa_t;
SELECT mode() FROM oa_t;
SELECT rank(1) FROM oa_t;
SELECT rank(1) WITHIN GROUP (ORDER BY x) FILTER (WHERE x > 1) FROM oa_t;
SELECT string_agg(DISTINCT s::varchar, ',' ORDER BY s::varchar) FROM oa_t;
SELECT string_agg(DISTINCT s::varchar, ',' ORDER BY s::varchar::text) FROM oa_t;
SELECT percentile_disc(123456789) WITHIN GROUP (ORDER BY x) FROM oa_t;
SELECT percentile_cont(-0.000012345678) WITHIN GROUP (ORDER BY x) FROM oa_t;
