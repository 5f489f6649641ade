--
-- dml_delete: DELETE with WHERE (subqueries), USING, aliases, its tags
-- and errors.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE del_t (id integer NOT NULL, v integer, s text);
INSERT INTO del_t SELECT g, g % 4, 'r' || g FROM generate_series(1, 20) g;
CREATE TABLE del_k (k integer);
INSERT INTO del_k VALUES (1), (2), (2), (NULL);

DELETE FROM del_t WHERE id = 20;
DELETE FROM del_t WHERE id = 20;
DELETE FROM del_t WHERE v = 3 AND id > 10;
SELECT count(*), sum(id) FROM del_t;
DELETE FROM del_t WHERE false;
-- subqueries in WHERE
DELETE FROM del_t WHERE id NOT IN (SELECT k FROM del_k);
DELETE FROM del_t WHERE id IN (SELECT k FROM del_k);
SELECT * FROM del_t ORDER BY id;
DELETE FROM del_t WHERE id NOT IN (SELECT k + 2 FROM del_k WHERE k IS NOT NULL) AND id < 6;
SELECT * FROM del_t ORDER BY id;
DELETE FROM del_t WHERE EXISTS (SELECT 1 FROM del_k WHERE del_k.k * 5 = del_t.id);
SELECT * FROM del_t ORDER BY id;
-- USING: a row joined twice is deleted once
DELETE FROM del_t USING del_k WHERE del_t.id = del_k.k + 5;
SELECT * FROM del_t ORDER BY id;
DELETE FROM del_t AS t USING (VALUES (9), (9), (11)) AS x(i) WHERE t.id = x.i;
SELECT * FROM del_t ORDER BY id;
DELETE FROM ONLY del_t d WHERE d.v = 0;
SELECT * FROM del_t ORDER BY id;

-- WITH queries
WITH gone AS (SELECT 12 AS id UNION ALL SELECT 13)
DELETE FROM del_t WHERE id IN (SELECT id FROM gone);
SELECT * FROM del_t ORDER BY id;

-- transactions
BEGIN;
DELETE FROM del_t;
SELECT count(*) FROM del_t;
ROLLBACK;
SELECT count(*) FROM del_t;
BEGIN;
DELETE FROM del_t WHERE id = 3;
SAVEPOINT a;
DELETE FROM del_t WHERE id = 4;
ROLLBACK TO a;
INSERT INTO del_t VALUES (3, 33, 'again');
COMMIT;
SELECT * FROM del_t ORDER BY id, v;

-- errors
DELETE FROM del_nosuch;
DELETE FROM del_t WHERE nosuch = 1;
DELETE FROM del_t WHERE count(*) > 1;
DELETE FROM del_t WHERE id;
DELETE FROM del_t d WHERE del_t.id = 1;
DELETE FROM del_t USING del_t;
DELETE FROM del_t WHERE id = (SELECT k FROM del_k);
DELETE FROM del_t WHERE 1 / (id - 3) > 0;
SELECT count(*) FROM del_t;
BEGIN READ ONLY;
DELETE FROM del_t;
ROLLBACK;

-- everything, then reuse
DELETE FROM del_t;
SELECT count(*) FROM del_t;
INSERT INTO del_t VALUES (1, 1, 'new');
SELECT * FROM del_t ORDER BY id;

-- temporary tables
CREATE TEMP TABLE del_tmp AS SELECT g AS a FROM generate_series(1, 5) g;
DELETE FROM del_tmp WHERE a % 2 = 0;
SELECT * FROM del_tmp ORDER BY a;
DROP TABLE del_tmp;

DROP TABLE del_t;
DROP TABLE del_k;
