--
-- dml_merge: MERGE (PostgreSQL 15): WHEN [NOT] MATCHED [AND ...] THEN
-- UPDATE / DELETE / INSERT / DO NOTHING, first matching clause wins, a
-- target row acted on twice, tags and errors.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE mrg_t (id integer NOT NULL, v integer DEFAULT 0, s text);
INSERT INTO mrg_t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c');
CREATE TABLE mrg_s (id integer, v integer, op text);
INSERT INTO mrg_s VALUES (1, 11, 'upd'), (2, 21, 'del'), (4, 40, 'ins'), (5, 50, 'skip');

MERGE INTO mrg_t t USING mrg_s s ON t.id = s.id
  WHEN MATCHED AND s.op = 'del' THEN DELETE
  WHEN MATCHED THEN UPDATE SET v = s.v, s = t.s || '+'
  WHEN NOT MATCHED AND s.op = 'ins' THEN INSERT VALUES (s.id, s.v, 'new')
  WHEN NOT MATCHED THEN DO NOTHING;
SELECT * FROM mrg_t ORDER BY id;

-- only some kinds of clauses
MERGE INTO mrg_t t USING (VALUES (1), (9)) AS s(id) ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = v + 1;
MERGE INTO mrg_t t USING (VALUES (1), (9)) AS s(id) ON t.id = s.id
  WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id);
MERGE INTO mrg_t t USING (VALUES (10)) AS s(id) ON t.id = s.id
  WHEN NOT MATCHED THEN INSERT DEFAULT VALUES;
MERGE INTO mrg_t t USING (VALUES (11, 'x')) AS s(id, x) ON t.id = s.id
  WHEN NOT MATCHED THEN INSERT (s, id) VALUES (s.x, s.id);
MERGE INTO mrg_t t USING (VALUES (9)) AS s(id) ON t.id = s.id
  WHEN MATCHED THEN DELETE;
SELECT * FROM mrg_t ORDER BY id;
MERGE INTO mrg_t USING (SELECT 1 AS id) s ON mrg_t.id = s.id
  WHEN MATCHED THEN DO NOTHING;
MERGE INTO mrg_t USING (SELECT 1 AS id) s ON false
  WHEN MATCHED THEN DELETE;

-- first matching clause wins; conditions NULL do not match
MERGE INTO mrg_t t USING (VALUES (1, NULL::int), (3, 5), (4, 7)) AS s(id, k) ON t.id = s.id
  WHEN MATCHED AND s.k > 6 THEN UPDATE SET s = 'gt6'
  WHEN MATCHED AND s.k > 1 THEN UPDATE SET s = 'gt1'
  WHEN MATCHED THEN UPDATE SET s = 'other';
SELECT * FROM mrg_t ORDER BY id;

-- the source as a subquery and a join, the target in the source
MERGE INTO mrg_t t USING (SELECT id, v * 2 AS v2 FROM mrg_t WHERE id < 4) AS s ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = s.v2;
MERGE INTO mrg_t t USING mrg_s s JOIN (VALUES (5)) x(i) ON s.id = x.i ON t.id = s.id
  WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, s.op);
SELECT * FROM mrg_t ORDER BY id;

-- WITH
WITH w AS (SELECT 2 AS id, 222 AS v)
MERGE INTO mrg_t t USING w ON t.id = w.id
  WHEN MATCHED THEN UPDATE SET v = w.v
  WHEN NOT MATCHED THEN INSERT VALUES (w.id, w.v, 'w');
SELECT * FROM mrg_t ORDER BY id;

-- a target row matched twice
MERGE INTO mrg_t t USING (VALUES (1, 1), (1, 2)) AS s(id, n) ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = s.n;
MERGE INTO mrg_t t USING (VALUES (1, 1), (1, 2)) AS s(id, n) ON t.id = s.id
  WHEN MATCHED AND s.n = 1 THEN UPDATE SET v = 100
  WHEN MATCHED THEN DO NOTHING;
MERGE INTO mrg_t t USING (VALUES (3), (3)) AS s(id) ON t.id = s.id
  WHEN MATCHED THEN DELETE;
SELECT * FROM mrg_t ORDER BY id;

-- transactions
BEGIN;
MERGE INTO mrg_t t USING (VALUES (1)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE;
SELECT count(*) FROM mrg_t;
ROLLBACK;
SELECT count(*) FROM mrg_t;

-- errors
MERGE INTO mrg_t t USING (VALUES (1, 1)) AS s(id, v) ON t.id = s.id
  WHEN NOT MATCHED THEN INSERT VALUES (t.id, s.v);
MERGE INTO mrg_t USING (SELECT 1 AS id) s ON mrg_t.id = s.id
  WHEN MATCHED THEN UPDATE SET nosuch = 5;
MERGE INTO mrg_t t USING (SELECT 9 AS id) s ON mrg_t.id = s.id WHEN MATCHED THEN DELETE;
MERGE INTO mrg_t USING (SELECT 9 AS id) s ON sum(mrg_t.id) = 1 WHEN MATCHED THEN DELETE;
MERGE INTO mrg_t USING (SELECT 9 AS id) s ON mrg_t.id = s.id
  WHEN MATCHED AND sum(mrg_t.id) = 1 THEN DELETE;
MERGE INTO mrg_nosuch USING (SELECT 9 AS id) s ON true WHEN MATCHED THEN DELETE;
MERGE INTO mrg_t USING (SELECT 12 AS id) s ON mrg_t.id = s.id
  WHEN NOT MATCHED THEN INSERT (v) VALUES (1);
MERGE INTO mrg_t USING (SELECT 12 AS id) s ON mrg_t.id = s.id
  WHEN NOT MATCHED THEN INSERT (id, v) VALUES (1);
MERGE INTO mrg_t USING (SELECT 12 AS id) s ON mrg_t.id = s.id
  WHEN NOT MATCHED THEN INSERT (id) VALUES (1, 2);
MERGE INTO mrg_t USING mrg_t ON true WHEN MATCHED THEN DELETE;
CREATE VIEW mrg_v AS SELECT * FROM mrg_t;
MERGE INTO mrg_v USING (SELECT 9 AS id) s ON mrg_v.id = s.id WHEN MATCHED THEN DELETE;
DROP VIEW mrg_v;
BEGIN READ ONLY;
MERGE INTO mrg_t USING (SELECT 1 AS id) s ON mrg_t.id = s.id WHEN MATCHED THEN DELETE;
ROLLBACK;
SELECT * FROM mrg_t ORDER BY id;

DROP TABLE mrg_t;
DROP TABLE mrg_s;
