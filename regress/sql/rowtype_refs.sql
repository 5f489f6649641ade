--
-- rowtype_refs: whole-row references, ROW(...) values, record text input
-- and output, field selection, row comparisons and records as sort, group
-- and hash keys.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE rt_t (a integer, b text, c numeric(6,2));
INSERT INTO rt_t VALUES (1, 'x', 1.50), (2, 'a b', NULL), (3, NULL, NULL),
  (4, '', 2.00), (5, 'q"u\o(t)e,', -3.25), (10, 'x', 1.50);
CREATE TABLE rt_u (k integer NOT NULL, a integer, b text, c numeric(6,2));
INSERT INTO rt_u VALUES (1, 1, 'x', 1.50), (2, 3, NULL, NULL), (3, 7, 'y', 0.00);
CREATE TABLE rt_n (a integer, b text);
INSERT INTO rt_n VALUES (NULL, NULL), (1, NULL);

-- whole-row references and their text output (record_out quoting)
SELECT rt_t FROM rt_t ORDER BY a;
SELECT t FROM rt_t t ORDER BY a;
SELECT rt_t.a, rt_t FROM rt_t WHERE a < 3 ORDER BY a;
SELECT x FROM rt_t AS x(p, q) ORDER BY p;
SELECT rt_n FROM rt_n ORDER BY a;
SELECT s FROM (SELECT a, b FROM rt_t WHERE a <= 2) s ORDER BY a;
SELECT rt_t::text, length(rt_t::text) FROM rt_t ORDER BY a;

-- ROW(...) in select lists, nesting, quoting of empty strings and NULLs
SELECT ROW(1, 'a b', NULL, '');
SELECT ROW(1, ROW(2, 'x y'), ROW(NULL, NULL));
SELECT (1, 'two', 3.5);
SELECT ROW(a, b) FROM rt_t ORDER BY a;
SELECT ROW(rt_t.*, 'extra') FROM rt_t WHERE a = 1;
SELECT ROW();

-- field selection
SELECT (rt_t).a, (rt_t).b FROM rt_t ORDER BY 1;
SELECT (rt_t.*).c FROM rt_t ORDER BY a;
SELECT (ROW(1, 'x'::text)).f2;
SELECT (ROW(1, 'x'::text)).f3;
SELECT (s.r).b FROM (SELECT rt_t AS r FROM rt_t) s ORDER BY (s.r).a;
SELECT (r).nosuch FROM (SELECT rt_t AS r FROM rt_t) s;
SELECT (1).x;
SELECT (rt_t).* FROM rt_t WHERE a = 2;
SELECT (ROW(1, 'x'::text)).*;
SELECT (r).* FROM (SELECT ROW(a, b) AS r FROM rt_t) s ORDER BY 1;
SELECT (r).* FROM (SELECT rt_t AS r FROM rt_t WHERE a = 5) s;
SELECT (a).* FROM rt_t;

-- record input through a table's row type
SELECT '(1,abc,2.5)'::rt_t;
SELECT ' ( 7 , "a b" , ) '::rt_t;
SELECT '(1,"q""x\\y",)'::rt_t;
SELECT ('(4,four,4.00)'::rt_t).b;
SELECT '1,abc,2'::rt_t;
SELECT '(1,abc)'::rt_t;
SELECT '(1,abc,2,3)'::rt_t;
SELECT '(1,abc,2) x'::rt_t;
SELECT '(x,abc,2)'::rt_t;
SELECT ROW(1, 'b', 2)::rt_t;
SELECT ROW(1, 2, 3)::rt_t;
SELECT ROW(1, 2)::rt_t;
SELECT ROW(1, 'b', 2, 3)::rt_t;
SELECT (NULL::rt_t).a;

-- comparisons of row constructors: three-valued, lexicographic
SELECT ROW(1, 2) < ROW(1, 3), ROW(1, 2) < ROW(1, 1), ROW(1, 2) < ROW(1, NULL);
SELECT ROW(1, 2, 3) < ROW(1, 3, NULL), ROW(1, 2, 3) = ROW(1, NULL, 4), ROW(1, 2, 3) <> ROW(1, NULL, 4);
SELECT ROW(1, NULL) IS DISTINCT FROM ROW(1, NULL), ROW(1, 2) IS NOT DISTINCT FROM ROW(1, 2);
SELECT ROW(1, 2) IS NULL, ROW(NULL, NULL) IS NULL, ROW(NULL, 1) IS NOT NULL, ROW(1, 1) IS NOT NULL;
SELECT ROW(1, 2) IN (ROW(3, 4), ROW(1, 2)), ROW(1, 2) NOT IN (ROW(3, 4), ROW(1, NULL));

-- comparisons of record values: record_eq / record_cmp (NULL fields equal)
SELECT a, rt_t = rt_t AS self, rt_t IS NULL AS isnull, rt_t IS NOT NULL AS notnull FROM rt_t ORDER BY a;
SELECT a, n IS NULL, n IS NOT NULL FROM (SELECT a, rt_n AS n FROM rt_n) s ORDER BY a;
SELECT t1.a, t2.a FROM rt_t t1, rt_t t2 WHERE t1 < t2 AND t1.a < 3 AND t2.a < 4 ORDER BY 1, 2;
SELECT x = y, x < y, x >= y, x IS DISTINCT FROM y
  FROM (SELECT ROW(1, NULL::int) AS x, ROW(1, 2) AS y) s;
SELECT rt_t = '(1,x,1.50)'::rt_t FROM rt_t ORDER BY a;
SELECT a FROM rt_t WHERE rt_t IN ('(1,x,1.5)'::rt_t, '(3,,)'::rt_t) ORDER BY a;
SELECT a FROM rt_t WHERE rt_t IN (ROW(2, 'a b', NULL)::rt_t, '(10,x,1.5)') ORDER BY a;
SELECT a FROM rt_t WHERE rt_t = 1;
SELECT ROW(a, b) ~~ ROW(b, b) FROM rt_t;
SELECT x < y FROM (SELECT ROW(1, 2) AS x, ROW(1, 'a'::text) AS y) s;
SELECT x = y FROM (SELECT ROW(1, 2) AS x, ROW(1) AS y) s;

-- records as sort, group, distinct and set-operation keys
SELECT rt_t FROM rt_t ORDER BY rt_t DESC;
SELECT r FROM (SELECT ROW(b, a) AS r FROM rt_t) s ORDER BY r;
SELECT DISTINCT ROW(b, c) FROM rt_t ORDER BY 1;
SELECT ROW(b, c), count(*) FROM rt_t GROUP BY ROW(b, c) ORDER BY 1;
SELECT count(rt_t.*), count(DISTINCT ROW(b, c)) FROM rt_t;
SELECT t, count(*) FROM rt_t t GROUP BY t ORDER BY t;
SELECT t FROM rt_t t GROUP BY a, b, c;
SELECT t.b, count(t.*) FROM rt_t t GROUP BY t.b ORDER BY 1;
SELECT rt_t FROM rt_t WHERE a < 3 UNION SELECT rt_t FROM rt_t WHERE a < 5 ORDER BY 1;
SELECT ROW(a, b) FROM rt_t INTERSECT SELECT ROW(a, b) FROM rt_u ORDER BY 1;
SELECT rt_t FROM rt_t UNION ALL SELECT rt_n FROM rt_n;

-- keys compare fields as record_eq does: 1.0 = 1.00, -0 = 0, char(n) padding
SELECT count(DISTINCT ROW(x)) FROM (VALUES (1.0::numeric), (1.00), (2)) v(x);
SELECT count(*) FROM (VALUES (1.0::numeric), (1.00), (2)) v(x) GROUP BY ROW(x) ORDER BY 1;
SELECT count(*) FROM (SELECT DISTINCT ROW(x, y) FROM (VALUES (0.0::float8, 'a'::char(3)), (-0.0, 'a  '), (1, 'b')) v(x, y)) s;
SELECT count(*) FROM (SELECT ROW(x) FROM (VALUES (1.0::numeric), (2)) v(x) UNION SELECT ROW(x) FROM (VALUES (1.000::numeric)) w(x)) s;
SELECT count(*) FROM (SELECT ROW(x) r FROM (VALUES (1.0::numeric)) a(x)) a JOIN (SELECT ROW(x) r FROM (VALUES (1.00::numeric)) b(x)) b ON a.r = b.r;

-- records as join and subquery keys
SELECT t.a FROM rt_t t JOIN rt_t t2 ON t = t2 ORDER BY 1;
SELECT a FROM rt_t WHERE ROW(a, b) IN (SELECT ROW(a, b) FROM rt_u) ORDER BY 1;
SELECT a FROM rt_t t WHERE t IN (SELECT t2 FROM rt_t t2 WHERE t2.a < 4 OR t2.b = 'x') ORDER BY 1;
SELECT a FROM rt_t t WHERE t NOT IN (SELECT t2 FROM rt_t t2 WHERE t2.a < 4) ORDER BY 1;
SELECT a, EXISTS (SELECT 1 FROM rt_u u WHERE ROW(u.a, u.b) = ROW(t.a, t.b)) FROM rt_t t ORDER BY 1;

-- outer joins: a null-extended whole row is NULL
SELECT t.a, u FROM rt_t t LEFT JOIN rt_u u ON u.a = t.a ORDER BY t.a;
SELECT t.a, u IS NULL FROM rt_t t LEFT JOIN rt_u u ON u.a = t.a ORDER BY t.a;
SELECT count(u.*), count(*) FROM rt_t t LEFT JOIN rt_u u ON u.a = t.a;
-- ... also for a side without NOT NULL columns, whose rows may be all NULL
SELECT t.a, n, n IS NULL FROM rt_t t LEFT JOIN rt_n n ON n.a = t.a OR (t.a = 3 AND n.a IS NULL) ORDER BY t.a;
SELECT t.a, count(n.*), count(n.b) FROM rt_t t LEFT JOIN rt_n n ON n.a IS NULL OR n.a = t.a GROUP BY t.a ORDER BY t.a;
SELECT t.a, n, n2 FROM rt_t t LEFT JOIN (rt_n n LEFT JOIN rt_n n2 ON n2.a = n.a) ON n.a = t.a - 1 ORDER BY t.a;
SELECT n, t FROM rt_n n FULL JOIN rt_t t ON t.a = n.a AND t.a > 1 ORDER BY t.a, n.a;
SELECT t.a, s FROM rt_t t LEFT JOIN LATERAL (SELECT n.b FROM rt_n n WHERE n.a = t.a) s ON true ORDER BY t.a;

-- a record-valued column cannot be stored
CREATE TABLE rt_bad AS SELECT ROW(1, 2) AS r;

DROP TABLE rt_t, rt_u, rt_n;
