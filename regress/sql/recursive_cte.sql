--
-- recursive_cte: WITH RECURSIVE (UNION ALL and UNION's dedup across
-- iterations, trees, graphs with cycles, counting), PostgreSQL's recursion
-- errors, WITH queries evaluated once (volatile, MATERIALIZED, referenced
-- twice), and data-modifying statements in WITH.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

-- counting
WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 5)
SELECT * FROM t ORDER BY n;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 10000)
SELECT count(*), sum(n), min(n), max(n) FROM t;
WITH RECURSIVE t(n) AS (SELECT 1::bigint UNION ALL SELECT n * 2 FROM t WHERE n < 1000000000000)
SELECT count(*), max(n) FROM t;
-- an unbounded recursion ended by LIMIT
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t)
SELECT * FROM t LIMIT 4;
-- fibonacci, two columns
WITH RECURSIVE fib(i, a, b) AS (
    SELECT 1, 0::numeric, 1::numeric
  UNION ALL
    SELECT i + 1, b, a + b FROM fib WHERE i < 90)
SELECT i, a FROM fib WHERE i IN (1, 2, 10, 50, 90) ORDER BY i;
-- text growing per iteration; the non-recursive literal resolves to text
WITH RECURSIVE t(s) AS (SELECT 'a' UNION ALL SELECT s || 'b' FROM t WHERE length(s) < 5)
SELECT s, length(s) FROM t ORDER BY 2;
-- no column list: names from the non-recursive term
WITH RECURSIVE t AS (SELECT 1 AS n, 'x' AS tag UNION ALL SELECT n + 1, tag FROM t WHERE n < 3)
SELECT * FROM t ORDER BY n;

-- UNION removes duplicates across iterations and ends a cycle
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT (n % 5) + 1 FROM t)
SELECT * FROM t ORDER BY n;
WITH RECURSIVE t(n) AS (VALUES (1), (1), (2) UNION SELECT n FROM t)
SELECT * FROM t ORDER BY n;
WITH RECURSIVE t(n) AS (VALUES (1), (1), (2) UNION ALL SELECT n + 10 FROM t WHERE n < 10)
SELECT * FROM t ORDER BY n;
WITH RECURSIVE t(a, b) AS (SELECT 1, NULL::int UNION SELECT a, b FROM t)
SELECT * FROM t;

-- a tree
CREATE TABLE rc_tree (id int, parent int, name text);
INSERT INTO rc_tree VALUES
  (1, NULL, 'root'), (2, 1, 'usr'), (3, 1, 'etc'), (4, 2, 'bin'), (5, 2, 'lib'),
  (6, 4, 'psql'), (7, 3, 'hosts'), (8, 5, 'libpq'), (9, 8, 'so');
WITH RECURSIVE sub(id, name, depth, path) AS (
    SELECT id, name, 0, '/' || name FROM rc_tree WHERE parent IS NULL
  UNION ALL
    SELECT t.id, t.name, s.depth + 1, s.path || '/' || t.name
    FROM rc_tree t JOIN sub s ON t.parent = s.id)
SELECT * FROM sub ORDER BY path;
-- the ancestors of a node
WITH RECURSIVE up(id, parent, name) AS (
    SELECT id, parent, name FROM rc_tree WHERE name = 'so'
  UNION ALL
    SELECT t.id, t.parent, t.name FROM rc_tree t, up WHERE t.id = up.parent)
SELECT id, name FROM up ORDER BY id;
-- the subtree sizes, the recursive query referenced twice and joined
WITH RECURSIVE anc(id, ancestor) AS (
    SELECT id, id FROM rc_tree
  UNION ALL
    SELECT a.id, t.parent FROM anc a JOIN rc_tree t ON t.id = a.ancestor WHERE t.parent IS NOT NULL)
SELECT t.name, count(*) AS size
FROM anc a JOIN rc_tree t ON t.id = a.ancestor
GROUP BY t.name ORDER BY size DESC, t.name;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3)
SELECT a.n, b.n FROM t a, t b WHERE a.n <= b.n ORDER BY 1, 2;

-- a graph with cycles
CREATE TABLE rc_edge (src int, dst int);
INSERT INTO rc_edge VALUES (1, 2), (2, 3), (3, 1), (3, 4), (4, 5), (5, 4), (6, 7);
-- reachability: UNION terminates on the cycles
WITH RECURSIVE reach(node) AS (
    SELECT 1
  UNION
    SELECT e.dst FROM rc_edge e JOIN reach r ON e.src = r.node)
SELECT node FROM reach ORDER BY node;
-- every pair (src, reachable)
WITH RECURSIVE tc(src, dst) AS (
    SELECT src, dst FROM rc_edge
  UNION
    SELECT tc.src, e.dst FROM tc JOIN rc_edge e ON e.src = tc.dst)
SELECT src, count(*) AS reachable, min(dst), max(dst) FROM tc GROUP BY src ORDER BY src;
-- walks of bounded length with UNION ALL, cycle detection by hand on a text path
WITH RECURSIVE walk(node, len, path, cyc) AS (
    SELECT 1, 0, ',1,', false
  UNION ALL
    SELECT e.dst, w.len + 1, w.path || e.dst || ',', w.path LIKE '%,' || e.dst || ',%'
    FROM rc_edge e JOIN walk w ON e.src = w.node
    WHERE NOT w.cyc AND w.len < 10)
SELECT node, len, path, cyc FROM walk ORDER BY len, path;
-- two recursive queries whose terms join a table, read side by side
WITH RECURSIVE
  fwd(node, len) AS (SELECT 1, 0 UNION SELECT e.dst, f.len + 1 FROM fwd f JOIN rc_edge e ON e.src = f.node WHERE f.len < 4),
  bwd(node, len) AS (SELECT 4, 0 UNION SELECT e.src, b.len + 1 FROM bwd b JOIN rc_edge e ON e.dst = b.node WHERE b.len < 4)
SELECT f.node, f.len AS from_1, b.len AS to_4 FROM fwd f JOIN bwd b ON f.node = b.node ORDER BY 1, 2, 3;
-- the recursive term reads a subquery in FROM and a WITH of its own
WITH RECURSIVE t(n) AS (
    SELECT 1
  UNION ALL
    SELECT n + 1 FROM (SELECT n FROM t) ss WHERE n < 4)
SELECT * FROM t ORDER BY n;
WITH RECURSIVE t(n) AS (
    WITH one AS (SELECT 1 AS k)
    SELECT k FROM one
  UNION ALL
    SELECT n + k FROM t, one WHERE n < 3)
SELECT * FROM t ORDER BY n;
-- a recursive query inside a subquery, and one using an earlier WITH query
SELECT (WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 10) SELECT sum(n) FROM t) AS s;
WITH RECURSIVE lim AS (SELECT 6 AS m),
  t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t, lim WHERE n < m)
SELECT max(n) FROM t;
-- WITH RECURSIVE binds its queries in dependency order: forward references
WITH RECURSIVE
    x(id) AS (SELECT * FROM y UNION ALL SELECT id + 1 FROM x WHERE id < 5),
    y(id) AS (VALUES (1))
SELECT * FROM x ORDER BY id;
WITH RECURSIVE
    a(n) AS (SELECT n * 10 FROM b),
    b(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM b WHERE n < 3)
SELECT * FROM a ORDER BY n;
-- an inner WITH query reading the working table, read twice: evaluated per iteration
WITH RECURSIVE t(n) AS (
    SELECT 1
  UNION ALL
    (WITH w AS (SELECT n FROM t) SELECT a.n + b.n FROM w a, w b WHERE a.n < 20))
SELECT * FROM t ORDER BY n;
-- an inner WITH query of the same name hides the recursive one
WITH RECURSIVE x(n) AS (
    SELECT 1
  UNION ALL
    (WITH y AS (SELECT n FROM x) SELECT n + 1 FROM y WHERE n < 3))
SELECT * FROM x ORDER BY n;
-- a LEFT JOIN with the recursive query on its outer side is allowed
WITH RECURSIVE t(n) AS (
    SELECT 1
  UNION ALL
    SELECT t.n + 1 FROM t LEFT JOIN rc_edge e ON e.src = t.n + 100 WHERE t.n < 3 AND e.src IS NULL)
SELECT * FROM t ORDER BY n;

-- errors
WITH RECURSIVE x(n) AS (SELECT 1 INTERSECT SELECT n + 1 FROM x)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT n FROM x)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT n FROM x UNION ALL SELECT 1)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM rc_edge LEFT JOIN x ON x.n = rc_edge.src WHERE x.n < 10)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM x FULL JOIN rc_edge ON x.n = rc_edge.src WHERE x.n < 10)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n IN (SELECT * FROM x))
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE EXISTS (SELECT 1 FROM x))
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT a.n + b.n FROM x a, x b WHERE a.n < 10)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL (SELECT n + 1 FROM x WHERE n < 10 EXCEPT SELECT 5))
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM x)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT sum(n) FROM x)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x ORDER BY 1)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x LIMIT 10 OFFSET 1)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x LIMIT 10)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT (n + 1)::bigint FROM x WHERE n < 5)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1.5::numeric(3,1) UNION ALL SELECT n + 1 FROM x WHERE n < 5)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT 'a' || n FROM x)
SELECT * FROM x;
WITH RECURSIVE x(n, m) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 5)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1, 2 FROM x WHERE n < 5)
SELECT * FROM x;
WITH RECURSIVE
    x(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM y WHERE id < 5),
    y(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM x WHERE id < 5)
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 3)
    SEARCH DEPTH FIRST BY m SET seq
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 3)
    CYCLE n SET c USING c
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 3)
    CYCLE m SET c USING p
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 3)
    CYCLE n SET c TO true DEFAULT 5 USING p
SELECT * FROM x;
WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 3)
    SEARCH BREADTH FIRST BY n, n SET seq
SELECT * FROM x;
-- without RECURSIVE the body cannot see its own name
WITH x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 5)
SELECT * FROM x;

-- WITH queries are evaluated once: volatile, MATERIALIZED, referenced twice
WITH q1(x) AS (SELECT random() FROM generate_series(1, 5))
SELECT count(*) FROM (SELECT * FROM q1 UNION SELECT * FROM q1) u;
WITH q1(x) AS (SELECT random() FROM generate_series(1, 5))
SELECT count(DISTINCT x) FROM (SELECT * FROM q1 UNION ALL SELECT * FROM q1) u;
WITH q AS (SELECT random() AS r)
SELECT a.r = b.r AS same FROM q a, q b;
WITH q AS MATERIALIZED (SELECT random() AS r)
SELECT (SELECT r FROM q) = (SELECT r FROM q) AS same;
WITH RECURSIVE t(n, r) AS (SELECT 1, random() UNION ALL SELECT n + 1, r FROM t WHERE n < 3)
SELECT count(DISTINCT a.r) FROM t a JOIN t b ON a.n = b.n;

-- data-modifying statements in WITH
CREATE TABLE rc_src (id int, v text);
CREATE TABLE rc_log (id int, v text, op text);
CREATE TABLE rc_other (k int);
INSERT INTO rc_src VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
WITH d AS (DELETE FROM rc_src WHERE id <= 2 RETURNING *)
INSERT INTO rc_log SELECT id, v, 'deleted' FROM d;
SELECT * FROM rc_src ORDER BY id;
SELECT * FROM rc_log ORDER BY id;
WITH u AS (UPDATE rc_src SET v = upper(v) WHERE id = 3 RETURNING id, v)
SELECT * FROM u;
-- a data-modifying WITH query reads an earlier one
WITH u AS (UPDATE rc_src SET v = v || '!' RETURNING id, v),
     i AS (INSERT INTO rc_log SELECT id, v, 'updated' FROM u RETURNING *)
SELECT * FROM i ORDER BY id;
-- the same table written by two parts: a later INSERT's rows are not seen
-- by an earlier DELETE (one snapshot)
WITH d AS (DELETE FROM rc_log WHERE op = 'deleted' RETURNING *)
INSERT INTO rc_log SELECT id + 100, v, 'moved' FROM d;
SELECT * FROM rc_log ORDER BY id;
WITH a AS (INSERT INTO rc_log VALUES (200, 'p', 'first') RETURNING id),
     b AS (INSERT INTO rc_log VALUES (201, 'q', 'second') RETURNING id)
SELECT (SELECT id FROM a) AS a, (SELECT id FROM b) AS b;
SELECT * FROM rc_log ORDER BY id;
-- (a part reading a table an earlier part wrote: PostgreSQL answers from
-- one snapshot, joind refuses: see regress/unsupported_test.go)
-- an unreferenced data-modifying query still runs, exactly once
WITH i AS (INSERT INTO rc_other VALUES (1), (2))
SELECT count(*) FROM rc_log;
SELECT * FROM rc_other ORDER BY k;
WITH i AS (INSERT INTO rc_other VALUES (3) RETURNING k)
SELECT 42 AS answer;
SELECT count(*) FROM rc_other;
-- two of them, one read twice
WITH a AS (DELETE FROM rc_other WHERE k < 3 RETURNING k),
     b AS (INSERT INTO rc_src VALUES (10, 'x'), (11, 'y') RETURNING id)
SELECT (SELECT count(*) FROM a) AS deleted, (SELECT sum(k) FROM a) AS deleted_sum,
       (SELECT count(*) FROM b) AS inserted;
SELECT * FROM rc_src ORDER BY id;
SELECT * FROM rc_other ORDER BY k;
WITH d AS (DELETE FROM rc_log WHERE op = 'updated' RETURNING id)
DELETE FROM rc_other WHERE k IN (SELECT id FROM d);
SELECT count(*) FROM rc_log;
-- errors
WITH i AS (INSERT INTO rc_other VALUES (9))
SELECT * FROM i;
SELECT * FROM (WITH d AS (DELETE FROM rc_other RETURNING k) SELECT * FROM d) s;
WITH d AS (DELETE FROM rc_other RETURNING k)
INSERT INTO rc_other SELECT k FROM nosuchtable;
SELECT count(*) FROM rc_other;

-- INSERT ... ON CONFLICT DO UPDATE as a WITH query, reading an earlier one
CREATE TABLE rc_wz (k int PRIMARY KEY, v text);
INSERT INTO rc_wz VALUES (1, 'a'), (2, 'b');
WITH simpletup AS (SELECT 2 AS k, 'Green' AS v),
     up AS (INSERT INTO rc_wz VALUES (2, 'Blue'), (3, 'Red') ON CONFLICT (k)
            DO UPDATE SET v = (SELECT v FROM simpletup WHERE simpletup.k = rc_wz.k) RETURNING k, v)
INSERT INTO rc_other SELECT k FROM up;
SELECT * FROM rc_wz ORDER BY k;
SELECT * FROM rc_other ORDER BY k;

DROP TABLE rc_tree, rc_edge, rc_src, rc_log, rc_other, rc_wz;
