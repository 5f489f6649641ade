--
-- unsupported: the parse-tree features whose fields change a statement's
-- meaning, where joind gives PostgreSQL's exact answer. Where joind lacks a
-- feature it fails with SQLSTATE 0A000 instead; those cases are listed in
-- sql/surface_test.go (TestSurface) and checked over the wire in
-- regress/unsupported_test.go, since their output differs from PostgreSQL's
-- by design.
--
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

CREATE TABLE un_t (a int, b text);
INSERT INTO un_t VALUES (1, 'x'), (2, 'y'), (3, NULL), (NULL, 'z');
CREATE TABLE un_u (a int, d text);
INSERT INTO un_u VALUES (1, 'p'), (3, 'q'), (5, 'r');

-- A WITH query referenced more than once, or calling a volatile function,
-- is evaluated once: every reference reads the same rows.
WITH q1(x) AS (SELECT random() FROM generate_series(1, 5))
SELECT count(*) FROM (SELECT * FROM q1 UNION SELECT * FROM q1) ss;
WITH q AS (SELECT g, random() AS r FROM generate_series(1, 4) g)
SELECT count(*) FROM q a JOIN q b ON a.r = b.r;
WITH q AS (SELECT random() AS r)
SELECT (SELECT r FROM q) = (SELECT r FROM q) AS same;
WITH q AS NOT MATERIALIZED (SELECT random() AS r)
SELECT count(DISTINCT r) FROM (SELECT r FROM q UNION ALL SELECT r FROM q) s;
WITH q AS MATERIALIZED (SELECT a FROM un_t WHERE a > 1)
SELECT * FROM q ORDER BY a;
WITH q AS NOT MATERIALIZED (SELECT a FROM un_t)
SELECT q.a, r.a FROM q JOIN q r ON r.a = q.a + 1 ORDER BY 1;
WITH q AS (SELECT a FROM un_t), v AS (SELECT a FROM q WHERE a < 3)
SELECT v.a, q.a FROM v JOIN q ON q.a > v.a ORDER BY 1, 2;
WITH q AS (SELECT a FROM un_t)
SELECT (SELECT count(*) FROM q), (SELECT max(a) FROM q);
-- Unreferenced WITH queries are checked but not run.
WITH q AS (SELECT 1 / 0) SELECT 1 AS one;
WITH q(x, y, z) AS (SELECT * FROM un_t) SELECT 1;
WITH q AS (SELECT * FROM un_nosuch) SELECT 1;
-- SEARCH and CYCLE belong to recursive queries only.
WITH RECURSIVE q(x) AS (SELECT 1) SEARCH DEPTH FIRST BY x SET ord SELECT * FROM q;
WITH q(x) AS (SELECT 1 UNION ALL SELECT 2) CYCLE x SET is_cycle USING path SELECT * FROM q;
-- CREATE RECURSIVE VIEW of a non-recursive query.
CREATE RECURSIVE VIEW un_rv (n) AS SELECT 1;
SELECT * FROM un_rv;
DROP VIEW un_rv;

-- No inheritance: ONLY t and t* read t.
SELECT * FROM ONLY un_t ORDER BY a;
SELECT count(*) FROM un_t*;

-- NULLS FIRST / LAST.
SELECT a FROM un_t ORDER BY a NULLS FIRST;
SELECT a FROM un_t ORDER BY a DESC NULLS LAST;
SELECT b FROM un_t ORDER BY b DESC;
-- ORDER BY ... USING: < is ascending, > descending (NULLS FIRST).
SELECT a FROM un_t ORDER BY a USING >;
SELECT a FROM un_t ORDER BY a USING < NULLS FIRST;
SELECT b FROM un_t ORDER BY b USING > NULLS LAST;
SELECT a FROM un_t ORDER BY a USING =;

-- COLLATE "C", "POSIX" and "default" are joind's comparison.
SELECT b FROM un_t ORDER BY b COLLATE "C";
SELECT b COLLATE "POSIX" AS b FROM un_t WHERE b < 'y' COLLATE "POSIX" ORDER BY 1;
SELECT 'a' < 'B' COLLATE "C" AS lt;
SELECT a COLLATE "C" FROM un_t;

-- Aggregate options.
SELECT count(*) FILTER (WHERE a > 1) AS f, count(DISTINCT b) AS d, count(ALL a) AS a FROM un_t;
SELECT max(a) FILTER (WHERE b IS NOT NULL) FROM un_t;

-- Catalog-style text arrays: element NULLs, trimming, quoting.
SELECT 'a' = ANY ('{a,NULL}'::text[]) AS t1, 'c' = ANY ('{a,NULL}'::text[]) AS t2,
       'a' = ANY ('{ a }'::text[]) AS t3, 'a' <> ALL ('{"b",c}'::text[]) AS t4;
SELECT 2 = ANY ('{1,2}'::int[]) AS t1, 3 = ALL ('{}'::int[]) AS t2;
SELECT ('{a,b}'::text[])[2] AS s2, ('{NULL,b}'::text[])[1] AS s1, ('{a}'::text[])[5] AS s5;
SELECT 1 = ANY ('{1.5}'::int[]);
SELECT 1 = ANY ('{1,2}'::int);

-- Row and subquery comparisons joind has.
SELECT a, (a, b) IN (SELECT a, d FROM un_u) AS r FROM un_t ORDER BY a;
SELECT a FROM un_t WHERE a = ANY (SELECT a FROM un_u) ORDER BY a;
SELECT a FROM un_t WHERE a > ALL (SELECT a FROM un_u WHERE a < 3) ORDER BY a;

-- Scalar forms.
SELECT a, CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS c, coalesce(a, 0) AS co,
       greatest(a, 2) AS g, least(a, 2) AS l, nullif(a, 1) AS n
FROM un_t ORDER BY a;
SELECT a, (a > 1) IS TRUE AS t, (a > 1) IS NOT UNKNOWN AS u, a IS DISTINCT FROM 1 AS d
FROM un_t ORDER BY a;
SELECT current_date = current_date AS d, localtimestamp(2) IS NOT NULL AS l, current_user = session_user AS u;

-- OPERATOR(schema.op): joind's operators are pg_catalog's.
SELECT 2 OPERATOR(pg_catalog.+) 3 AS five;
SELECT 2 OPERATOR(public.+) 3;
SELECT OPERATOR(public.-) 3;
SELECT 2 OPERATOR(un_nosuch.+) 3;
SELECT pg_catalog.lower('A') AS l, public.lower('A');
SELECT public.count(*) FROM un_t;
-- A scalar VALUES subquery's column is column1.
SELECT (VALUES (1)), (SELECT a FROM un_t ORDER BY a LIMIT 1);

-- Joins: NATURAL, USING, USING ... AS alias.
SELECT * FROM un_t NATURAL JOIN un_u ORDER BY a;
SELECT * FROM un_t JOIN un_u USING (a) ORDER BY a;
SELECT j.a, b, d FROM un_t FULL JOIN un_u USING (a) AS j ORDER BY 1;
SELECT j.* FROM un_t JOIN un_u USING (a) AS j ORDER BY 1;
SELECT j.a FROM (un_t JOIN un_u USING (a) AS j) AS jj;
SELECT * FROM un_t JOIN un_u USING (a, a);
SELECT * FROM un_t s(x, y, z);

-- LIMIT / OFFSET / FETCH forms.
SELECT a FROM un_t ORDER BY a OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY;
SELECT a FROM un_t ORDER BY a LIMIT ALL;

-- INSERT forms with nothing to ignore.
CREATE TABLE un_d (a int DEFAULT 7, b text);
INSERT INTO un_d DEFAULT VALUES;
INSERT INTO un_d VALUES (DEFAULT, 'x');
INSERT INTO un_d (b) OVERRIDING SYSTEM VALUE VALUES ('y');
INSERT INTO un_d AS d (a) VALUES (9);
SELECT * FROM un_d ORDER BY a, b;
CREATE TABLE un_c (s text COLLATE "C", i int COLLATE "C");
DROP TABLE un_d;

-- Numeric literals of PostgreSQL 16 (which pg_query parses) are PostgreSQL
-- 15 scanner errors.
SELECT 1_000;
SELECT 0x1F;
SELECT 1.5_0 AS x;
SELECT t1_0, '0x1F' AS s FROM (SELECT 1 AS t1_0) s;

-- PostgreSQL folds constant subexpressions when it plans: a failing one
-- fails the statement even if no row is read, in its order and only for
-- what the query still computes.
SELECT 1 / 0 FROM un_t WHERE false;
SELECT a FROM un_t WHERE a > 5 AND 1 / 0 = 1;
SELECT (1 / 0 = 1) AND false;
SELECT false AND (1 / 0 = 1) AS f;
SELECT CASE WHEN a > 1 THEN 1 ELSE 1 / 0 END FROM un_t WHERE false;
SELECT CASE WHEN false THEN 1 / 0 END AS c;
SELECT CASE WHEN true THEN 1 ELSE 1 / 0 END AS c;
SELECT coalesce(1, 1 / 0) AS c;
SELECT sum(1 / 0) FROM un_t WHERE false;
SELECT (SELECT 1 / 0 FROM un_t WHERE false);
SELECT EXISTS (SELECT 1 / 0) AS e;
SELECT 1 AS one FROM (SELECT 1 / 0 AS x) s;
SELECT 1 AS one FROM (VALUES (1 / 0)) v(x);
SELECT count(*) FROM (VALUES (1, 1 / 0), (2, 3)) v(a, b);

DROP TABLE un_t;
DROP TABLE un_u;
