-- Answers joind once gave differently from PostgreSQL 15.
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';
CREATE TABLE wa_t (a int);
INSERT INTO wa_t VALUES (1);
-- An unknown literal is read by its type's input function in the parser:
-- an error even where no row is read.
SELECT 'abc'::date FROM wa_t WHERE false;
-- text to date/interval/timestamptz casts are stable: run per row, never
-- while planning.
SELECT ('abc'::text)::date FROM wa_t WHERE false;
SELECT ('abc'::text)::date FROM wa_t;
SELECT ('abc'::text)::interval FROM wa_t WHERE false;
SELECT ('x'::varchar)::timestamptz FROM wa_t WHERE false;
SELECT ('2020-01-02'::text)::date FROM wa_t;
SELECT ('2020-01-01 00:00'::timestamp)::timestamptz FROM wa_t;
-- Immutable casts and functions of constants fold while planning: their
-- errors arise even where no row is read, unless the expression is pruned.
SELECT (1000000::int)::smallint FROM wa_t WHERE false;
SELECT x FROM (SELECT (1000000::int)::smallint AS y, a AS x FROM wa_t) s;
SELECT ('abc'::text)::int FROM wa_t WHERE false;
SELECT date_trunc('foo', '2020-01-01'::timestamp) FROM wa_t WHERE false;
SELECT make_date(2020, 13, 1) FROM wa_t WHERE false;
-- ... but stable ones (timestamptz's) only when evaluated.
SELECT date_trunc('foo', '2020-01-01'::timestamptz) FROM wa_t WHERE false;
SELECT '2020-01-01'::timestamptz + '1 day'::interval FROM wa_t WHERE false;
SELECT date_trunc('foo', '2020-01-01'::timestamptz) FROM wa_t;
-- ON COMMIT needs a temporary table.
CREATE TABLE wa_oc (a int) ON COMMIT DELETE ROWS;
-- -2147483648 is one integer constant (the parser folds the minus in).
SELECT -2147483648 AS a, -2147483649 AS b, 2147483648 AS c, -9223372036854775808 AS d;
SELECT -2147483648 - 1;
SELECT gcd(-2147483648, 0);
SELECT gcd(-2147483648, -2147483648);
SELECT lcm(-2147483648, 1);
SELECT abs(-2147483648);
SELECT -(-2147483648);
SELECT gcd((-9223372036854775808)::int8, 0);
CREATE TABLE wa_d (a bigint DEFAULT -2147483648, b int DEFAULT -2147483648, c bigint DEFAULT -2147483649);
SELECT column_name, column_default FROM information_schema.columns WHERE table_name = 'wa_d' ORDER BY 1;
DROP TABLE wa_d;
-- Interval qualifiers.
SELECT interval '1' year, interval '1-2' year to month, interval '3' month;
-- A volatile or subquery column read twice through a subquery is one value
-- per row (projections are not merged into two evaluations).
SELECT count(*) FILTER (WHERE r = r2) AS same FROM (SELECT r, r AS r2 FROM (SELECT random() AS r FROM generate_series(1, 20)) s) q;
SELECT count(*) FILTER (WHERE m = m2) AS same FROM (SELECT m, m AS m2 FROM (SELECT (SELECT random() FROM wa_t) AS m FROM generate_series(1, 20)) s) q;
CREATE TABLE wa_u (a int);
INSERT INTO wa_u VALUES (0), (1), (1);
-- A correlated aggregate subquery's select list is computed for the outer
-- rows only: the group a = 0, which no outer row reads, divides by nothing.
SELECT a, (SELECT 10 / min(wa_u.a) FROM wa_u WHERE wa_u.a = wa_t.a) AS q FROM wa_t ORDER BY a;
SELECT a FROM wa_t WHERE a < (SELECT 10 / max(wa_u.a) FROM wa_u WHERE wa_u.a = wa_t.a) ORDER BY a;
DROP TABLE wa_u;
-- A correlated subquery's computations that can fail (division) run only
-- where PostgreSQL runs them: u has a row a = 0 that no row of t matches.
CREATE TABLE wa_dt (a int);
CREATE TABLE wa_du (a int, b int);
INSERT INTO wa_dt VALUES (1), (2), (NULL);
INSERT INTO wa_du VALUES (0, 0), (1, 1), (2, NULL), (2, 2), (NULL, 5);
-- LATERAL select lists are computed for joined rows (LEFT: NULL-extended
-- rows get NULL).
SELECT * FROM wa_dt CROSS JOIN LATERAL (SELECT 10 / wa_du.a AS q FROM wa_du WHERE wa_du.a = wa_dt.a) s ORDER BY 1, 2;
SELECT * FROM wa_dt LEFT JOIN LATERAL (SELECT 10 / wa_du.a AS q FROM wa_du WHERE wa_du.a = wa_dt.a) s ON true ORDER BY 1, 2;
SELECT * FROM wa_dt LEFT JOIN LATERAL (SELECT 10 / wa_du.a AS q, wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a) s ON true ORDER BY 1, 2, 3;
-- PostgreSQL pulls these up and evaluates them at the scan: errors there too.
SELECT * FROM wa_dt CROSS JOIN LATERAL (SELECT 10 / wa_du.a AS q FROM wa_du WHERE wa_du.a = wa_dt.a) s WHERE s.q > 1 ORDER BY 1, 2;
SELECT * FROM wa_dt LEFT JOIN LATERAL (SELECT coalesce(10 / wa_du.a, 0) AS q FROM wa_du WHERE wa_du.a = wa_dt.a) s ON true ORDER BY 1, 2;
SELECT * FROM wa_dt CROSS JOIN LATERAL (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) s ORDER BY 1, 2;
-- A correlated IN runs per outer row in PostgreSQL: its value and its
-- conditions only see the rows the correlation selects.
SELECT * FROM wa_dt WHERE a IN (SELECT 10 / wa_du.a FROM wa_du WHERE wa_du.a = wa_dt.a) ORDER BY 1;
SELECT * FROM wa_dt WHERE a NOT IN (SELECT 10 / wa_du.a FROM wa_du WHERE wa_du.a = wa_dt.a) ORDER BY 1;
SELECT a, a IN (SELECT 20 / wa_du.a FROM wa_du WHERE wa_du.a = wa_dt.a) AS m FROM wa_dt ORDER BY 1;
SELECT * FROM wa_dt WHERE a IN (SELECT wa_du.a FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) ORDER BY 1;
SELECT * FROM wa_dt WHERE a NOT IN (SELECT wa_du.a FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) ORDER BY 1;
SELECT * FROM wa_dt WHERE a NOT IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) ORDER BY 1;
SELECT a, a IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) AS m FROM wa_dt ORDER BY 1;
SELECT a, a NOT IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) AS m FROM wa_dt ORDER BY 1;
-- The condition decides which NULLs NOT IN sees: (2, NULL) fails 10 / a > 5.
SELECT a, a NOT IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 5) AS m FROM wa_dt ORDER BY 1;
SELECT a, a NOT IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 4) AS m FROM wa_dt ORDER BY 1;
SELECT * FROM wa_dt WHERE a NOT IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 5) ORDER BY 1;
SELECT * FROM wa_dt WHERE a IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 5) ORDER BY 1;
-- PostgreSQL tests the cheaper condition first: wa_dt.a + 1 costs as much
-- as the division, which it then tests first, on every row.
SELECT a, a NOT IN (SELECT wa_du.b FROM wa_du WHERE wa_du.a = wa_dt.a + 1 AND 10 / wa_du.a > 5) AS m FROM wa_dt ORDER BY 1;
-- Aggregate scalar subqueries run per outer row too: their arguments and
-- conditions see only that row's scope.
SELECT a, (SELECT sum(10 / wa_du.a) FROM wa_du WHERE wa_du.a = wa_dt.a) AS s FROM wa_dt ORDER BY 1;
SELECT a, (SELECT count(*) FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) AS n FROM wa_dt ORDER BY 1;
SELECT a, (SELECT max(wa_du.b) FILTER (WHERE 10 / wa_du.a > 1) FROM wa_du WHERE wa_du.a = wa_dt.a) AS m FROM wa_dt ORDER BY 1;
-- EXISTS becomes a semi join (or a hashed subplan) in PostgreSQL, its
-- conditions evaluated on every row: an error there too.
SELECT * FROM wa_dt WHERE EXISTS (SELECT 1 FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) ORDER BY 1;
SELECT * FROM wa_dt WHERE NOT EXISTS (SELECT 1 FROM wa_du WHERE wa_du.a = wa_dt.a AND 10 / wa_du.a > 1) ORDER BY 1;
-- Not a WHERE conjunct and correlated by an inequality, EXISTS runs per
-- outer row in PostgreSQL: the division sees the correlation's rows only;
-- a NULL correlation test ends the AND, as in any WHERE clause.
SELECT a, EXISTS (SELECT 1 FROM wa_du WHERE wa_du.a > wa_dt.a AND 10 / wa_du.a > 1) AS e FROM wa_dt ORDER BY 1;
SELECT a FROM wa_dt d WHERE a = 1 OR NOT EXISTS (SELECT 1 FROM wa_du WHERE wa_du.a > d.a AND 10 / wa_du.a > 1) ORDER BY 1;
SELECT a FROM wa_dt WHERE EXISTS (SELECT 1 FROM wa_du WHERE wa_du.a > wa_dt.a AND 10 / wa_du.a > 1) ORDER BY 1;
-- An EXISTS subquery's select list is never evaluated.
SELECT * FROM wa_dt WHERE EXISTS (SELECT 10 / wa_du.a FROM wa_du WHERE wa_du.a = wa_dt.a) ORDER BY 1;
-- Uncorrelated subqueries run once over all their rows: errors.
SELECT * FROM wa_dt WHERE a IN (SELECT 10 / wa_du.a FROM wa_du) ORDER BY 1;
SELECT * FROM wa_dt WHERE a NOT IN (SELECT wa_du.a FROM wa_du WHERE 10 / wa_du.a > 1) ORDER BY 1;
SELECT a, (SELECT sum(10 / wa_du.a) FROM wa_du) FROM wa_dt ORDER BY 1;
-- A WHERE clause's AND stops at the first condition that is not true,
-- NULL included (PostgreSQL's qual list); a select list's AND does not.
SELECT * FROM (VALUES (0), (1), (2)) v(a) WHERE nullif(a, 0) > 0 AND 10 / a > 1 ORDER BY 1;
SELECT * FROM (VALUES (0), (1), (2)) v(a) WHERE NOT (nullif(a, 0) > 0 AND 10 / a > 1) ORDER BY 1;
SELECT a, nullif(a, 0) > 0 AND 10 / a > 1 AS c FROM (VALUES (0), (1), (2)) v(a) ORDER BY 1;
SELECT * FROM wa_dt JOIN wa_du ON nullif(wa_du.a, 0) = wa_dt.a AND 10 / wa_du.a > 1 ORDER BY 1, 2;
SELECT a, b FROM (VALUES (0, NULL), (1, 2)) v(a, b) GROUP BY a, b HAVING b > 0 AND 10 / a > 1 ORDER BY 1;
-- A NOT NULL violation names the column and relation as written, quotes
-- included (INSERT and COPY FROM build the one message).
CREATE TABLE "wa_we""ird" ("c""ol" int NOT NULL, b text);
INSERT INTO "wa_we""ird" VALUES (NULL, 'x"y');
COPY "wa_we""ird" FROM STDIN (FORMAT csv);
,z
\.
DROP TABLE "wa_we""ird";
-- Set operations and DISTINCT over rows of no columns.
SELECT UNION SELECT;
SELECT INTERSECT SELECT;
SELECT EXCEPT ALL SELECT;
SELECT count(*) FROM (SELECT FROM generate_series(1, 3) INTERSECT ALL SELECT FROM generate_series(1, 2)) s;
SELECT count(*) FROM (SELECT DISTINCT FROM generate_series(1, 3)) s;
DROP TABLE wa_dt;
DROP TABLE wa_du;
DROP TABLE wa_t;
