--
-- notin: NOT IN / IN / NOT EXISTS / op ALL with NULLs on either side, empty
-- and all-NULL subqueries, row values, correlation with NULL scopes, NOT IN
-- outside WHERE, nesting, and one case per bug class other engines hit
-- (see ARCHITECTURE.md and the null-aware join notes).
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

-- constants
SELECT 1 AS one WHERE 1 NOT IN (SELECT 2);
SELECT 1 AS zero WHERE 1 NOT IN (SELECT 1);
SELECT 1 AS zero WHERE 1 NOT IN (SELECT NULL::int);
SELECT 1 AS one WHERE 1 NOT IN (SELECT 2 WHERE false);
SELECT 1 AS one WHERE NULL::int NOT IN (SELECT 2 WHERE false);
SELECT NULL::int NOT IN (SELECT 1) AS unknown, 2 NOT IN (SELECT 1 UNION ALL SELECT NULL) AS also_unknown;

CREATE TABLE ni_outer (id integer NOT NULL, x integer, z integer);
CREATE TABLE ni_inner (y integer, z integer);
CREATE TABLE ni_nn (y integer NOT NULL);
CREATE TABLE ni_empty (y integer);
CREATE TABLE ni_allnull (y integer);
INSERT INTO ni_outer VALUES (1, 1, 10), (2, 2, 10), (3, 3, 20), (4, NULL, 20), (5, 5, NULL), (6, NULL, NULL), (7, 7, 30);
INSERT INTO ni_inner VALUES (1, 10), (2, 20), (NULL, 20), (5, 30), (9, NULL);
INSERT INTO ni_nn VALUES (1), (3);
INSERT INTO ni_allnull VALUES (NULL), (NULL);

-- the classic: a NULL in the subquery makes NOT IN return no rows
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_inner) ORDER BY id;
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_inner WHERE y IS NOT NULL) ORDER BY id;
-- NULL probe values drop out unless the subquery is empty
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_nn) ORDER BY id;
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_empty) ORDER BY id;
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_allnull) ORDER BY id;
SELECT count(*) FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_inner WHERE y > 100);
-- IN and NOT IN are not complements under NULLs
SELECT id FROM ni_outer WHERE x IN (SELECT y FROM ni_inner) ORDER BY id;
SELECT id FROM ni_outer WHERE NOT (x IN (SELECT y FROM ni_inner)) ORDER BY id;
SELECT id FROM ni_outer WHERE x <> ALL (SELECT y FROM ni_nn) ORDER BY id;
SELECT id FROM ni_outer WHERE x = ANY (SELECT y FROM ni_nn) ORDER BY id;
-- NOT EXISTS is not NOT IN
SELECT id FROM ni_outer o WHERE NOT EXISTS (SELECT 1 FROM ni_inner i WHERE i.y = o.x) ORDER BY id;

-- in the SELECT list, under OR, CASE, IS NULL, IS [NOT] TRUE, compared
SELECT id, x NOT IN (SELECT y FROM ni_inner) AS not_in, x IN (SELECT y FROM ni_inner) AS is_in FROM ni_outer ORDER BY id;
SELECT id, x NOT IN (SELECT y FROM ni_nn) AS not_in_nn FROM ni_outer ORDER BY id;
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_inner) OR z = 20 ORDER BY id;
SELECT id, CASE WHEN x NOT IN (SELECT y FROM ni_nn) THEN 'keep' ELSE 'drop' END AS verdict FROM ni_outer ORDER BY id;
SELECT id, (x NOT IN (SELECT y FROM ni_inner)) IS NULL AS unknown FROM ni_outer ORDER BY id;
SELECT id FROM ni_outer WHERE (x NOT IN (SELECT y FROM ni_nn)) IS NOT TRUE ORDER BY id;
SELECT id, (x NOT IN (SELECT y FROM ni_nn)) = (x IN (SELECT y FROM ni_nn)) AS same FROM ni_outer ORDER BY id;

-- correlated: a NULL only matters inside its own scope
SELECT id FROM ni_outer o WHERE x NOT IN (SELECT y FROM ni_inner i WHERE i.z = o.z) ORDER BY id;
SELECT id, x NOT IN (SELECT y FROM ni_inner i WHERE i.z = o.z) AS per_scope FROM ni_outer o ORDER BY id;
SELECT id FROM ni_outer o WHERE x IN (SELECT y FROM ni_inner i WHERE i.z = o.z) ORDER BY id;
-- non-equality correlation: the residual filter decides the scope
SELECT id FROM ni_outer o WHERE x NOT IN (SELECT y FROM ni_inner i WHERE i.z > o.z) ORDER BY id;
SELECT id FROM ni_outer o WHERE x NOT IN (SELECT y FROM ni_inner i WHERE i.z = o.z AND i.y <> o.id) ORDER BY id;
-- the correlation repeats the IN equality
SELECT id FROM ni_outer o WHERE x NOT IN (SELECT y FROM ni_inner i WHERE i.y = o.x) ORDER BY id;

-- row values: one definite mismatch decides
SELECT id FROM ni_outer WHERE (x, z) NOT IN (SELECT y, z FROM ni_inner) ORDER BY id;
SELECT id FROM ni_outer WHERE (x, z) IN (SELECT y, z FROM ni_inner) ORDER BY id;
SELECT id, (x, z) NOT IN (SELECT y, z FROM ni_inner) AS row_not_in FROM ni_outer ORDER BY id;

-- literal lists
SELECT id FROM ni_outer WHERE x NOT IN (1, 2) ORDER BY id;
SELECT id FROM ni_outer WHERE x NOT IN (1, NULL) ORDER BY id;
SELECT id, x NOT IN (1, NULL) AS lst FROM ni_outer ORDER BY id;

-- nested
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y FROM ni_inner WHERE y NOT IN (SELECT y FROM ni_nn)) ORDER BY id;
SELECT id FROM ni_outer o WHERE x NOT IN (SELECT y FROM ni_inner i WHERE i.z = o.z AND y IN (SELECT y FROM ni_nn)) ORDER BY id;

-- bug class: nullable expressions over NOT NULL columns are not NOT NULL
SELECT id FROM ni_outer WHERE id + x NOT IN (SELECT y FROM ni_nn) ORDER BY id;
SELECT id FROM ni_outer WHERE id NOT IN (SELECT CASE WHEN y > 1 THEN NULL ELSE y END FROM ni_nn) ORDER BY id;
SELECT id FROM ni_outer WHERE id NOT IN (SELECT coalesce(y, NULL) FROM ni_inner) ORDER BY id;
-- bug class: predicate inference must not drop the subquery's NULL
SELECT id FROM ni_outer WHERE x > 1 AND x NOT IN (SELECT y FROM ni_inner) ORDER BY id;
SELECT id FROM ni_outer WHERE x = 3 AND x NOT IN (SELECT y FROM ni_inner) ORDER BY id;
-- bug class: filters on the probe side must not empty it and resurrect NULL build rows
SELECT id FROM ni_outer WHERE x > 100 AND x NOT IN (SELECT y FROM ni_inner) ORDER BY id;
SELECT count(*) FROM (SELECT y FROM ni_inner WHERE y NOT IN (SELECT x FROM ni_outer WHERE x > 100)) s;
SELECT count(*) FROM (SELECT y FROM ni_inner WHERE y NOT IN (SELECT x FROM ni_outer WHERE id > 100)) s;
-- bug class: NOT IN over a NOT NULL column still sees NULL probes
SELECT id FROM ni_outer WHERE x NOT IN (SELECT id FROM ni_outer WHERE id > 3) ORDER BY id;
-- bug class: a cross-type comparison keeps NULL handling
SELECT id FROM ni_outer WHERE x NOT IN (SELECT y::bigint FROM ni_inner) ORDER BY id;
SELECT id FROM ni_outer WHERE x::numeric NOT IN (SELECT y FROM ni_nn) ORDER BY id;
-- other comparison operators (NOT IN is <> ALL)
SELECT id FROM ni_outer WHERE x > ALL (SELECT y FROM ni_nn) ORDER BY id;
SELECT id FROM ni_outer WHERE x < ANY (SELECT y FROM ni_inner) ORDER BY id;
SELECT id, x >= ALL (SELECT y FROM ni_inner) AS ge_all FROM ni_outer ORDER BY id;

DROP TABLE ni_outer, ni_inner, ni_nn, ni_empty, ni_allnull;

-- IN values that constant folding turns into constants stay keys of the
-- null-aware join (found by regress/sqlfuzz: was XX000).
CREATE TABLE ni_f (c smallint, b bool);
INSERT INTO ni_f VALUES (1, true), (NULL, false), (2, NULL);
SELECT 1 FROM ni_f WHERE (NULL::smallint / ni_f.c) NOT IN (SELECT 1 FROM ni_f);
SELECT count(*) FROM ni_f WHERE (NULL::smallint / ni_f.c) NOT IN (SELECT 1 FROM ni_f WHERE false);
SELECT c, ((b AND ('1970-01-01 00:00+00'::timestamptz = '1999-12-31 23:59:59.999999+05:30'::timestamptz)) NOT IN (SELECT true FROM ni_f)) FROM ni_f ORDER BY 1;
SELECT c, ((NULL::timestamptz = CASE WHEN b THEN '2020-01-01'::timestamptz END) IN (SELECT true FROM ni_f)) FROM ni_f ORDER BY 1;
SELECT c FROM ni_f WHERE (1 + 1) NOT IN (SELECT c FROM ni_f WHERE c IS NOT NULL) ORDER BY 1;
SELECT c, NULL::int NOT IN (SELECT c FROM ni_f WHERE c IS NOT NULL) FROM ni_f ORDER BY 1;
SELECT c, (c * 0 + 3) NOT IN (SELECT c FROM ni_f) FROM ni_f ORDER BY 1;
DROP TABLE ni_f;
