--
-- topn: ORDER BY ... LIMIT n [OFFSET m] runs as a Top-N Sort (a bounded
-- heap per partition, merged): the same rows as the full sort, NULLS
-- FIRST/LAST, DESC, several keys, OFFSET past the end, LIMIT 0 and NULL,
-- sort keys that fail, and top-N inside subqueries.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE tn_t (id int, g int, v numeric, s text);
INSERT INTO tn_t SELECT i, i % 7, CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37) % 101 END, 'r' || i
  FROM generate_series(1, 3000) AS i;

SELECT id, v FROM tn_t ORDER BY v, id LIMIT 5;
SELECT id, v FROM tn_t ORDER BY v DESC, id LIMIT 5;
SELECT id, v FROM tn_t ORDER BY v NULLS FIRST, id DESC LIMIT 4;
SELECT id, v FROM tn_t ORDER BY v DESC NULLS LAST, id LIMIT 3 OFFSET 10;
SELECT id FROM tn_t ORDER BY id DESC LIMIT 3 OFFSET 2998;
SELECT id FROM tn_t ORDER BY id LIMIT 5 OFFSET 3000;
SELECT id FROM tn_t ORDER BY id LIMIT 0;
SELECT count(*) FROM (SELECT id FROM tn_t ORDER BY id LIMIT NULL) s;
SELECT id FROM tn_t ORDER BY id LIMIT 2 + 1;
SELECT g, count(*), sum(v) FROM tn_t GROUP BY g ORDER BY sum(v) DESC, g LIMIT 3;
SELECT s FROM tn_t WHERE g = 3 ORDER BY s LIMIT 4;
SELECT id, v FROM tn_t ORDER BY v IS NULL, v % 10, id LIMIT 6;
-- ties on the sort key with identical rows: any order of them is the same output
SELECT g FROM tn_t ORDER BY g DESC LIMIT 5;
-- a bound larger than the table
SELECT count(*), min(id), max(id) FROM (SELECT id FROM tn_t ORDER BY v, id LIMIT 100000) s;
-- a sort key that fails on some row fails the query, kept row or not
SELECT id FROM tn_t ORDER BY 10 / (id - 2999), id LIMIT 1;
SELECT id FROM tn_t WHERE id <> 2999 ORDER BY 10 / (id - 2999), id LIMIT 1;
-- top-N inside subqueries
SELECT g, (SELECT max(id) FROM (SELECT id FROM tn_t t2 WHERE t2.g = t1.g ORDER BY v DESC NULLS LAST, id LIMIT 2) s) top2
  FROM (SELECT DISTINCT g FROM tn_t) t1 ORDER BY g;
SELECT id FROM tn_t WHERE id IN (SELECT id FROM tn_t ORDER BY v DESC, id LIMIT 3) ORDER BY id;
SELECT t1.g, l.id FROM (SELECT DISTINCT g FROM tn_t) t1,
  LATERAL (SELECT id FROM tn_t t2 WHERE t2.g = t1.g ORDER BY id DESC LIMIT 2) l ORDER BY 1, 2;

DROP TABLE tn_t;
