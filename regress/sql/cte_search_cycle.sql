--
-- cte_search_cycle: WITH RECURSIVE ... SEARCH DEPTH/BREADTH FIRST BY ... SET
-- and CYCLE ... SET ... [TO v DEFAULT d] USING: the sequence column (record[]
-- depth first, record breadth first) and its order, cycle detection, the
-- mark and path columns, their text output, and PostgreSQL's errors.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE sc_tree (f int, t int, label text);
INSERT INTO sc_tree VALUES (1, 2, 'arc 1 -> 2'), (1, 3, 'arc 1 -> 3'), (2, 3, 'arc 2 -> 3'),
  (1, 4, 'arc 1 -> 4'), (4, 5, 'arc 4 -> 5'), (3, 10, 'arc 3 -> 10'), (10, 11, 'arc 10 -> 11');
CREATE TABLE sc_graph (f int, t int, label text);
INSERT INTO sc_graph SELECT * FROM sc_tree;
INSERT INTO sc_graph VALUES (5, 1, 'arc 5 -> 1'), (11, 2, 'arc 11 -> 2');

-- depth first: the sequence orders 10 after 2 (as integers, not text)
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_tree UNION ALL
  SELECT g.* FROM sc_tree g, s WHERE g.f = s.t
) SEARCH DEPTH FIRST BY f, t SET seq
SELECT * FROM s ORDER BY seq;
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_tree UNION
  SELECT g.* FROM sc_tree g, s WHERE g.f = s.t
) SEARCH DEPTH FIRST BY f, t SET seq
SELECT * FROM s ORDER BY seq DESC;
-- breadth first: (depth, columns)
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_tree WHERE f = 1 UNION ALL
  SELECT g.* FROM sc_tree g, s WHERE g.f = s.t
) SEARCH BREADTH FIRST BY t SET seq
SELECT * FROM s ORDER BY seq;
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_tree WHERE f = 1 UNION DISTINCT
  SELECT g.* FROM sc_tree g, s WHERE g.f = s.t
) SEARCH BREADTH FIRST BY t, label SET seq
SELECT f, t, seq FROM s ORDER BY seq DESC;
-- unbounded, ended by LIMIT
WITH RECURSIVE s AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM s) SEARCH DEPTH FIRST BY x SET y
SELECT * FROM s LIMIT 4;
WITH RECURSIVE s AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM s) SEARCH BREADTH FIRST BY x SET y
SELECT * FROM s LIMIT 4;
-- the sequence in expressions: comparison, text, the term reading it
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 4)
  SEARCH DEPTH FIRST BY n SET seq
SELECT n, seq::text, seq = seq AS same, length(seq::text) FROM s ORDER BY seq;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 4)
  SEARCH BREADTH FIRST BY n SET seq
SELECT a.n, b.n FROM s a, s b WHERE a.seq < b.seq AND b.n = 3 ORDER BY a.n;

-- fields of several types, NULLs and quoting in the records
CREATE TABLE sc_mixed (id int, nxt int, name text, d date, x float8, ok boolean);
INSERT INTO sc_mixed VALUES (1, 2, 'a b', '2020-01-02', 1.5, true), (2, 3, NULL, NULL, 'NaN', NULL),
  (3, 4, 'q"u\o', '1999-12-31', -2.25, false), (4, NULL, '', '2021-03-04', 1e100, true);
WITH RECURSIVE s AS (
  SELECT * FROM sc_mixed WHERE id = 1 UNION ALL
  SELECT m.* FROM sc_mixed m JOIN s ON m.id = s.nxt
) SEARCH DEPTH FIRST BY name, d, x, ok SET seq
SELECT id, seq FROM s ORDER BY seq;
WITH RECURSIVE s AS (
  SELECT * FROM sc_mixed WHERE id = 1 UNION ALL
  SELECT m.* FROM sc_mixed m JOIN s ON m.id = s.nxt
) SEARCH BREADTH FIRST BY x, name SET seq
SELECT id, seq FROM s ORDER BY seq;

-- CYCLE: default mark true/false
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_graph UNION ALL
  SELECT g.* FROM sc_graph g, s WHERE g.f = s.t
) CYCLE f, t SET is_cycle USING path
SELECT * FROM s ORDER BY path;
-- a mark of another type, UNION DISTINCT
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_graph UNION DISTINCT
  SELECT g.* FROM sc_graph g, s WHERE g.f = s.t
) CYCLE f, t SET is_cycle TO 'Y' DEFAULT 'N' USING path
SELECT * FROM s WHERE is_cycle = 'Y' ORDER BY path;
WITH RECURSIVE s AS (SELECT 0 AS x UNION ALL SELECT (x + 1) % 4 FROM s)
  CYCLE x SET c TO 1 DEFAULT 0 USING p
SELECT * FROM s ORDER BY p;
-- the recursive term may read the mark
WITH RECURSIVE s AS (SELECT 0 AS x UNION ALL SELECT (x + 1) % 4 FROM s WHERE NOT is_cycle)
  CYCLE x SET is_cycle USING p
SELECT * FROM s ORDER BY p;
-- * in the recursive term does not expand the added columns
WITH RECURSIVE a AS (SELECT 1 AS b UNION ALL SELECT * FROM a) CYCLE b SET c USING p
SELECT * FROM a ORDER BY p;
-- SEARCH and CYCLE together
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_graph UNION ALL
  SELECT g.* FROM sc_graph g, s WHERE g.f = s.t
) SEARCH DEPTH FIRST BY f, t SET seq
  CYCLE f, t SET is_cycle USING path
SELECT * FROM s WHERE f = 1 ORDER BY seq;
WITH RECURSIVE s(f, t, label) AS (
  SELECT * FROM sc_graph UNION ALL
  SELECT g.* FROM sc_graph g, s WHERE g.f = s.t
) SEARCH BREADTH FIRST BY f, t SET seq
  CYCLE t SET is_cycle USING path
SELECT f, t, seq, is_cycle, path FROM s WHERE is_cycle ORDER BY seq, path;
-- the same path, by hand
WITH RECURSIVE s(f, t, label, cnt) AS (
  SELECT *, 1 FROM sc_graph UNION ALL
  SELECT g.*, s.cnt + 1 FROM sc_graph g, s WHERE g.f = s.t AND NOT is_cycle
) CYCLE f, t SET is_cycle USING path
SELECT count(*), max(cnt), count(*) FILTER (WHERE is_cycle) FROM s;

-- errors
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_tree UNION ALL SELECT g.* FROM sc_tree g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY foo, tar SET seq SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_tree UNION ALL SELECT g.* FROM sc_tree g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY f, t SET label SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_tree UNION ALL SELECT g.* FROM sc_tree g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY f, t, f SET seq SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_graph UNION ALL SELECT g.* FROM sc_graph g, s WHERE g.f = s.t)
  CYCLE f, t SET is_cycle TO true DEFAULT 55 USING path SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_graph UNION ALL SELECT g.* FROM sc_graph g, s WHERE g.f = s.t)
  CYCLE f, t SET label TO true DEFAULT false USING path SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_graph UNION ALL SELECT g.* FROM sc_graph g, s WHERE g.f = s.t)
  CYCLE f, t SET foo TO true DEFAULT false USING foo SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_graph UNION ALL SELECT g.* FROM sc_graph g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY f, t SET foo CYCLE f, t SET foo TO true DEFAULT false USING path SELECT * FROM s;
WITH RECURSIVE s(f, t, label) AS (SELECT * FROM sc_graph UNION ALL SELECT * FROM sc_graph UNION ALL SELECT g.* FROM sc_graph g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM s;
WITH RECURSIVE x(col) AS (SELECT 1 UNION (WITH x AS (SELECT * FROM x) SELECT * FROM x))
  SEARCH DEPTH FIRST BY col SET seq SELECT * FROM x;

-- NULL marks: mark <> value is never true, so nothing recurses
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3) CYCLE n SET c TO NULL DEFAULT 2 USING p
SELECT * FROM s ORDER BY p;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3) CYCLE n SET c TO 1 DEFAULT NULL USING p
SELECT * FROM s ORDER BY p;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3) CYCLE n SET c TO 'a'::varchar(3) DEFAULT 'b' USING p
SELECT * FROM s ORDER BY p;
-- text literals of the non-recursive term become text; COPY of the columns
WITH RECURSIVE s(n, lab) AS (SELECT 1, 'a' UNION ALL SELECT n + 1, lab || 'x' FROM s WHERE n < 3)
  SEARCH DEPTH FIRST BY lab SET seq SELECT * FROM s ORDER BY seq;
COPY (WITH RECURSIVE s(n, lab) AS (SELECT 1, 'a b' UNION ALL SELECT n + 1, lab || ',x' FROM s WHERE n < 3)
  SEARCH DEPTH FIRST BY n, lab SET seq CYCLE n SET c USING p SELECT * FROM s ORDER BY seq) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (WITH RECURSIVE s(n, lab) AS (SELECT 1, 'a b' UNION ALL SELECT n + 1, lab || E'\t"' FROM s WHERE n < 3)
  SEARCH BREADTH FIRST BY n, lab SET seq SELECT * FROM s ORDER BY seq) TO STDOUT;

-- record and record[] are pseudo-types: no table or view column has them
CREATE VIEW sc_v AS WITH RECURSIVE s(f, t) AS (SELECT f, t FROM sc_tree UNION ALL SELECT g.f, g.t FROM sc_tree g, s WHERE g.f = s.t)
  SEARCH BREADTH FIRST BY f SET seq SELECT * FROM s;
CREATE TABLE sc_ctas AS WITH RECURSIVE s(f, t) AS (SELECT f, t FROM sc_tree UNION ALL SELECT g.f, g.t FROM sc_tree g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY f SET seq SELECT * FROM s;
SELECT * INTO sc_into FROM (WITH RECURSIVE s(f, t) AS (SELECT f, t FROM sc_graph UNION ALL SELECT g.f, g.t FROM sc_graph g, s WHERE g.f = s.t)
  CYCLE f SET c USING p SELECT * FROM s) z;
-- a view may use SEARCH and CYCLE inside
CREATE VIEW sc_v AS WITH RECURSIVE s(f, t) AS (SELECT f, t FROM sc_graph UNION ALL SELECT g.f, g.t FROM sc_graph g, s WHERE g.f = s.t)
  SEARCH DEPTH FIRST BY f, t SET seq CYCLE f SET c TO 'y' DEFAULT 'n' USING p
  SELECT f, t, seq::text AS seq, c FROM s;
SELECT * FROM sc_v WHERE c = 'y' ORDER BY seq;
DROP VIEW sc_v;

-- numeric, interval, char(n), varchar, timestamptz, arrays and bytea: the
-- records keep each value's text (1.50 stays 1.50) and compare as
-- record_eq and record_cmp do (numeric 1.50 = 1.5, interval '1 day' =
-- '24 hours', char(n) padding ignored)
CREATE TABLE sc_typed (id int, nxt int, n numeric, i interval, c char(4), v varchar(5), ts timestamptz, a int[], b bytea);
INSERT INTO sc_typed VALUES (1, 2, 1.50, '1 day', 'ab', 'x y', '2020-01-01 10:00+00', '{1,2}', '\x01'),
  (2, 3, 1.5, '24 hours', 'ab  ', 'x"y', '2021-01-01', '{}', '\x'),
  (3, 1, 2.000, '1 mon', NULL, NULL, NULL, '{NULL,3}', NULL);
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt)
  CYCLE n SET cy USING p SELECT id, cy, p FROM s ORDER BY p;
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt)
  CYCLE i SET cy USING p SELECT id, cy, p FROM s ORDER BY p;
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt)
  CYCLE c SET cy TO 'Y' DEFAULT 'N' USING p SELECT id, cy, p FROM s ORDER BY p;
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt)
  CYCLE id, a SET cy USING p SELECT id, cy, p FROM s ORDER BY p;
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt WHERE s.id < 3)
  SEARCH DEPTH FIRST BY n, i, c, v, ts, a, b SET seq SELECT id, seq FROM s ORDER BY seq;
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt WHERE s.id < 3)
  SEARCH BREADTH FIRST BY n, i, c SET seq SELECT id, seq FROM s ORDER BY seq DESC;
WITH RECURSIVE s AS (SELECT * FROM sc_typed WHERE id = 1 UNION ALL SELECT t.* FROM sc_typed t JOIN s ON t.id = s.nxt WHERE s.id < 3)
  SEARCH BREADTH FIRST BY b SET seq CYCLE id SET cy USING p
SELECT id, seq, cy, p, pg_typeof(seq), pg_typeof(p) FROM s ORDER BY seq;
-- the sequence is a real record[]: subscripts, length, ||
WITH RECURSIVE s(n) AS (SELECT 1.5 UNION ALL SELECT n + 1.00 FROM s WHERE n < 3)
  SEARCH DEPTH FIRST BY n SET seq
SELECT n, seq[1] AS first, seq[2:3] AS rest, array_length(seq, 1), seq || seq[1] AS twice FROM s ORDER BY seq;
-- a table's whole row as a CYCLE column
WITH RECURSIVE s(x, k) AS (SELECT sc_typed, 1 FROM sc_typed WHERE id = 2 UNION ALL SELECT x, k + 1 FROM s WHERE k < 3)
  CYCLE x SET cy USING p SELECT k, cy, p FROM s ORDER BY k;
-- json has no equality: CYCLE over it fails; SEARCH builds its sequence
WITH RECURSIVE s(n, j) AS (SELECT 1, '{"a":1}'::json UNION ALL SELECT n + 1, j FROM s WHERE n < 3)
  CYCLE j SET c USING p SELECT * FROM s;
WITH RECURSIVE s(n, j) AS (SELECT 1, '{"a":1}'::json UNION ALL SELECT n + 1, j FROM s WHERE n < 3)
  SEARCH DEPTH FIRST BY j SET seq SELECT n, seq FROM s ORDER BY n;
WITH RECURSIVE s(n, j) AS (SELECT 1, '{"a":1}'::json UNION ALL SELECT n + 1, j FROM s WHERE n < 3)
  SEARCH DEPTH FIRST BY j SET seq SELECT n FROM s ORDER BY seq;
-- the records' fields have no names
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3)
  SEARCH DEPTH FIRST BY n SET seq SELECT (seq[1]).f1 FROM s;
DROP TABLE sc_typed;

DROP TABLE sc_tree, sc_graph, sc_mixed;
