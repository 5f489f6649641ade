--
-- dml_returning: RETURNING on INSERT, UPDATE and DELETE (expressions,
-- *, qualified *, names), one row per statement or rows in VALUES order.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE ret_t (id integer NOT NULL, v integer DEFAULT 5, s text);
INSERT INTO ret_t VALUES (1, 10, 'a') RETURNING *;
INSERT INTO ret_t (id, s) VALUES (2, 'b') RETURNING id, v, v * 2 AS twice, s || '!';
INSERT INTO ret_t VALUES (3, 30, 'c'), (4, 40, 'd') RETURNING id;
INSERT INTO ret_t SELECT 5, 50, 'e' RETURNING ret_t.*, 'lit', 1 + 1;
INSERT INTO ret_t AS r VALUES (6, 60, NULL) RETURNING r.id, r.s IS NULL AS nul;
INSERT INTO ret_t VALUES (7, 70, 'g') RETURNING (SELECT count(*) FROM ret_t) AS before;
INSERT INTO ret_t SELECT 8, 80, 'h' WHERE false RETURNING *;
WITH src AS (SELECT 9 AS id, 90 AS v)
INSERT INTO ret_t SELECT id, v, 'w' FROM src RETURNING *;
WITH src AS (SELECT 10 AS id)
INSERT INTO ret_t VALUES ((SELECT id FROM src), 100, 'wv') RETURNING id;
SELECT * FROM ret_t ORDER BY id;

UPDATE ret_t SET v = v + 1 WHERE id = 1 RETURNING *;
UPDATE ret_t SET v = v + 1, s = 'u' WHERE id = 2 RETURNING v AS newv, s, id;
UPDATE ret_t SET v = DEFAULT WHERE id = 3 RETURNING v;
UPDATE ret_t SET s = 'none' WHERE id = 100 RETURNING *;
UPDATE ret_t t SET v = x.n FROM (VALUES (4, 400)) x(i, n) WHERE t.id = x.i RETURNING *;
UPDATE ret_t t SET v = x.n FROM (VALUES (4, 401)) x(i, n) WHERE t.id = x.i RETURNING t.*, x.n - t.v AS zero;
UPDATE ret_t SET v = v WHERE id = 5 RETURNING upper(s), v > 10;

DELETE FROM ret_t WHERE id = 7 RETURNING *;
DELETE FROM ret_t WHERE id = 6 RETURNING s, id * 10;
DELETE FROM ret_t WHERE id = 100 RETURNING id;
DELETE FROM ret_t t USING (VALUES (5)) x(i) WHERE t.id = x.i RETURNING t.id, x.i;
SELECT * FROM ret_t ORDER BY id;

-- errors
INSERT INTO ret_t VALUES (9) RETURNING nosuch;
UPDATE ret_t SET v = 1 RETURNING sum(v);
DELETE FROM ret_t WHERE id = 1 RETURNING nosuch.*;
INSERT INTO ret_t VALUES (NULL) RETURNING *;
SELECT * FROM ret_t ORDER BY id;

DROP TABLE ret_t;
