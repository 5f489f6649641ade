--
-- grouping_sets: GROUP BY ROLLUP, CUBE and GROUPING SETS (nested, combined
-- with plain grouping columns, GROUP BY DISTINCT), GROUPING(...), HAVING and
-- ORDER BY over them, empty input and the errors.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE gs_sales (id integer, region text, product text, yr integer, qty integer, price numeric(8,2));
INSERT INTO gs_sales VALUES
  (1, 'north', 'apple', 2023, 10, 1.20),
  (2, 'north', 'pear', 2023, 5, 2.00),
  (3, 'south', 'apple', 2024, 7, 1.10),
  (4, 'south', 'apple', 2024, NULL, 1.10),
  (5, 'east', 'plum', NULL, 3, 0.75),
  (6, NULL, 'apple', 2023, 2, 1.30),
  (7, NULL, NULL, 2024, 4, NULL),
  (8, 'north', 'apple', 2024, 10, 1.20),
  (9, 'south', NULL, NULL, NULL, 2.50);
CREATE TABLE gs_empty (a integer, b text);

-- ROLLUP: the prefixes, the grouped-out columns NULL
SELECT region, product, sum(qty), count(*), GROUPING(region, product) AS g
FROM gs_sales GROUP BY ROLLUP (region, product) ORDER BY g, region, product;
-- CUBE: every subset
SELECT region, yr, count(*), sum(price), GROUPING(region), GROUPING(yr), GROUPING(yr, region)
FROM gs_sales GROUP BY CUBE (region, yr) ORDER BY 7, 1, 2;
-- GROUPING SETS with the empty set, nested ROLLUP and a row
SELECT region, product, yr, count(*), GROUPING(region, product, yr)
FROM gs_sales GROUP BY GROUPING SETS ((region, product), ROLLUP (yr), ())
ORDER BY 5, 1, 2, 3;
SELECT region, product, count(*) FROM gs_sales
GROUP BY GROUPING SETS (region, GROUPING SETS (product, ())) ORDER BY GROUPING(region, product), 1, 2, 3;
-- ROLLUP over rows: (a, b) is one element
SELECT region, product, yr, count(*) FROM gs_sales
GROUP BY ROLLUP ((region, product), yr) ORDER BY GROUPING(region, product, yr), 1, 2, 3, 4;
SELECT region, yr, count(*) FROM gs_sales
GROUP BY CUBE ((region, yr)) ORDER BY GROUPING(region, yr), 1, 2, 3;
-- plain columns combined with sets: the cross product
SELECT region, product, yr, count(*) FROM gs_sales
GROUP BY region, ROLLUP (product, yr) ORDER BY GROUPING(region, product, yr), 1, 2, 3, 4;
SELECT region, product, yr, count(*) FROM gs_sales
GROUP BY ROLLUP (region), CUBE (product, yr) ORDER BY GROUPING(region, product, yr), 1, 2, 3, 4;
-- repeated sets give repeated rows; GROUP BY DISTINCT drops them
SELECT region, count(*) FROM gs_sales GROUP BY GROUPING SETS (region, region, ()) ORDER BY GROUPING(region), 1, 2;
SELECT region, product, count(*) FROM gs_sales
GROUP BY ROLLUP (region, product), ROLLUP (region) ORDER BY GROUPING(region, product), 1, 2, 3;
SELECT region, product, count(*) FROM gs_sales
GROUP BY DISTINCT ROLLUP (region, product), ROLLUP (region) ORDER BY GROUPING(region, product), 1, 2, 3;
SELECT count(*) FROM gs_sales GROUP BY GROUPING SETS ((), ());
-- one grouping set is plain grouping
SELECT region, count(*) FROM gs_sales GROUP BY GROUPING SETS ((region)) ORDER BY 1;
SELECT count(*), GROUPING(region) FROM gs_sales GROUP BY GROUPING SETS (region) ORDER BY 1;
-- aggregates over a grouping column read its value, not the NULL
SELECT yr, sum(yr), count(yr), min(yr) FROM gs_sales GROUP BY ROLLUP (yr) ORDER BY GROUPING(yr), 1;
SELECT region, count(DISTINCT product), sum(qty) FILTER (WHERE qty > 4)
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY GROUPING(region), 1;
-- expressions as grouping items and above them
SELECT yr % 2 AS odd, upper(region), count(*) FROM gs_sales
GROUP BY CUBE (yr % 2, upper(region)) ORDER BY GROUPING(yr % 2, upper(region)), 1, 2, 3;
SELECT region || '!' AS r, coalesce(product, '-'), count(*) FROM gs_sales
GROUP BY ROLLUP (region, product) ORDER BY GROUPING(region, product), 1, 2, 3;
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (1) ORDER BY GROUPING(region), 1;
-- HAVING and ORDER BY over GROUPING
SELECT region, product, sum(qty) FROM gs_sales GROUP BY ROLLUP (region, product)
HAVING GROUPING(product) = 1 ORDER BY GROUPING(region), 1;
SELECT region, sum(qty) FROM gs_sales GROUP BY CUBE (region)
HAVING sum(qty) > 5 OR region IS NULL ORDER BY GROUPING(region) DESC, region;
SELECT region, product, count(*) FROM gs_sales GROUP BY GROUPING SETS (region, product)
ORDER BY GROUPING(region, product), count(*) DESC, 1, 2;
-- a subquery reads the grouped value
SELECT region, (SELECT count(*) FROM gs_sales s WHERE s.region = gs_sales.region) AS n
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY GROUPING(region), 1;
-- GROUPING of the outer query's columns inside subqueries
SELECT region, (SELECT GROUPING(region) * 10) AS g FROM gs_sales GROUP BY ROLLUP (region)
ORDER BY 2, 1;
SELECT yr, (SELECT GROUPING(yr) + count(*) FROM gs_empty) AS g FROM gs_sales GROUP BY CUBE (yr)
ORDER BY 2, 1;
SELECT region FROM gs_sales GROUP BY ROLLUP (region) HAVING (SELECT GROUPING(region)) = 1;
SELECT (SELECT (SELECT GROUPING(e, f) FROM (VALUES (1)) v2(c)) FROM (VALUES (1, 2)) v1(a, b) GROUP BY a, b) AS g
FROM (VALUES (6, 7)) v3(e, f) GROUP BY ROLLUP (e, f) ORDER BY 1;
SELECT (SELECT GROUPING(region)) FROM gs_sales;
-- DISTINCT and LIMIT over the result
SELECT DISTINCT count(*) FROM gs_sales GROUP BY CUBE (region, yr) ORDER BY 1;
SELECT region, yr, count(*) FROM gs_sales GROUP BY CUBE (region, yr) ORDER BY 3 DESC, GROUPING(region, yr), 1, 2 LIMIT 4;
-- empty input: the empty sets' rows only
SELECT a, count(*), sum(a) FROM gs_empty GROUP BY ROLLUP (a);
SELECT a, b, count(*) FROM gs_empty GROUP BY CUBE (a, b);
SELECT a, count(*) FROM gs_empty GROUP BY GROUPING SETS ((), a, ());
SELECT a, count(*) FROM gs_empty GROUP BY GROUPING SETS (a, b);
SELECT count(*) FROM gs_empty GROUP BY GROUPING SETS (());
SELECT count(*) FROM gs_sales WHERE false GROUP BY ROLLUP (region) HAVING count(*) > 0;
-- GROUPING with plain GROUP BY is 0
SELECT region, GROUPING(region) FROM gs_sales GROUP BY region ORDER BY 1;
-- errors
SELECT GROUPING(region) FROM gs_sales;
SELECT region FROM gs_sales WHERE GROUPING(region) = 0 GROUP BY ROLLUP (region);
SELECT region FROM gs_sales GROUP BY ROLLUP (region), GROUPING(region);
SELECT sum(GROUPING(region)) FROM gs_sales GROUP BY ROLLUP (region);
SELECT GROUPING(product) FROM gs_sales GROUP BY ROLLUP (region);
SELECT count(*), GROUPING(region) FROM gs_sales GROUP BY ();
SELECT region, product FROM gs_sales GROUP BY ROLLUP (region);
SELECT region FROM gs_sales GROUP BY ROLLUP (region) HAVING qty > 0;
SELECT GROUPING(id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id,id) FROM gs_sales GROUP BY id;
SELECT count(*) FROM gs_sales GROUP BY CUBE (id, region, product, yr, qty, price, id, region, product, yr, qty, price, id);
SELECT count(*) FROM gs_sales GROUP BY CUBE (id, region, product, yr, qty, price, id, region, product, yr, qty, price), ROLLUP (id);
SELECT count(*) FROM gs_sales GROUP BY ROLLUP (region, sum(qty));
SELECT count(*) FROM gs_sales GROUP BY ROLLUP (9);

DROP TABLE gs_sales;
DROP TABLE gs_empty;
-- A constant HAVING equal to a group key stays a constant (found by sqlfuzz).
CREATE TABLE gs_empty (a int);
SELECT 1 AS one FROM gs_empty GROUP BY ROLLUP (isfinite(timestamp '2000-01-01' - timestamp '1970-01-01'))
  HAVING isfinite(timestamp '2000-01-01' - timestamp '1970-01-01');
SELECT count(*) FROM gs_empty GROUP BY ROLLUP (1 + 1) HAVING 1 + 1 = 2;
DROP TABLE gs_empty;

-- A constant output equal to a grouping expression is the (nullable) group
-- key only where a GROUP BY item refers to it: the first equal output, or
-- one named or numbered; a later equal constant stays a constant, as
-- PostgreSQL's setrefs matches no Const. Non-constant equal outputs are all
-- the key.
SELECT 1+1 AS a, 1+1 AS b, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY CUBE(1+1) ORDER BY 1,2;
SELECT x+1, x+1 AS b, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY CUBE(x+1) ORDER BY 1,2;
SELECT 2 AS a, 1+1 AS b, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY ROLLUP(1+1) ORDER BY 1,2;
SELECT 'x' AS k, 'x' AS k2, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY ROLLUP('x') ORDER BY 1,2;
SELECT 1+1 AS a, 2 AS b, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY CUBE(b) ORDER BY 1,2;
SELECT 1+1 AS a, 1+1 AS b, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY CUBE(2) ORDER BY 1,2;
SELECT 3 AS c, x, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY GROUPING SETS ((x), (3), ()) ORDER BY 1,2,3;
SELECT (1+1)*x AS a, count(*) FROM (VALUES (1),(2)) v(x) GROUP BY ROLLUP(x, 1+1) ORDER BY 1,2;
