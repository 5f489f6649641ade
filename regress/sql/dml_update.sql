--
-- dml_update: UPDATE in its forms (SET, DEFAULT, multi-column SET,
-- FROM, WHERE with subqueries, aliases, ONLY), its tags and errors.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE upd_t (
  id integer NOT NULL,
  v integer DEFAULT 7,
  s text DEFAULT 'dflt',
  d date
);
INSERT INTO upd_t VALUES (1, 10, 'a', '2024-01-01'), (2, 20, 'b', '2024-01-02'),
  (3, 30, 'c', NULL), (4, NULL, 'd', '2024-01-04'), (5, 50, NULL, '2024-01-05');

-- plain SET over a WHERE
UPDATE upd_t SET v = v + 1 WHERE id = 1;
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t SET v = v * 2, s = upper(s) WHERE v > 20;
SELECT * FROM upd_t ORDER BY id;
-- nothing matches
UPDATE upd_t SET v = 0 WHERE id > 100;
UPDATE upd_t SET v = 0 WHERE false;
-- every row; columns are read before any is assigned
UPDATE upd_t SET v = id, id = v WHERE v IS NOT NULL;
SELECT * FROM upd_t ORDER BY id NULLS LAST, v;
UPDATE upd_t SET v = id, id = v WHERE v IS NOT NULL;
SELECT * FROM upd_t ORDER BY id;

-- DEFAULT
UPDATE upd_t SET v = DEFAULT, s = DEFAULT WHERE id = 2;
UPDATE upd_t SET d = DEFAULT WHERE id = 3;
SELECT * FROM upd_t ORDER BY id;

-- multi-column SET
UPDATE upd_t SET (v, s) = (100, 'row') WHERE id = 1;
UPDATE upd_t SET (v, s) = ROW(v + 1, DEFAULT) WHERE id = 1;
UPDATE upd_t SET (v, s) = ROW(x.*) FROM (VALUES (2, 7, 'x')) AS x(i, v, s) WHERE id = x.i - 1;
UPDATE upd_t SET (v, d) = (SELECT 5, date '2025-05-05') WHERE id = 4;
UPDATE upd_t SET (v, s) = (SELECT max(v), 'mx' FROM upd_t) WHERE id = 5;
UPDATE upd_t SET (v, s) = (SELECT 1, 'z' WHERE false) WHERE id = 3;
SELECT * FROM upd_t ORDER BY id;

-- types: assignment casts
UPDATE upd_t SET v = 3.7 WHERE id = 3;
UPDATE upd_t SET v = '42' WHERE id = 3;
UPDATE upd_t SET d = '2030-12-31' WHERE id = 3;
SELECT * FROM upd_t ORDER BY id;

-- WHERE with subqueries
CREATE TABLE upd_k (k integer, label text);
INSERT INTO upd_k VALUES (1, 'one'), (2, 'two'), (NULL, 'null');
UPDATE upd_t SET s = 'in' WHERE id IN (SELECT k FROM upd_k);
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t SET s = 'notin' WHERE id NOT IN (SELECT k FROM upd_k);
UPDATE upd_t SET s = 'notin2' WHERE id NOT IN (SELECT k FROM upd_k WHERE k IS NOT NULL);
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t SET s = 'exists' WHERE EXISTS (SELECT 1 FROM upd_k WHERE upd_k.k = upd_t.id + 1);
UPDATE upd_t SET s = 'notexists' WHERE NOT EXISTS (SELECT 1 FROM upd_k WHERE upd_k.k = upd_t.id);
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t SET v = (SELECT count(*) FROM upd_k WHERE k <= upd_t.id);
SELECT * FROM upd_t ORDER BY id;

-- UPDATE ... FROM; a target row joined twice is updated once
UPDATE upd_t SET s = upd_k.label FROM upd_k WHERE upd_k.k = upd_t.id;
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t t SET v = x.n FROM (VALUES (3, 300), (3, 300), (4, 400)) AS x(id, n) WHERE x.id = t.id;
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t SET v = 0 FROM upd_k WHERE false;
UPDATE upd_t AS t SET s = k.label || '/' || t.s FROM upd_k k JOIN upd_k k2 ON k.k = k2.k WHERE t.id = k.k;
SELECT * FROM upd_t ORDER BY id;

-- WITH queries; the target is the table even where a WITH query has its name
WITH w AS (SELECT k, label FROM upd_k WHERE k = 2)
UPDATE upd_t SET s = w.label || '-w' FROM w WHERE upd_t.id = w.k;
WITH upd_t AS (SELECT 1 AS id)
UPDATE upd_t SET v = v + 1000 WHERE id IN (SELECT id FROM upd_t);
SELECT * FROM upd_t ORDER BY id;
UPDATE upd_t SET v = v - 1000 WHERE v > 1000;

-- alias and ONLY
UPDATE ONLY upd_t SET v = -1 WHERE id = 5;
UPDATE upd_t AS u SET v = u.v - 1 WHERE u.id = 5;
SELECT * FROM upd_t ORDER BY id;

-- a row updated in separate statements of one transaction
BEGIN;
UPDATE upd_t SET v = v + 10 WHERE id = 1;
UPDATE upd_t SET v = v + 10 WHERE id = 1;
SELECT * FROM upd_t WHERE id = 1;
ROLLBACK;
SELECT * FROM upd_t WHERE id = 1;
BEGIN;
UPDATE upd_t SET v = v + 10 WHERE id = 1;
SAVEPOINT sp;
UPDATE upd_t SET v = v + 10 WHERE id = 1;
ROLLBACK TO sp;
COMMIT;
SELECT * FROM upd_t ORDER BY id;

-- NOT NULL holds
UPDATE upd_t SET id = NULL WHERE id = 2;
UPDATE upd_t SET id = CASE WHEN id = 3 THEN NULL ELSE id END;
SELECT * FROM upd_t ORDER BY id;

-- errors
UPDATE upd_nosuch SET v = 1;
UPDATE upd_t SET nosuch = 1;
UPDATE upd_t SET v = 1, v = 2;
UPDATE upd_t SET v = nosuch;
UPDATE upd_t SET v = 'x';
UPDATE upd_t SET d = 1;
UPDATE upd_t SET (v, s) = (1);
UPDATE upd_t SET (v, s) = (1, 'a', 2);
UPDATE upd_t SET (v, s) = (SELECT 1);
UPDATE upd_t SET (v, s) = (SELECT 1, 'a' UNION ALL SELECT 2, 'b');
UPDATE upd_t SET v = sum(v);
UPDATE upd_t SET v = 1 WHERE sum(v) > 0;
UPDATE upd_t SET v = 1 WHERE v;
UPDATE upd_t SET v = (SELECT k FROM upd_k);
UPDATE upd_t u SET v = upd_t.v;
UPDATE upd_t SET v = 1 FROM upd_t;
UPDATE upd_t SET v = 1 / 0 WHERE id = 1;
SELECT * FROM upd_t ORDER BY id;

-- read-only transactions refuse it
BEGIN READ ONLY;
UPDATE upd_t SET v = 1;
ROLLBACK;

-- temporary tables
CREATE TEMP TABLE upd_tmp (a integer, b text);
INSERT INTO upd_tmp VALUES (1, 'x'), (2, 'y');
UPDATE upd_tmp SET b = b || b WHERE a = 2;
SELECT * FROM upd_tmp ORDER BY a;
BEGIN READ ONLY;
UPDATE upd_tmp SET b = 'ro';
COMMIT;
SELECT * FROM upd_tmp ORDER BY a;
DROP TABLE upd_tmp;

DROP TABLE upd_t;
DROP TABLE upd_k;
