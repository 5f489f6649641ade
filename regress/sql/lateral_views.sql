--
-- lateral_views: LATERAL subqueries and functions (LEFT / CROSS JOIN LATERAL,
-- comma LATERAL, ON conditions, EXISTS / IN inside and around them, nesting,
-- outer references through WITH) and views (CREATE [OR REPLACE] VIEW, column
-- lists, views over views, DROP VIEW / DROP TABLE with RESTRICT and CASCADE,
-- and PostgreSQL's errors for each misuse).
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE lv_a (id int, x int, name text);
CREATE TABLE lv_b (x int, y int);
INSERT INTO lv_a VALUES (1, 10, 'one'), (2, 20, 'two'), (3, NULL, 'three'), (4, 40, 'four');
INSERT INTO lv_b VALUES (10, 1), (10, 2), (20, 3), (NULL, 4), (50, 5);

-- LEFT JOIN LATERAL keeps left rows without right rows, NULL-extended
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x) s ON true ORDER BY 1, 2;
-- CROSS JOIN LATERAL and the comma form drop them
SELECT a.id, s.y FROM lv_a a CROSS JOIN LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x) s ORDER BY 1, 2;
SELECT a.id, s.y FROM lv_a a, LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x) s ORDER BY 1, 2;
-- the ON condition decides matches, not which left rows exist
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x) s ON s.y > 1 ORDER BY 1, 2;
SELECT a.id, s.y FROM lv_a a JOIN LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x) s ON s.y > 1 ORDER BY 1, 2;
-- per-row aggregates, LIMIT and ORDER BY inside
SELECT a.id, s.n, s.m FROM lv_a a LEFT JOIN LATERAL (SELECT count(*) AS n, max(y) AS m FROM lv_b b WHERE b.x = a.x) s ON true ORDER BY 1;
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x ORDER BY y DESC LIMIT 1) s ON true ORDER BY 1;
-- the lateral subquery reads several left columns and outputs a left one
SELECT a.id, s.* FROM lv_a a, LATERAL (SELECT a.name AS n, b.y FROM lv_b b WHERE b.y <= a.id) s ORDER BY 1, 3;
-- functions in FROM are lateral without the keyword
SELECT a.id, g FROM lv_a a, generate_series(1, a.id) g WHERE a.id <= 3 ORDER BY 1, 2;
SELECT a.id, g FROM lv_a a LEFT JOIN LATERAL generate_series(a.id, 2) g ON true ORDER BY 1, 2;
-- EXISTS and IN inside the lateral subquery, correlated to both levels
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (
	SELECT b.y FROM lv_b b WHERE EXISTS (SELECT 1 FROM lv_b c WHERE c.y = b.y + 1 AND c.y <= a.id)
) s ON true ORDER BY 1, 2;
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (
	SELECT b.y FROM lv_b b WHERE b.y IN (SELECT c.y FROM lv_b c WHERE c.x = a.x)
) s ON true ORDER BY 1, 2;
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (
	SELECT b.y FROM lv_b b WHERE b.y NOT IN (SELECT c.y FROM lv_b c WHERE c.x = a.x) AND b.y < 3
) s ON true ORDER BY 1, 2;
-- EXISTS in the join condition of a join inside the lateral subquery
SELECT a.id, q.y, q.x FROM lv_a a LEFT JOIN LATERAL (
	SELECT l.y, r.x FROM lv_b l LEFT JOIN lv_a r ON EXISTS (SELECT 1 WHERE r.id = l.y AND r.id = a.id)
	WHERE l.x = a.x
) q ON true ORDER BY 1, 2, 3;
-- a WITH query inside the lateral subquery reads the left row
SELECT a.id, q.y FROM lv_a a LEFT JOIN LATERAL (
	WITH w AS (SELECT y FROM lv_b WHERE lv_b.x = a.x)
	SELECT y FROM w
) q ON true ORDER BY 1, 2;
-- nested LATERAL: the inner one reads both outer FROM items
SELECT a.id, q.y, q.z FROM lv_a a, LATERAL (
	SELECT b.y, t.z FROM lv_b b, LATERAL (SELECT b.y * 100 + a.id AS z) t WHERE b.x = a.x
) q ORDER BY 1, 2;
-- a lateral item in a join tree sees the FROM items to its left
SELECT a.id, b.y, s.v FROM lv_a a, lv_b b JOIN LATERAL (SELECT a.id + b.y AS v) s ON true
WHERE a.x = b.x ORDER BY 1, 2;
-- correlated from an enclosing query as well
SELECT a.id, (SELECT sum(s.y) FROM lv_b b, LATERAL (SELECT b.y WHERE b.x = a.x) s) AS total FROM lv_a a ORDER BY 1;
-- a filter over the left side only
SELECT a.id, s.y FROM lv_a a LEFT JOIN LATERAL (SELECT y FROM lv_b b WHERE b.x = a.x) s ON true WHERE a.id > 1 ORDER BY 1, 2;
-- VALUES on the left
SELECT v.k, s.c FROM (VALUES (10), (20), (30)) v(k) LEFT JOIN LATERAL (SELECT count(*) AS c FROM lv_b WHERE lv_b.x = v.k) s ON true ORDER BY 1;
-- errors
SELECT * FROM lv_a a RIGHT JOIN LATERAL (SELECT a.x) s ON true;
SELECT * FROM lv_a a FULL JOIN LATERAL (SELECT x) s ON true;
SELECT * FROM lv_a a, (SELECT a.x) s;
SELECT * FROM lv_a a, LATERAL (SELECT b.x) s, lv_b b;

-- views
CREATE VIEW lv_v AS SELECT a.id, a.name, b.y FROM lv_a a JOIN lv_b b ON a.x = b.x;
SELECT * FROM lv_v ORDER BY id, y;
SELECT name, count(*) FROM lv_v GROUP BY name ORDER BY name;
-- column list, a VALUES view, unknown literals become text
CREATE VIEW lv_vals(k, label) AS VALUES (1, 'a'), (2, 'b'), (3, NULL);
SELECT * FROM lv_vals ORDER BY k;
SELECT label || '!' AS l FROM lv_vals ORDER BY k;
CREATE VIEW lv_partial(first) AS SELECT 1, 2 AS second;
SELECT * FROM lv_partial;
-- views over views, aliases, self-joins, views in subqueries and LATERAL
CREATE VIEW lv_vv AS SELECT id, y * 2 AS y2 FROM lv_v WHERE y > 1;
SELECT * FROM lv_vv ORDER BY 1, 2;
SELECT p.id, q.y2 FROM lv_vv p JOIN lv_vv q ON p.id = q.id AND p.y2 < q.y2 ORDER BY 1, 2;
SELECT x.k, x.label FROM lv_vals AS x(k) WHERE k IN (SELECT id FROM lv_v) ORDER BY 1;
SELECT a.id, s.y2 FROM lv_a a LEFT JOIN LATERAL (SELECT y2 FROM lv_vv WHERE lv_vv.id = a.id) s ON true ORDER BY 1, 2;
SELECT * FROM lv_a WHERE EXISTS (SELECT 1 FROM lv_v WHERE lv_v.id = lv_a.id) ORDER BY id;
-- a view sees rows inserted after it was created
INSERT INTO lv_b VALUES (40, 9);
SELECT * FROM lv_v WHERE id = 4;
-- CREATE OR REPLACE may add columns at the end
CREATE OR REPLACE VIEW lv_vals(k, label) AS VALUES (1, 'a', true);
SELECT * FROM lv_vals;
CREATE OR REPLACE VIEW lv_vals AS SELECT 1 AS k;
CREATE OR REPLACE VIEW lv_vals AS SELECT 1 AS kk, 'x' AS label, false AS column3;
-- name clashes and wrong object types
CREATE VIEW lv_v AS SELECT 1;
CREATE VIEW lv_a AS SELECT 1;
CREATE OR REPLACE VIEW lv_a AS SELECT 1;
CREATE TABLE lv_v (c int);
CREATE VIEW lv_bad(a, b, c) AS SELECT 1, 2;
CREATE VIEW lv_bad(a, a) AS SELECT 1, 2;
CREATE VIEW lv_bad AS SELECT 1, 2;
CREATE VIEW lv_bad AS SELECT * FROM lv_nosuch;
DROP VIEW lv_a;
DROP TABLE lv_v;
DROP TABLE IF EXISTS lv_v;
DROP VIEW lv_nosuch;
DROP VIEW IF EXISTS lv_nosuch, lv_nosuch2;
-- dependencies: RESTRICT (the default) refuses, CASCADE drops the views
DROP TABLE lv_a;
DROP TABLE lv_a, lv_b;
DROP VIEW lv_v;
DROP VIEW lv_v RESTRICT;
DROP VIEW lv_vv, lv_v;
CREATE VIEW lv_v AS SELECT a.id, b.y FROM lv_a a JOIN lv_b b ON a.x = b.x;
CREATE VIEW lv_vv AS SELECT id, y * 2 AS y2 FROM lv_v WHERE y > 1;
DROP VIEW lv_v CASCADE;
SELECT * FROM lv_vv;
CREATE VIEW lv_v AS SELECT a.id, b.y FROM lv_a a JOIN lv_b b ON a.x = b.x;
CREATE VIEW lv_vv AS SELECT * FROM lv_v;
CREATE VIEW lv_only_b AS SELECT y FROM lv_b;
DROP TABLE lv_b CASCADE;
SELECT * FROM lv_v;
SELECT * FROM lv_only_b;
-- views and transactions
BEGIN;
CREATE VIEW lv_tx AS SELECT 1 AS one;
SELECT * FROM lv_tx;
ROLLBACK;
SELECT * FROM lv_tx;
BEGIN;
CREATE VIEW lv_tx AS SELECT 2 AS two;
COMMIT;
SELECT * FROM lv_tx;
DROP VIEW lv_tx, lv_vals, lv_partial;
DROP TABLE lv_a;
