--
-- subqueries: scalar subqueries, EXISTS, IN / NOT IN with NULLs (three-
-- valued logic), ANY/ALL, and correlated subqueries.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE sq_o (id integer, k integer, name text);
CREATE TABLE sq_i (k integer, v integer);
CREATE TABLE sq_nonull (k integer);
CREATE TABLE sq_empty (k integer);
INSERT INTO sq_o VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c'), (4, NULL, 'd'), (5, 5, 'e');
INSERT INTO sq_i VALUES (1, 10), (2, 20), (2, 21), (NULL, 30), (4, 40);
INSERT INTO sq_nonull VALUES (1), (2), (4);

-- scalar subqueries
SELECT (SELECT max(v) FROM sq_i) AS maxv, (SELECT count(*) FROM sq_i) AS n;
SELECT id, (SELECT max(v) FROM sq_i WHERE sq_i.k = sq_o.k) AS maxv FROM sq_o ORDER BY id;
SELECT id FROM sq_o WHERE k = (SELECT min(k) FROM sq_i) ORDER BY id;
SELECT id, k - (SELECT avg(k) FROM sq_nonull) AS delta FROM sq_o ORDER BY id;
SELECT (SELECT k FROM sq_empty) AS empty_is_null;
SELECT (SELECT v FROM sq_i WHERE k = 2);
SELECT (SELECT k, v FROM sq_i WHERE k = 1);
SELECT id, (SELECT name FROM sq_o o2 WHERE o2.id = sq_o.id + 1) AS next_name FROM sq_o ORDER BY id;

-- EXISTS / NOT EXISTS
SELECT id FROM sq_o WHERE EXISTS (SELECT 1 FROM sq_i WHERE sq_i.k = sq_o.k) ORDER BY id;
SELECT id FROM sq_o WHERE NOT EXISTS (SELECT 1 FROM sq_i WHERE sq_i.k = sq_o.k) ORDER BY id;
SELECT id FROM sq_o WHERE EXISTS (SELECT 1 FROM sq_empty) ORDER BY id;
SELECT id FROM sq_o WHERE NOT EXISTS (SELECT 1 FROM sq_empty) ORDER BY id;
SELECT EXISTS (SELECT 1 FROM sq_i WHERE v > 35) AS any_big, NOT EXISTS (SELECT 1 FROM sq_i WHERE v > 99) AS none_huge;
SELECT id FROM sq_o WHERE EXISTS (SELECT NULL) ORDER BY id;
SELECT id FROM sq_o o WHERE EXISTS (SELECT 1 FROM sq_i i WHERE i.k = o.k AND i.v > 15) ORDER BY id;
SELECT id, EXISTS (SELECT 1 FROM sq_i WHERE sq_i.k IS NOT DISTINCT FROM sq_o.k) AS has_match FROM sq_o ORDER BY id;

-- IN / NOT IN: NULLs on either side
SELECT id, k FROM sq_o WHERE k IN (SELECT k FROM sq_i) ORDER BY id;
SELECT id, k FROM sq_o WHERE k NOT IN (SELECT k FROM sq_i) ORDER BY id;
SELECT id, k FROM sq_o WHERE k NOT IN (SELECT k FROM sq_i WHERE k IS NOT NULL) ORDER BY id;
SELECT id, k FROM sq_o WHERE k NOT IN (SELECT k FROM sq_nonull) ORDER BY id;
SELECT id, k FROM sq_o WHERE k NOT IN (SELECT k FROM sq_empty) ORDER BY id;
SELECT id, k FROM sq_o WHERE k IN (SELECT k FROM sq_empty) ORDER BY id;
SELECT id, k, k IN (SELECT k FROM sq_i) AS in_i, k NOT IN (SELECT k FROM sq_i) AS not_in_i,
  k IN (SELECT k FROM sq_nonull) AS in_nn, k NOT IN (SELECT k FROM sq_nonull) AS not_in_nn,
  k NOT IN (SELECT k FROM sq_empty) AS not_in_empty FROM sq_o ORDER BY id;
SELECT id FROM sq_o WHERE NOT (k IN (SELECT k FROM sq_i)) ORDER BY id;
SELECT id FROM sq_o WHERE (k NOT IN (SELECT k FROM sq_i)) IS NULL ORDER BY id;
SELECT id FROM sq_o WHERE k NOT IN (SELECT k FROM sq_i WHERE sq_i.v < sq_o.id * 10) ORDER BY id;
SELECT id FROM sq_o WHERE k IN (SELECT k FROM sq_i WHERE v > 15) AND k NOT IN (SELECT k FROM sq_nonull WHERE k > 3) ORDER BY id;
SELECT count(*) FROM sq_o WHERE k NOT IN (SELECT NULL::integer);
SELECT id FROM sq_o WHERE k IN (SELECT k FROM sq_i UNION SELECT 5) ORDER BY id;
SELECT id FROM sq_o WHERE (k, id) IN (SELECT k, k FROM sq_nonull) ORDER BY id;
SELECT id FROM sq_o WHERE k IN (SELECT k, v FROM sq_i);
SELECT id FROM sq_o WHERE name IN (SELECT k FROM sq_i);

-- ANY / SOME / ALL
SELECT id, k FROM sq_o WHERE k = ANY (SELECT k FROM sq_i) ORDER BY id;
SELECT id, k FROM sq_o WHERE k > ANY (SELECT k FROM sq_nonull) ORDER BY id;
SELECT id, k FROM sq_o WHERE k < SOME (SELECT k FROM sq_i) ORDER BY id;
SELECT id, k FROM sq_o WHERE k > ALL (SELECT k FROM sq_nonull) ORDER BY id;
SELECT id, k FROM sq_o WHERE k > ALL (SELECT k FROM sq_i) ORDER BY id;
SELECT id, k FROM sq_o WHERE k <> ALL (SELECT k FROM sq_nonull) ORDER BY id;
SELECT id, k FROM sq_o WHERE k > ALL (SELECT k FROM sq_empty) ORDER BY id;
SELECT id, k, k >= ALL (SELECT k FROM sq_i) AS ge_all, k = ANY (SELECT k FROM sq_i) AS eq_any,
  k <> ALL (SELECT k FROM sq_i) AS ne_all FROM sq_o ORDER BY id;
SELECT 3 = ANY (SELECT k FROM sq_empty) AS any_empty, 3 = ALL (SELECT k FROM sq_empty) AS all_empty;

-- correlated subqueries
SELECT id, (SELECT count(*) FROM sq_i WHERE sq_i.k = sq_o.k) AS matches,
  (SELECT sum(v) FROM sq_i WHERE sq_i.k <= sq_o.k) AS running FROM sq_o ORDER BY id;
SELECT id FROM sq_o WHERE (SELECT count(*) FROM sq_i WHERE sq_i.k = sq_o.k) = 0 ORDER BY id;
SELECT o.id FROM sq_o o WHERE o.k > (SELECT avg(i.k) FROM sq_i i WHERE i.v > o.id * 5) ORDER BY o.id;
SELECT id FROM sq_o o WHERE EXISTS (SELECT 1 FROM sq_i i WHERE i.k = o.k AND EXISTS
  (SELECT 1 FROM sq_nonull n WHERE n.k = i.k AND n.k > 1)) ORDER BY id;
SELECT k, (SELECT name FROM sq_o WHERE sq_o.k = sq_i.k) AS name FROM sq_i ORDER BY k NULLS LAST, v;
SELECT id, (SELECT v FROM sq_i WHERE sq_i.k = sq_o.k) FROM sq_o ORDER BY id;
SELECT i.k, i.v FROM sq_i i WHERE i.v = (SELECT max(v) FROM sq_i j WHERE j.k = i.k) ORDER BY i.k;
SELECT o.name, x.total FROM sq_o o JOIN (SELECT k, sum(v) AS total FROM sq_i GROUP BY k) x ON x.k = o.k
  WHERE x.total > (SELECT min(v) FROM sq_i) ORDER BY o.name;
SELECT id FROM sq_o WHERE k IN (SELECT k FROM sq_i WHERE v > (SELECT avg(v) / 2 FROM sq_i)) ORDER BY id;

DROP TABLE sq_o;
DROP TABLE sq_i;
DROP TABLE sq_nonull;
DROP TABLE sq_empty;
