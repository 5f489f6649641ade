--
-- setops_cte: UNION [ALL], INTERSECT, EXCEPT, non-recursive WITH, and
-- generate_series. (EXPLAIN is not here: joind's plan text differs from
-- PostgreSQL's by design.)
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE so_a (n integer, s text);
CREATE TABLE so_b (n integer, s text);
INSERT INTO so_a VALUES (1, 'one'), (2, 'two'), (2, 'two'), (3, 'three'), (NULL, 'null'), (NULL, 'null');
INSERT INTO so_b VALUES (2, 'two'), (3, 'drei'), (4, 'four'), (NULL, 'null');

-- UNION
SELECT n FROM so_a UNION SELECT n FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n FROM so_a UNION ALL SELECT n FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n, s FROM so_a UNION SELECT n, s FROM so_b ORDER BY n NULLS LAST, s;
SELECT count(*) FROM (SELECT n, s FROM so_a UNION ALL SELECT n, s FROM so_b) u;
SELECT 1 AS x UNION SELECT 2 UNION SELECT 1 ORDER BY x DESC;
SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT NULL ORDER BY 1;
SELECT n FROM so_a WHERE n > 1 UNION SELECT n * 10 FROM so_b WHERE n < 4 ORDER BY 1;
SELECT 1 AS a, 'x' AS b UNION SELECT 2, 'y' ORDER BY b DESC;
SELECT 1.5 AS v UNION SELECT 2 UNION SELECT 3::bigint ORDER BY 1;
SELECT n FROM so_a UNION SELECT n FROM so_b ORDER BY n DESC LIMIT 2;

-- INTERSECT and EXCEPT (set semantics treat NULLs as equal)
SELECT n FROM so_a INTERSECT SELECT n FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n FROM so_a INTERSECT ALL SELECT n FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n, s FROM so_a INTERSECT SELECT n, s FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n FROM so_a EXCEPT SELECT n FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n FROM so_a EXCEPT ALL SELECT n FROM so_b ORDER BY 1 NULLS FIRST;
SELECT n FROM so_b EXCEPT SELECT n FROM so_a ORDER BY 1;
SELECT s FROM so_a EXCEPT SELECT s FROM so_b ORDER BY 1;
SELECT n FROM so_a UNION SELECT n FROM so_b EXCEPT SELECT n FROM so_b WHERE n > 2 ORDER BY 1 NULLS FIRST;
SELECT n FROM so_a UNION (SELECT n FROM so_b INTERSECT SELECT 4) ORDER BY 1 NULLS FIRST;
SELECT n FROM so_a INTERSECT SELECT n FROM so_b UNION SELECT 99 ORDER BY 1 NULLS FIRST;

-- set operation errors
SELECT n FROM so_a UNION SELECT n, s FROM so_b;
SELECT n FROM so_a UNION SELECT s FROM so_b;
SELECT n FROM so_a UNION SELECT n FROM so_b ORDER BY s;

-- WITH (non-recursive)
WITH big AS (SELECT n, s FROM so_a WHERE n >= 2)
SELECT * FROM big ORDER BY n, s;
WITH t AS (SELECT n FROM so_b WHERE n IS NOT NULL)
SELECT a.n, b.n AS m FROM t a JOIN t b ON a.n < b.n ORDER BY 1, 2;
WITH counts AS (SELECT n, count(*) AS c FROM so_a GROUP BY n),
     doubled AS (SELECT n, c * 2 AS c2 FROM counts)
SELECT counts.n, c, c2 FROM counts JOIN doubled ON counts.n IS NOT DISTINCT FROM doubled.n ORDER BY 1 NULLS LAST;
WITH x(a, b) AS (VALUES (1, 'p'), (2, 'q'))
SELECT b, a FROM x ORDER BY a DESC;
WITH u AS (SELECT n FROM so_a UNION SELECT n FROM so_b)
SELECT count(*) AS distinct_n, count(n) AS non_null FROM u;
WITH s AS (SELECT sum(n) AS total FROM so_a)
SELECT n, n * 100 / (SELECT total FROM s) AS pct FROM so_b WHERE n IS NOT NULL ORDER BY n;
WITH unused AS (SELECT 1 / 0) SELECT 'not evaluated' AS msg;
WITH a AS (SELECT 1 AS v), b AS (SELECT v + 1 AS v FROM a) SELECT * FROM a, b;
WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a;
WITH a AS (SELECT 1 AS v) SELECT nosuch FROM a;

-- generate_series
SELECT * FROM generate_series(1, 5) ORDER BY 1;
SELECT generate_series AS g FROM generate_series(10, 1, -3) ORDER BY g DESC;
SELECT x FROM generate_series(0, 20, 5) AS x ORDER BY x;
SELECT g FROM generate_series(5, 1) g;
SELECT count(*), sum(g), min(g), max(g) FROM generate_series(1, 100000) g;
SELECT * FROM generate_series('2024-01-30'::timestamp, '2024-02-02'::timestamp, interval '1 day') ORDER BY 1;
SELECT ts FROM generate_series('2024-01-01 00:00'::timestamp, '2024-01-01 02:00'::timestamp, '45 minutes') ts ORDER BY ts;
SELECT g.n, so_b.s FROM generate_series(1, 4) g(n) LEFT JOIN so_b ON so_b.n = g.n ORDER BY g.n;
SELECT g % 3 AS r, count(*) FROM generate_series(1, 10) g GROUP BY 1 ORDER BY 1;
SELECT * FROM generate_series(1, 3) a, generate_series(1, 2) b ORDER BY 1, 2;
SELECT * FROM generate_series(1, 10, 0);

DROP TABLE so_a;
DROP TABLE so_b;
