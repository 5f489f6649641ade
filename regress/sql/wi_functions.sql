SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- window functions: ranking, offsets, values, aggregates as window functions
CREATE TABLE wi_t (id int, g int, k int, x int, f float8, n numeric, s text, d date);
INSERT INTO wi_t VALUES
  (1, 1, 10, 5, 1.5, 1.25, 'a', '2024-01-01'),
  (2, 1, 10, 7, 0.1, 2.5, 'b', '2024-01-03'),
  (3, 1, 20, NULL, NULL, NULL, NULL, NULL),
  (4, 1, 30, -2, 0.2, -1, 'c', '2024-01-10'),
  (5, 2, 10, 100, 1e10, 100.001, 'd', '2024-02-01'),
  (6, 2, NULL, 3, 0.3, 3, 'e', '2024-02-01'),
  (7, 2, NULL, 4, -0.7, 4.5, 'f', '2024-02-05'),
  (8, 3, 5, 9, 2.25, 9, 'g', '2024-03-01'),
  (9, NULL, 1, 1, 1, 1, 'h', '2024-03-02'),
  (10, NULL, 1, 2, 2, 2, NULL, '2024-03-03');
-- ranking: ties and NULLs in the ORDER BY
SELECT id, g, k,
       row_number() OVER (PARTITION BY g ORDER BY k, id) AS rn,
       rank() OVER (PARTITION BY g ORDER BY k) AS rk,
       dense_rank() OVER (PARTITION BY g ORDER BY k) AS drk,
       percent_rank() OVER (PARTITION BY g ORDER BY k) AS prk,
       cume_dist() OVER (PARTITION BY g ORDER BY k) AS cd
FROM wi_t ORDER BY id;
SELECT id, k, rank() OVER (ORDER BY k DESC), rank() OVER (ORDER BY k NULLS FIRST),
       dense_rank() OVER (ORDER BY k DESC NULLS LAST), cume_dist() OVER ()
FROM wi_t ORDER BY id;
-- ntile: more buckets than rows, uneven buckets, NULL bucket count
SELECT id, ntile(3) OVER (ORDER BY id), ntile(4) OVER (PARTITION BY g ORDER BY id),
       ntile(20) OVER (ORDER BY id), ntile(NULL) OVER (ORDER BY id)
FROM wi_t ORDER BY id;
-- lag / lead with offsets and defaults
SELECT id, x, lag(x) OVER w, lead(x) OVER w, lag(x, 2) OVER w, lead(x, 3, -1) OVER w,
       lag(x, 0) OVER w, lag(x, -1) OVER w, lag(x, NULL) OVER w, lag(s, 1, 'none') OVER w,
       lag(x, 1, 0.5) OVER w
FROM wi_t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY id;
SELECT id, lead(x, id % 3) OVER (ORDER BY id), lag(f, 1, 99) OVER (ORDER BY id) FROM wi_t ORDER BY id;
-- first_value / last_value / nth_value over the default and explicit frames
SELECT id, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 2) OVER w, nth_value(s, 3) OVER w
FROM wi_t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY id;
SELECT id, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 4) OVER w
FROM wi_t WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY id;
SELECT id, k, count(*) OVER (ORDER BY k RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS peers,
       count(*) OVER (ORDER BY k), last_value(k) OVER (ORDER BY k RANGE BETWEEN CURRENT ROW AND 10 FOLLOWING)
FROM wi_t ORDER BY id;
-- aggregates as window functions
SELECT id, g, sum(x) OVER (PARTITION BY g), count(x) OVER (PARTITION BY g), count(*) OVER (PARTITION BY g),
       avg(x) OVER (PARTITION BY g), min(s) OVER (PARTITION BY g), max(d) OVER (PARTITION BY g),
       sum(n) OVER (PARTITION BY g), avg(n) OVER (PARTITION BY g)
FROM wi_t ORDER BY id;
SELECT id, sum(x) OVER (ORDER BY id), sum(f) OVER (ORDER BY id), avg(f) OVER (ORDER BY id),
       bool_and(x > 0) OVER (ORDER BY id), bool_or(x > 50) OVER (ORDER BY id),
       string_agg(s, ',') OVER (ORDER BY id), sum(x::int8) OVER (ORDER BY id), sum(x::int2) OVER (ORDER BY id)
FROM wi_t ORDER BY id;
-- FILTER
SELECT id, count(*) FILTER (WHERE x > 3) OVER (ORDER BY id),
       sum(x) FILTER (WHERE g = 1) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       max(x) FILTER (WHERE x < 50) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
FROM wi_t ORDER BY id;
-- windows over aggregates, in ORDER BY, in subqueries
SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC), sum(sum(x)) OVER (ORDER BY g), count(*) OVER ()
FROM wi_t GROUP BY g ORDER BY g;
SELECT g, count(*) FROM wi_t GROUP BY g HAVING count(*) > 1 ORDER BY rank() OVER (ORDER BY count(*)), g;
SELECT id, x FROM wi_t ORDER BY row_number() OVER (ORDER BY x DESC NULLS LAST, id) LIMIT 4;
SELECT * FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY x DESC, id) AS rn FROM wi_t) s
WHERE rn = 1 ORDER BY id;
SELECT id, (SELECT max(rn) FROM (SELECT row_number() OVER () AS rn FROM wi_t u WHERE u.g = t.g) q) FROM wi_t t ORDER BY id;
SELECT DISTINCT g, count(*) OVER (PARTITION BY g) FROM wi_t ORDER BY g;
-- empty input
SELECT row_number() OVER (), sum(x) OVER () FROM wi_t WHERE false;
SELECT count(*) OVER () FROM (SELECT 1 WHERE false) s;
-- several windows, shared and different orderings
SELECT id, sum(x) OVER (ORDER BY id), sum(x) OVER (ORDER BY id DESC), rank() OVER (ORDER BY x NULLS FIRST, id),
       row_number() OVER (PARTITION BY k ORDER BY id), count(*) OVER (PARTITION BY d)
FROM wi_t ORDER BY id;
-- windows whose orderings nest share one sort
SELECT id, rank() OVER (ORDER BY k), row_number() OVER (ORDER BY k, id), dense_rank() OVER (ORDER BY k DESC),
       sum(x) OVER (PARTITION BY g ORDER BY k), row_number() OVER (PARTITION BY g ORDER BY k, id DESC),
       count(*) OVER (PARTITION BY g)
FROM wi_t ORDER BY id;
DROP TABLE wi_t;
