--
-- rows_distinct_on: SELECT DISTINCT ON (the first row of each key group in
-- ORDER BY's order, and PostgreSQL's rule that the keys lead the ORDER BY),
-- FETCH FIRST ... WITH TIES, LIMIT / OFFSET given by expressions and
-- parameters, and row constructors: comparisons, IS [NOT] DISTINCT FROM,
-- IS [NOT] NULL, IN lists and subqueries, field selection.
--
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

CREATE TABLE ro_t (id int PRIMARY KEY, a int, b int, c text);
INSERT INTO ro_t SELECT i, i % 7, i % 5, 'x' || i FROM generate_series(1, 300) i;
INSERT INTO ro_t VALUES (301, NULL, 1, 'n1'), (302, NULL, 0, 'n0'), (303, 2, NULL, 'nb');

-- DISTINCT ON: one row per key, the first by ORDER BY
SELECT DISTINCT ON (a) a, b, c FROM ro_t ORDER BY a, b, c;
SELECT DISTINCT ON (a) a, b, id FROM ro_t ORDER BY a DESC NULLS LAST, b DESC, id;
SELECT DISTINCT ON (a, b) a, b, id FROM ro_t ORDER BY a, b, id DESC LIMIT 12;
SELECT DISTINCT ON (b, a) a, b, id FROM ro_t ORDER BY a, b, id OFFSET 30;
SELECT DISTINCT ON (b) b, a FROM ro_t ORDER BY b, a DESC;
-- keys given by output name and position, and not in the select list
SELECT DISTINCT ON (x) a AS x, id FROM ro_t ORDER BY x, id;
SELECT DISTINCT ON (1) a, id FROM ro_t ORDER BY 1, 2 DESC;
SELECT DISTINCT ON (b) id FROM ro_t ORDER BY b, id;
SELECT DISTINCT ON (a % 3) a % 3 AS m, id FROM ro_t ORDER BY a % 3, id;
-- without ORDER BY the rows come out in key order
SELECT DISTINCT ON (b) b FROM ro_t;
-- keys beyond the ORDER BY sort after it
SELECT DISTINCT ON (a, b) a, b FROM ro_t ORDER BY a;
-- over groups
SELECT DISTINCT ON (cnt) count(*) AS cnt, a FROM ro_t GROUP BY a ORDER BY cnt, a;
-- in a subquery, with a filter above it that must not move below it
SELECT * FROM (SELECT DISTINCT ON (a) a, id FROM ro_t ORDER BY a, id) s WHERE id > 3 ORDER BY a;
SELECT count(*) FROM (SELECT DISTINCT ON (a, b) a FROM ro_t ORDER BY a, b) s;
-- the keys must match the leading ORDER BY items
SELECT DISTINCT ON (b) a, b FROM ro_t ORDER BY a, b;
SELECT DISTINCT ON (a, c) a, b FROM ro_t ORDER BY a, b, c;
SELECT DISTINCT ON (nosuch) a FROM ro_t;
SELECT DISTINCT ON (5) a FROM ro_t;

-- FETCH FIRST ... WITH TIES
SELECT a FROM ro_t ORDER BY a FETCH FIRST 2 ROWS WITH TIES;
SELECT a, b FROM ro_t ORDER BY a NULLS FIRST, b FETCH FIRST 3 ROWS WITH TIES;
SELECT a, count(*) FROM (SELECT a, id FROM ro_t ORDER BY a OFFSET 40 FETCH FIRST 1 ROW WITH TIES) s GROUP BY a;
SELECT a FROM ro_t ORDER BY a FETCH FIRST ROWS WITH TIES;
SELECT a FROM ro_t ORDER BY a FETCH FIRST 0 ROWS WITH TIES;
SELECT a FROM ro_t ORDER BY a DESC FETCH FIRST (1 + 1) ROWS WITH TIES;
SELECT a FROM ro_t ORDER BY a FETCH FIRST NULL ROWS WITH TIES;
SELECT a FROM ro_t FETCH FIRST 2 ROWS WITH TIES;
SELECT a FROM (VALUES (3), (1), (1), (2)) v(a) ORDER BY 1 FETCH FIRST 2 ROWS WITH TIES;
SELECT count(*) FROM (SELECT a FROM ro_t ORDER BY a FETCH FIRST 50 ROWS WITH TIES) s;

-- LIMIT and OFFSET: ALL, NULL, FETCH ... ONLY, expressions evaluated at run time
SELECT id FROM ro_t ORDER BY id LIMIT ALL OFFSET 299;
SELECT id FROM ro_t ORDER BY id LIMIT NULL OFFSET 300;
SELECT id FROM ro_t ORDER BY id OFFSET 301;
SELECT id FROM ro_t ORDER BY id FETCH FIRST ROW ONLY;
SELECT id FROM ro_t ORDER BY id OFFSET 1 ROW FETCH NEXT 2 ROWS ONLY;
SELECT id FROM ro_t ORDER BY id LIMIT (CASE WHEN random() < 2 THEN 3 END);
SELECT id FROM ro_t ORDER BY id LIMIT (CASE WHEN random() < 2 THEN NULL::int END) OFFSET 300;
SELECT id FROM ro_t ORDER BY id OFFSET (CASE WHEN random() < 2 THEN 301 END);
SELECT id FROM ro_t ORDER BY id LIMIT (SELECT 2);
SELECT id FROM ro_t ORDER BY id LIMIT 2.6;
SELECT id FROM ro_t ORDER BY id LIMIT -1;
SELECT id FROM ro_t ORDER BY id OFFSET -1;
SELECT id FROM ro_t ORDER BY id LIMIT (CASE WHEN random() < 2 THEN -1 END);
SELECT id FROM ro_t ORDER BY id OFFSET (CASE WHEN random() < 2 THEN -1 END);
SELECT id FROM ro_t LIMIT id;
SELECT id FROM ro_t LIMIT 'x';
SELECT o.a, (SELECT count(*) FROM (SELECT 1 FROM ro_t LIMIT o.a) s) FROM (VALUES (1), (4)) o(a) ORDER BY 1;
PREPARE ro_p(int, int) AS SELECT id, c FROM ro_t ORDER BY id LIMIT $1 OFFSET $2;
EXECUTE ro_p(3, 4);
EXECUTE ro_p(NULL, 299);
EXECUTE ro_p(-1, 0);
EXECUTE ro_p(1, -1);
DEALLOCATE ro_p;
PREPARE ro_q(int) AS SELECT a FROM ro_t ORDER BY a FETCH FIRST $1 ROWS WITH TIES;
EXECUTE ro_q(1);
DEALLOCATE ro_q;

-- row constructors
SELECT (1, 2) = (1, 2) AS eq, (1, 2) <> (1, 3) AS ne, (1, NULL) = (1, 2) AS eqnull,
       (1, NULL) = (2, 2) AS eqfalse, (1, NULL) <> (2, 2) AS nefalse;
SELECT ROW(1, 2) < ROW(1, 3) AS lt, (1, NULL) < (2, 0) AS ltdecided, (1, NULL) < (1, 0) AS ltnull,
       (2, NULL) <= (1, 5) AS le, ROW(1, 2) >= ROW(1, 2) AS ge, ROW(1, 2) > ROW(1, 2) AS gt,
       (1, 2, 3) > (1, 2, 2) AS gt3, ('a', 1) < ('b', 0) AS txt;
SELECT ROW(NULL, 1) IS NULL AS n1, ROW(NULL, NULL) IS NULL AS n2, ROW(1, NULL) IS NOT NULL AS nn1,
       ROW(1, 2) IS NOT NULL AS nn2, NOT ROW(1, NULL) IS NULL AS notn;
SELECT (1, 2) IS DISTINCT FROM (1, NULL) AS d1, (1, NULL) IS NOT DISTINCT FROM (1, NULL) AS d2,
       (NULL, 2) IS DISTINCT FROM (NULL, 2) AS d3;
SELECT (1, 2) IN ((1, 2), (3, 4)) AS i1, (1, 2) NOT IN ((1, 3), (3, 4)) AS i2,
       (1, NULL) NOT IN ((1, 3), (3, 4)) AS i3, (1, NULL) IN ((1, 2)) AS i4;
SELECT id, a, b FROM ro_t WHERE (a, b) < (0, 3) ORDER BY id;
SELECT id, a, b FROM ro_t WHERE (a, b) >= (6, 4) ORDER BY id;
SELECT id FROM ro_t WHERE ROW(a, b) = ROW(2, NULL) ORDER BY id;
SELECT id FROM ro_t WHERE (a, b) IS NOT DISTINCT FROM (2, NULL) ORDER BY id;
SELECT id FROM ro_t WHERE (a, b) IS NULL OR (b, a) IS NULL ORDER BY id;
SELECT count(*) FROM ro_t WHERE (a, b) IN (SELECT a, b FROM ro_t WHERE id < 4);
SELECT count(*) FROM ro_t WHERE (a, b) NOT IN (SELECT a, b FROM ro_t WHERE id < 4);
SELECT count(*) FROM ro_t WHERE (a, b) NOT IN (SELECT a, b FROM ro_t WHERE id IN (1, 303));
SELECT count(*) FROM ro_t WHERE ROW(a, b) = ANY (SELECT a, b FROM ro_t WHERE id > 300);
SELECT id FROM ro_t t WHERE ROW(t.*) = ROW(1, 1, 1, 'x1');
SELECT id FROM ro_t WHERE (a, b) = (1, 2, 3);
SELECT id FROM ro_t WHERE (a, b) ~~ ('a', 'b');
SELECT id FROM ro_t WHERE (a, b) = (c, 1);
-- a row constructor compared with a one-row subquery
SELECT (1, 2) = (SELECT 1, 2) AS a, (1, 2) < (SELECT 1, 3) AS b, (1, 2) <> (SELECT 1, 2) AS c,
       (1, 2) = (SELECT 1, 2 WHERE false) AS d;
SELECT (1, 2) = (SELECT 1, 2 UNION ALL SELECT 1, 2);
SELECT (1, 2) = (SELECT 1);
SELECT (1, 2) = (SELECT 1, 2, 3);
SELECT id, a, b, (a, b) >= (SELECT min(a), max(b) FROM ro_t r WHERE r.id > ro_t.id + 295) AS ge
FROM ro_t WHERE id > 294 ORDER BY id;
SELECT id FROM ro_t WHERE (a, b) = (SELECT 3, 4) ORDER BY id LIMIT 3;
-- a row constructor cast to text: record_out's quoting
SELECT CAST(ROW('Jim', 'Beam') AS text) AS a, (ROW('Jim', 'Beam'))::text AS b, ROW()::text AS c,
       ROW(NULL)::text AS d, ROW(NULL, NULL)::text AS e;
SELECT ROW(1, 'a b', NULL, '', 'q"x', 'b\s', '(', true, 1.50, 2.5::float8, 'x'::char(3),
           date '2020-01-02', interval '1 day', timestamp '2020-01-01 10:00')::text;
SELECT ROW(1, 2)::varchar(3) AS v, ROW(1, 2)::char(7) || '|' AS c, ROW(t.*)::text AS r
FROM ro_t t WHERE id IN (1, 301, 303) ORDER BY id;
-- field selection
SELECT (ROW(1, 2.0)).f1, (ROW(1, 2.0)).f2, ((1, 'x'::text)).f2 AS g;
SELECT (ROW(1, 2.0)).*;
SELECT (ROW(1, 2.0)).nosuch;
SELECT (t).a, (t.*).c FROM ro_t t WHERE id = 5;
SELECT (t).* FROM ro_t t WHERE id = 6;
SELECT (t).nosuch FROM ro_t t;
SELECT (nosuch).a FROM ro_t;
SELECT nosuch IS NULL FROM ro_t;
-- IS [NOT] NULL of a FROM item's whole row: every column NULL / not NULL
CREATE TABLE ro_n (a int, b int);
INSERT INTO ro_n VALUES (1, 2), (2, NULL), (NULL, NULL);
SELECT ro_n.a, ro_n.b, ro_n IS NULL AS isnull, ro_n IS NOT NULL AS notnull,
       s IS NULL AS s_null, s.* IS NOT NULL AS s_notnull
FROM ro_n LEFT JOIN (SELECT a, b FROM ro_n WHERE b IS NOT NULL) s ON ro_n.a = s.a ORDER BY 1, 2;
SELECT count(*) FROM ro_n WHERE ro_n IS NULL;
DROP TABLE ro_n;

DROP TABLE ro_t;
