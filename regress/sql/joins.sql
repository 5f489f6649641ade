--
-- joins: inner, outer, cross, USING, NATURAL, comma joins, NULL keys and
-- duplicates, self joins, multi-way joins, subqueries and VALUES in FROM.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE jo_l (id integer, k integer, lv text);
CREATE TABLE jo_r (id integer, k integer, rv text);
INSERT INTO jo_l VALUES (1, 1, 'l1'), (2, 2, 'l2'), (3, 2, 'l3'), (4, NULL, 'l4'), (5, 5, 'l5'), (6, NULL, 'l6');
INSERT INTO jo_r VALUES (10, 1, 'r1'), (11, 2, 'r2a'), (12, 2, 'r2b'), (13, 3, 'r3'), (14, NULL, 'r4'), (15, 7, 'r7');
CREATE TABLE jo_empty (k integer, ev text);

-- inner joins (duplicates multiply, NULL keys never match)
SELECT l.id, l.k, r.id AS rid, r.rv FROM jo_l l JOIN jo_r r ON l.k = r.k ORDER BY l.id, r.id;
SELECT l.id, r.id FROM jo_l l INNER JOIN jo_r r ON l.k = r.k AND r.rv <> 'r2b' ORDER BY 1, 2;
SELECT l.id, r.id FROM jo_l l JOIN jo_r r ON l.k < r.k ORDER BY 1, 2;
SELECT l.id, r.id FROM jo_l l JOIN jo_r r ON l.k = r.k OR (l.k IS NULL AND r.k IS NULL) ORDER BY 1, 2;
SELECT l.id, r.id FROM jo_l l JOIN jo_r r ON l.k IS NOT DISTINCT FROM r.k ORDER BY 1, 2;
SELECT l.id, r.id FROM jo_l l JOIN jo_r r ON true WHERE l.id = 1 ORDER BY 1, 2;
SELECT count(*) FROM jo_l l JOIN jo_r r ON l.k = r.k;
SELECT count(*) FROM jo_l JOIN jo_empty e ON jo_l.k = e.k;

-- outer joins
SELECT l.id, l.k, r.id AS rid, r.rv FROM jo_l l LEFT JOIN jo_r r ON l.k = r.k ORDER BY l.id, r.id;
SELECT l.id, r.id AS rid, r.k FROM jo_l l RIGHT JOIN jo_r r ON l.k = r.k ORDER BY r.id, l.id;
SELECT l.id, l.k AS lk, r.id AS rid, r.k AS rk FROM jo_l l FULL JOIN jo_r r ON l.k = r.k ORDER BY l.id NULLS LAST, r.id NULLS LAST;
SELECT l.id, r.id FROM jo_l l LEFT OUTER JOIN jo_r r ON l.k = r.k AND r.id > 11 ORDER BY 1, 2;
SELECT l.id, r.id FROM jo_l l LEFT JOIN jo_r r ON l.k = r.k WHERE r.id IS NULL ORDER BY 1;
SELECT l.id, r.id FROM jo_l l LEFT JOIN jo_r r ON l.k = r.k WHERE r.rv LIKE 'r2%' ORDER BY 1, 2;
SELECT l.id, e.ev FROM jo_l l LEFT JOIN jo_empty e ON l.k = e.k ORDER BY 1;
SELECT e.k, r.id FROM jo_empty e RIGHT JOIN jo_r r ON e.k = r.k ORDER BY 2;
SELECT l.id, e.k FROM jo_l l FULL JOIN jo_empty e ON l.k = e.k ORDER BY 1;
SELECT l.id, r.id FROM jo_l l LEFT JOIN jo_r r ON false ORDER BY 1;
SELECT l.id, r.id FROM jo_l l FULL JOIN jo_r r ON false ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT count(*), count(l.id), count(r.id) FROM jo_l l FULL OUTER JOIN jo_r r ON l.k = r.k;
SELECT l.id, r.id FROM jo_l l FULL JOIN jo_r r ON l.k = r.k AND l.id < 3 ORDER BY 1 NULLS LAST, 2 NULLS LAST;

-- cross and comma joins
SELECT l.id, r.id FROM jo_l l CROSS JOIN jo_r r WHERE l.id <= 2 AND r.id <= 11 ORDER BY 1, 2;
SELECT count(*) FROM jo_l, jo_r;
SELECT l.id, r.rv FROM jo_l l, jo_r r WHERE l.k = r.k AND l.id > 1 ORDER BY 1, 2;
SELECT count(*) FROM jo_l, jo_empty;

-- USING and NATURAL
CREATE TABLE jo_a (k integer, x text);
CREATE TABLE jo_b (k integer, y text);
INSERT INTO jo_a VALUES (1, 'a1'), (2, 'a2'), (NULL, 'anull'), (4, 'a4');
INSERT INTO jo_b VALUES (1, 'b1'), (2, 'b2'), (2, 'b2dup'), (NULL, 'bnull'), (5, 'b5');
SELECT * FROM jo_a JOIN jo_b USING (k) ORDER BY k, y;
SELECT k, x, y FROM jo_a LEFT JOIN jo_b USING (k) ORDER BY k NULLS LAST, x, y;
SELECT * FROM jo_a FULL JOIN jo_b USING (k) ORDER BY k NULLS LAST, x NULLS LAST, y NULLS LAST;
SELECT * FROM jo_a NATURAL JOIN jo_b ORDER BY k, y;
SELECT jo_a.k AS ak, jo_b.k AS bk FROM jo_a NATURAL FULL JOIN jo_b ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT * FROM jo_a JOIN jo_b USING (nosuch);
SELECT * FROM jo_l JOIN jo_r USING (k) ORDER BY 1, 2, 4;
SELECT id FROM jo_l JOIN jo_r USING (k);
SELECT jo_l.id, jo_r.id, k FROM jo_l JOIN jo_r USING (k) ORDER BY 1, 2;

-- self joins
CREATE TABLE jo_emp (id integer, name text, boss integer);
INSERT INTO jo_emp VALUES (1, 'root', NULL), (2, 'ann', 1), (3, 'bob', 1), (4, 'cat', 2), (5, 'dan', 4);
SELECT e.name, b.name AS boss FROM jo_emp e LEFT JOIN jo_emp b ON e.boss = b.id ORDER BY e.id;
SELECT e.name, b.name AS boss, bb.name AS grand_boss FROM jo_emp e JOIN jo_emp b ON e.boss = b.id
  JOIN jo_emp bb ON b.boss = bb.id ORDER BY e.id;
SELECT b.name, count(e.id) AS reports FROM jo_emp b LEFT JOIN jo_emp e ON e.boss = b.id GROUP BY b.name ORDER BY b.name;
SELECT a.id, b.id FROM jo_emp a JOIN jo_emp b ON a.id < b.id AND a.boss = b.boss ORDER BY 1, 2;

-- three-way joins
SELECT l.id, r.id AS rid, a.x FROM jo_l l JOIN jo_r r ON l.k = r.k JOIN jo_a a ON a.k = r.k ORDER BY 1, 2, 3;
SELECT l.id, r.id AS rid, b.y FROM jo_l l LEFT JOIN jo_r r ON l.k = r.k LEFT JOIN jo_b b ON b.k = r.k ORDER BY 1, 2, 3;
SELECT a.x, b.y, l.id FROM jo_a a FULL JOIN jo_b b ON a.k = b.k LEFT JOIN jo_l l ON l.k = COALESCE(a.k, b.k)
  ORDER BY 1 NULLS LAST, 2 NULLS LAST, 3 NULLS LAST;
SELECT l.id, r.id, a.x FROM jo_l l, jo_r r, jo_a a WHERE l.k = r.k AND r.k = a.k AND a.x <> 'a1' ORDER BY 1, 2;
SELECT a.x, b.y FROM jo_a a JOIN (jo_b b JOIN jo_r r ON b.k = r.k) ON a.k = b.k ORDER BY 1, 2;

-- subqueries and VALUES in FROM
SELECT s.k, s.n, r.rv FROM (SELECT k, count(*) AS n FROM jo_l GROUP BY k) s JOIN jo_r r ON s.k = r.k ORDER BY 1, 3;
SELECT v.code, v.label, l.lv FROM (VALUES (1, 'one'), (2, 'two'), (9, 'nine')) AS v(code, label)
  LEFT JOIN jo_l l ON l.k = v.code ORDER BY 1, 3;
SELECT * FROM (VALUES (1, 'a'), (NULL, 'b')) v(n, s) FULL JOIN (VALUES (1, 'x'), (3, 'y')) w(n, t) ON v.n = w.n
  ORDER BY v.n NULLS LAST, w.n NULLS LAST;
SELECT t.total, t.k FROM (SELECT k, sum(id) AS total FROM jo_r WHERE k IS NOT NULL GROUP BY k) AS t WHERE t.total > 11 ORDER BY t.k;
SELECT * FROM (SELECT 1 AS a) x JOIN (SELECT 1 AS a) y ON x.a = y.a;
SELECT * FROM (SELECT id FROM jo_l);
SELECT * FROM jo_l l JOIN jo_r r ON l.k = r.nosuch;
SELECT * FROM jo_l l JOIN jo_r r ON l.lv = r.id;
SELECT * FROM jo_l l JOIN jo_r r ON l.k;

-- join keys of different types
CREATE TABLE jo_types (i integer, b bigint, n numeric, f float8, t text);
INSERT INTO jo_types VALUES (1, 1, 1.0, 1.0, '1'), (2, 2, 2.5, 2.5, '2'), (3, 3, 3.00, 3, 'three');
SELECT x.i, y.b FROM jo_types x JOIN jo_types y ON x.i = y.b ORDER BY 1;
SELECT x.i, y.n FROM jo_types x JOIN jo_types y ON x.i = y.n ORDER BY 1;
SELECT x.n, y.f FROM jo_types x JOIN jo_types y ON x.n = y.f ORDER BY 1;
SELECT x.t, y.i FROM jo_types x JOIN jo_types y ON x.t = y.i::text ORDER BY 1;

DROP TABLE jo_l;
DROP TABLE jo_r;
DROP TABLE jo_empty;
DROP TABLE jo_a;
DROP TABLE jo_b;
DROP TABLE jo_emp;
DROP TABLE jo_types;
