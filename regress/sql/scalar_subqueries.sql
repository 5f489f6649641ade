--
-- scalar_subqueries: correlated aggregate subqueries (decorrelated into
-- grouped left joins), the empty-scope value (count is 0, not NULL), and
-- 21000 when a scalar subquery returns more than one row.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE ss_a (x integer, z integer);
CREATE TABLE ss_b (y integer, z integer);
INSERT INTO ss_a VALUES (1, 1), (2, 2), (3, NULL), (4, 4), (5, 1);
INSERT INTO ss_b VALUES (10, 1), (20, 1), (30, 2), (NULL, 2), (40, NULL);

SELECT x,
       (SELECT count(*) FROM ss_b WHERE ss_b.z = ss_a.z) AS n,
       (SELECT count(y) FROM ss_b WHERE ss_b.z = ss_a.z) AS ny,
       (SELECT sum(y) FROM ss_b WHERE ss_b.z = ss_a.z) AS total,
       (SELECT max(y) FROM ss_b WHERE ss_b.z = ss_a.z) AS top,
       (SELECT count(*) + 100 FROM ss_b WHERE ss_b.z = ss_a.z) AS shifted,
       (SELECT coalesce(sum(y), -1) FROM ss_b WHERE ss_b.z = ss_a.z) AS filled
  FROM ss_a ORDER BY x;
SELECT x FROM ss_a WHERE (SELECT count(*) FROM ss_b WHERE ss_b.z = ss_a.z) = 0 ORDER BY x;
SELECT x FROM ss_a WHERE x * 10 < (SELECT avg(y) FROM ss_b WHERE ss_b.z = ss_a.z) ORDER BY x;
SELECT x, (SELECT count(*) FROM ss_b WHERE ss_b.z = ss_a.z AND ss_b.y > 10) AS big FROM ss_a ORDER BY x;
SELECT x, (SELECT y FROM ss_b WHERE ss_b.z = ss_a.x) AS only_one FROM ss_a WHERE x IN (2, 4) ORDER BY x;
SELECT x, (SELECT y FROM ss_b WHERE ss_b.z = ss_a.z) AS too_many FROM ss_a ORDER BY x;
SELECT (SELECT y FROM ss_b) AS uncorrelated_too_many;
SELECT (SELECT max(y) FROM ss_b) AS uncorrelated, (SELECT y FROM ss_b WHERE y > 100) AS none;

DROP TABLE ss_a, ss_b;
