--
-- decorrelate: correlated subqueries of TPC-H's shapes (Q2, Q17, Q20, Q21,
-- Q22) and LATERAL aggregates unnested into joins and grouped aggregates, and the semi-join
-- reduction of a grouped aggregate by the outer side's keys: NULL keys,
-- empty scopes, the count bug, duplicates on the outer side, 21000, and
-- errors that must neither vanish nor appear.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE dc_l (ok int, sk int, late bool, q numeric);
CREATE TABLE dc_o (ok int, st char(1), name text);
CREATE TABLE dc_ps (pk int, sk int, avail int, cost numeric);
INSERT INTO dc_l VALUES (1, 1, true, 5), (1, 2, false, 6), (1, 2, true, 7), (2, 1, true, 1), (2, 1, true, 2),
  (3, 1, true, 3), (3, 2, NULL, 4), (3, NULL, true, 8), (NULL, 1, true, 9), (4, 3, false, NULL), (4, 4, true, 2),
  (7, 1, true, 0);
INSERT INTO dc_o VALUES (1, 'F', 'one'), (2, 'F', 'two'), (3, 'F', 'three'), (4, 'F', 'four'), (5, 'O', 'five'),
  (NULL, 'F', 'null'), (1, 'F', 'one again');
INSERT INTO dc_ps VALUES (1, 1, 10, 2), (1, 2, 3, 1), (2, 1, 0, 5), (3, 3, 1, NULL), (NULL, 1, 5, 1), (4, 3, 1, 1), (4, 4, 100, 1);

-- Q21's shape: EXISTS / NOT EXISTS with a non-equi correlated conjunct
SELECT l1.ok, l1.sk, l1.q FROM dc_l l1, dc_o WHERE dc_o.ok = l1.ok AND dc_o.st = 'F' AND l1.late
  AND EXISTS (SELECT * FROM dc_l l2 WHERE l2.ok = l1.ok AND l2.sk <> l1.sk)
  AND NOT EXISTS (SELECT * FROM dc_l l3 WHERE l3.ok = l1.ok AND l3.sk <> l1.sk AND l3.late)
  ORDER BY 1, 2, 3;
SELECT l1.ok, l1.sk, l1.q,
  EXISTS (SELECT * FROM dc_l l2 WHERE l2.ok = l1.ok AND l2.sk <> l1.sk) e,
  NOT EXISTS (SELECT * FROM dc_l l3 WHERE l3.ok = l1.ok AND l3.sk <> l1.sk AND l3.late) ne
  FROM dc_l l1 ORDER BY 1, 2, 3;
-- Q20's shape: a correlated scalar aggregate inside IN
SELECT pk, sk FROM dc_ps WHERE sk IN (SELECT sk FROM dc_ps p2 WHERE p2.avail > (SELECT 0.5 * sum(q) FROM dc_l
  WHERE dc_l.ok = p2.pk AND dc_l.sk = p2.sk)) ORDER BY 1, 2;
SELECT pk, sk, avail > (SELECT 0.5 * sum(q) FROM dc_l WHERE dc_l.ok = dc_ps.pk AND dc_l.sk = dc_ps.sk) big
  FROM dc_ps ORDER BY 1, 2;
SELECT pk, sk FROM dc_ps WHERE pk IN (SELECT ok FROM dc_o WHERE name LIKE 't%')
  AND avail > (SELECT 0.5 * sum(q) FROM dc_l WHERE dc_l.ok = dc_ps.pk AND dc_l.sk = dc_ps.sk) ORDER BY 1, 2;
-- Q2's shape: equality with a correlated min over a join
SELECT pk, sk, cost FROM dc_ps WHERE cost = (SELECT min(p2.cost) FROM dc_ps p2, dc_o WHERE p2.pk = dc_ps.pk
  AND dc_o.ok = p2.sk AND dc_o.st = 'F') ORDER BY 1, 2;
-- Q17's shape: comparison with a correlated avg, the outer side a filtered join
SELECT ok, sk, q FROM dc_l WHERE q < (SELECT 0.9 * avg(q) FROM dc_l l2 WHERE l2.ok = dc_l.ok) ORDER BY 1, 2, 3;
SELECT dc_o.name, dc_l.q FROM dc_l, dc_o WHERE dc_o.ok = dc_l.ok AND dc_o.name LIKE '%o%'
  AND dc_l.q <= (SELECT avg(q) FROM dc_l l2 WHERE l2.ok = dc_o.ok) ORDER BY 1, 2;
-- Q22's shape: an uncorrelated avg and NOT EXISTS
SELECT ok, sk, q FROM dc_l WHERE q > (SELECT avg(q) FROM dc_l WHERE q > 2)
  AND NOT EXISTS (SELECT * FROM dc_o WHERE dc_o.ok = dc_l.ok) ORDER BY 1, 2, 3;
-- the count bug: count over an empty scope is 0, compared and computed
SELECT ok, name FROM dc_o WHERE (SELECT count(*) FROM dc_l WHERE dc_l.ok = dc_o.ok AND dc_l.late) < 2 ORDER BY 1, 2;
SELECT ok, name, (SELECT count(*) * 2 + 1 FROM dc_l WHERE dc_l.ok = dc_o.ok) c,
  (SELECT count(q) FROM dc_l WHERE dc_l.ok = dc_o.ok) cq,
  (SELECT coalesce(max(q), -1) FROM dc_l WHERE dc_l.ok = dc_o.ok) m FROM dc_o ORDER BY 1, 2;
SELECT name FROM dc_o WHERE name LIKE '%e' AND 0 = (SELECT count(*) FROM dc_l WHERE dc_l.ok = dc_o.ok) ORDER BY 1;
-- duplicates on the outer side
SELECT o.ok, (SELECT sum(q) FROM dc_l WHERE dc_l.ok = o.ok) s FROM dc_o o, dc_o o2
  WHERE o.ok = o2.ok OR o2.ok IS NULL ORDER BY 1, 2;
-- 21000: scalar subqueries that are not a plain aggregate stay per row
SELECT ok, (SELECT q FROM dc_l WHERE dc_l.ok = dc_o.ok) FROM dc_o WHERE ok = 4 ORDER BY 1;
SELECT ok, (SELECT sk FROM dc_l WHERE dc_l.ok = dc_o.ok GROUP BY sk) FROM dc_o WHERE ok IN (2, 5) ORDER BY 1;
SELECT ok, (SELECT sk FROM dc_l WHERE dc_l.ok = dc_o.ok GROUP BY sk) FROM dc_o ORDER BY 1;
SELECT ok FROM dc_o WHERE 1 = (SELECT sk FROM dc_l WHERE dc_l.ok = dc_o.ok) ORDER BY 1;
SELECT ok, (SELECT count(*) FROM dc_l WHERE dc_l.ok = dc_o.ok HAVING count(*) > 1) FROM dc_o ORDER BY 1, 2;
-- an inner key that can fail: with no outer row PostgreSQL never computes it
SELECT ok, (SELECT count(*) FROM dc_l WHERE dc_l.sk + 2147483647 = dc_o.ok) FROM dc_o WHERE ok > 100;
SELECT ok, (SELECT count(*) FROM dc_l WHERE dc_l.sk + 2147483647 = dc_o.ok) FROM dc_o ORDER BY 1;
-- an aggregate argument that can fail, in a group no outer row reads: still an error
SELECT ok, (SELECT sum(10 / q) FROM dc_l WHERE dc_l.ok = dc_o.ok) FROM dc_o ORDER BY 1;
SELECT dc_o.ok, s.t FROM dc_o LEFT JOIN (SELECT ok, sum(10 / q) t FROM dc_l GROUP BY ok) s ON s.ok = dc_o.ok
  WHERE dc_o.name LIKE 't%' ORDER BY 1;
-- a grouped derived table joined on its key: the aggregate reads only the outer side's keys
SELECT dc_o.name, s.n, s.total FROM dc_o LEFT JOIN (SELECT ok, count(*) n, sum(q) total FROM dc_l GROUP BY ok) s
  ON s.ok = dc_o.ok WHERE dc_o.name LIKE 't%' OR dc_o.name LIKE 'n%' ORDER BY 1;
SELECT dc_o.name, s.n FROM dc_o JOIN (SELECT ok, sk, count(*) n FROM dc_l GROUP BY ok, sk) s
  ON s.ok = dc_o.ok AND s.sk = 1 WHERE dc_o.st = 'F' ORDER BY 1, 2;
SELECT p.pk, p.sk, s.n FROM dc_ps p LEFT JOIN (SELECT ok, sk, count(*) n FROM dc_l GROUP BY ok, sk) s
  ON s.ok = p.pk AND s.sk = p.sk WHERE p.avail < 50 ORDER BY 1, 2, 3;
-- a LIKE pattern ending in the escape character fails where matching reaches it
SELECT name FROM dc_o WHERE name LIKE 'x\' AND 0 = (SELECT count(*) FROM dc_l WHERE dc_l.ok = dc_o.ok);
SELECT name FROM dc_o WHERE name LIKE 'fiv\' AND 0 = (SELECT count(*) FROM dc_l WHERE dc_l.ok = dc_o.ok);
SELECT dc_o.name, s.n FROM dc_o LEFT JOIN (SELECT ok, count(*) n FROM dc_l GROUP BY ok) s ON s.ok = dc_o.ok
  WHERE dc_o.name LIKE 'fiv\' ORDER BY 1;

DROP TABLE dc_l, dc_o, dc_ps;

-- keys whose equality is not identity (float -0 = 0, NaN = NaN, numeric 1.0 = 1.00), reduced by a filtered outer side
CREATE TABLE dc_fa (x int, z float8, n numeric, t text);
CREATE TABLE dc_fb (y int, z float8, n numeric, t text);
INSERT INTO dc_fa VALUES (1, 0, 1.0, 'a'), (2, '-0', 1.00, 'b'), (3, 'NaN', 2, NULL), (4, NULL, NULL, 'a'), (5, 1, 3, 'c'), (6, 0, 1, 'a');
INSERT INTO dc_fb VALUES (10, '-0', 1, 'a'), (20, 0, 1.000, 'a'), (30, 'NaN', 2.0, NULL), (40, 'NaN', 2, 'b'), (50, NULL, NULL, NULL), (60, 2, 5, 'zz');
SELECT x, (SELECT count(*) FROM dc_fb WHERE dc_fb.z = dc_fa.z) c, (SELECT sum(y) FROM dc_fb WHERE dc_fb.z = dc_fa.z) s FROM dc_fa WHERE x > 1 ORDER BY x;
SELECT x, (SELECT count(*) FROM dc_fb WHERE dc_fb.n = dc_fa.n) c, (SELECT max(y) FROM dc_fb WHERE dc_fb.n = dc_fa.n) s FROM dc_fa WHERE x <> 5 ORDER BY x;
SELECT x, (SELECT count(*) FROM dc_fb WHERE dc_fb.n = dc_fa.x) c FROM dc_fa WHERE t = 'a' ORDER BY x;
SELECT x, (SELECT count(*) FROM dc_fb WHERE dc_fb.t = dc_fa.t AND dc_fb.z = dc_fa.z) c FROM dc_fa WHERE x < 6 ORDER BY x;
SELECT x, s.c FROM dc_fa LEFT JOIN (SELECT z, count(*) c FROM dc_fb GROUP BY z) s ON s.z = dc_fa.z WHERE x > 1 ORDER BY x;
SELECT x, s.c FROM dc_fa JOIN (SELECT n, count(*) c FROM dc_fb GROUP BY n) s ON s.n = dc_fa.n WHERE x > 1 ORDER BY x;
SELECT x, s.c FROM dc_fa JOIN (SELECT n, t, count(*) c FROM dc_fb GROUP BY n, t) s ON s.n = dc_fa.n AND s.t = dc_fa.t WHERE x > 0 ORDER BY x;
SELECT x, s.c FROM dc_fa LEFT JOIN (SELECT y % 20 AS k, count(*) c FROM dc_fb GROUP BY y % 20) s ON s.k = dc_fa.x * 10 WHERE x > 0 ORDER BY x;
SELECT a1.x, a2.x, (SELECT count(*) FROM dc_fb WHERE dc_fb.z = a2.z) FROM dc_fa a1 JOIN dc_fa a2 ON a1.t = a2.t WHERE a1.x > 1 ORDER BY 1, 2;
DROP TABLE dc_fa, dc_fb;

-- LATERAL over an aggregate without GROUP BY (one row per left row): the grouped left join, every column
CREATE TABLE dc_la (x int, z int);
CREATE TABLE dc_lb (y int, z int, w text);
INSERT INTO dc_la VALUES (1, 1), (2, 2), (3, NULL), (4, 4), (5, 1), (6, 9);
INSERT INTO dc_lb VALUES (10, 1, 'a'), (20, 1, 'b'), (30, 2, NULL), (NULL, 2, 'c'), (40, NULL, 'd'), (0, 9, 'e');
SELECT x, s.n, s.ny, s.total, s.top FROM dc_la CROSS JOIN LATERAL (SELECT count(*) n, count(y) ny, sum(y) total, max(w) top FROM dc_lb WHERE dc_lb.z = dc_la.z) s ORDER BY x;
SELECT x, s.* FROM dc_la LEFT JOIN LATERAL (SELECT count(*) + 100 AS shifted, coalesce(sum(y), -1) AS filled FROM dc_lb WHERE dc_lb.z = dc_la.z) s ON true ORDER BY x;
SELECT x, s.r FROM dc_la JOIN LATERAL (SELECT 100 / count(*) AS r FROM dc_lb WHERE dc_lb.z = dc_la.z) s ON true WHERE x <> 3 AND x <> 4 ORDER BY x;
SELECT x, s.r FROM dc_la JOIN LATERAL (SELECT 100 / count(*) AS r FROM dc_lb WHERE dc_lb.z = dc_la.z) s ON true ORDER BY x;
SELECT x, s.r FROM dc_la, LATERAL (SELECT 100 / min(y) AS r FROM dc_lb WHERE dc_lb.z = dc_la.z) s WHERE x < 6 ORDER BY x;
SELECT x, s.r FROM dc_la, LATERAL (SELECT 100 / min(y) AS r FROM dc_lb WHERE dc_lb.z = dc_la.z) s ORDER BY x;
SELECT x, s.n FROM dc_la LEFT JOIN LATERAL (SELECT count(*) AS n FROM dc_lb WHERE dc_lb.z = dc_la.z) s ON s.n > 1 ORDER BY x;
SELECT x, s.n FROM dc_la, LATERAL (SELECT count(*) AS n FROM dc_lb WHERE dc_lb.z = dc_la.z AND dc_lb.y > 5) s WHERE s.n = 0 ORDER BY x;
SELECT x, s.n FROM dc_la, LATERAL (SELECT count(*) AS n FROM dc_lb WHERE dc_lb.z + 2147483647 = dc_la.z) s WHERE x > 100;
SELECT a1.x, s.n FROM dc_la a1 JOIN dc_la a2 ON a1.z = a2.z, LATERAL (SELECT count(*) AS n FROM dc_lb WHERE dc_lb.z = a2.z) s ORDER BY 1, 2;
DROP TABLE dc_la, dc_lb;
