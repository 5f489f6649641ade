--
-- aggregates: aggregate functions, GROUP BY, HAVING, empty input, NULL
-- groups and grouping errors.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE ag_sales (id integer, region text, product text, qty integer, price numeric(8,2),
  weight double precision, shipped boolean, sold date);
INSERT INTO ag_sales VALUES
  (1, 'north', 'apple', 10, 1.20, 0.5, true, '2024-01-05'),
  (2, 'north', 'pear', 5, 2.00, 1.25, false, '2024-01-07'),
  (3, 'south', 'apple', 7, 1.10, 0.5, true, '2024-02-01'),
  (4, 'south', 'apple', NULL, 1.10, NULL, NULL, '2024-02-03'),
  (5, 'east', 'plum', 3, 0.75, 0.125, true, NULL),
  (6, NULL, 'apple', 2, 1.30, 0.25, false, '2024-03-01'),
  (7, NULL, NULL, 4, NULL, 2, true, '2024-03-02'),
  (8, 'north', 'apple', 10, 1.20, 0.5, true, '2024-01-05');
CREATE TABLE ag_empty (a integer, b text, c numeric, d boolean);

-- whole-table aggregates (float weights are binary fractions, so sums
-- are exact in any order)
SELECT count(*), count(qty), count(region), sum(qty), avg(qty), min(qty), max(qty) FROM ag_sales;
SELECT sum(price), avg(price), min(price), max(price), sum(weight), avg(weight) FROM ag_sales;
SELECT min(region), max(region), min(sold), max(sold), bool_and(shipped), bool_or(shipped), every(shipped) FROM ag_sales;
SELECT count(DISTINCT region), count(DISTINCT product), count(DISTINCT qty), sum(DISTINCT qty), avg(DISTINCT qty) FROM ag_sales;
SELECT sum(qty * price) AS revenue, max(qty) - min(qty) AS spread, count(*) FILTER (WHERE shipped) AS shipped_rows FROM ag_sales;
SELECT count(*) AS c, sum(id) AS s FROM ag_sales WHERE qty > 100;
SELECT sum(1::smallint) AS s2, sum(1::integer) AS s4, sum(1::bigint) AS s8, avg(1::integer) AS a4, sum(1.5::float4) AS sf;

-- empty input
SELECT count(*), count(a), sum(a), avg(a), min(b), max(c), bool_and(d), bool_or(d) FROM ag_empty;
SELECT a, count(*) FROM ag_empty GROUP BY a;
SELECT count(*) FROM ag_empty HAVING count(*) > 0;
SELECT count(*) FROM ag_empty HAVING count(*) = 0;

-- GROUP BY
SELECT region, count(*) AS n, sum(qty) AS total, avg(price) AS avg_price FROM ag_sales GROUP BY region ORDER BY region NULLS FIRST;
SELECT region, product, count(*) AS n, sum(qty) AS q FROM ag_sales GROUP BY region, product ORDER BY region NULLS LAST, product NULLS LAST;
SELECT product, max(sold) AS last_sold, min(sold) AS first_sold FROM ag_sales GROUP BY product ORDER BY product;
SELECT shipped, count(*) FROM ag_sales GROUP BY shipped ORDER BY shipped NULLS LAST;
SELECT qty % 2 AS parity, count(*) FROM ag_sales GROUP BY qty % 2 ORDER BY 1 NULLS FIRST;
SELECT extract(month from sold) AS m, sum(qty) FROM ag_sales GROUP BY 1 ORDER BY 1 NULLS LAST;
SELECT upper(region) AS r, count(*) FROM ag_sales GROUP BY r ORDER BY r NULLS FIRST;
SELECT region FROM ag_sales GROUP BY region ORDER BY region NULLS FIRST;
SELECT count(*) FROM ag_sales GROUP BY region ORDER BY 1;
SELECT region, count(DISTINCT product) AS products, min(product) AS first_product
  FROM ag_sales GROUP BY region ORDER BY region NULLS FIRST;
SELECT region, sum(qty) AS total FROM ag_sales GROUP BY region ORDER BY total DESC NULLS LAST, region;
SELECT region, count(*) * 10 + max(qty) AS score, COALESCE(sum(qty), 0) AS q FROM ag_sales GROUP BY region ORDER BY region NULLS FIRST;
SELECT id, region, count(*) FROM ag_sales GROUP BY id, region ORDER BY id LIMIT 3;

-- HAVING
SELECT region, count(*) FROM ag_sales GROUP BY region HAVING count(*) > 1 ORDER BY region NULLS FIRST;
SELECT product, sum(qty) FROM ag_sales GROUP BY product HAVING sum(qty) >= 10 AND product IS NOT NULL ORDER BY product;
SELECT region FROM ag_sales GROUP BY region HAVING bool_or(shipped) ORDER BY region NULLS FIRST;
SELECT region, avg(qty) FROM ag_sales GROUP BY region HAVING avg(qty) IS NULL OR avg(qty) < 5 ORDER BY region NULLS FIRST;
SELECT sum(qty) FROM ag_sales HAVING sum(qty) > 10;
SELECT product FROM ag_sales GROUP BY product HAVING max(price) > 1.15 ORDER BY product;

-- aggregates over expressions and in expressions
SELECT sum(CASE WHEN shipped THEN qty ELSE 0 END) AS shipped_qty, count(CASE WHEN region = 'north' THEN 1 END) AS north
  FROM ag_sales;
SELECT round(avg(weight)::numeric, 3) AS w, max(length(product)) AS longest FROM ag_sales;
SELECT (SELECT max(qty) FROM ag_sales) - min(qty) AS from_top FROM ag_sales;
SELECT count(*) FROM (SELECT region FROM ag_sales GROUP BY region) g;

-- grouping errors
SELECT region, product, count(*) FROM ag_sales GROUP BY region;
SELECT id, count(*) FROM ag_sales;
SELECT region FROM ag_sales GROUP BY product;
SELECT region, count(*) FROM ag_sales GROUP BY 5;
SELECT sum(count(*)) FROM ag_sales;
SELECT region FROM ag_sales WHERE count(*) > 1 GROUP BY region;
SELECT sum(region) FROM ag_sales;
SELECT nosuchagg(qty) FROM ag_sales;

-- overflow inside aggregates
CREATE TABLE ag_big (b bigint, i integer);
INSERT INTO ag_big VALUES (9223372036854775807, 2147483647), (1, 1);
SELECT sum(i) AS int_sum_is_bigint, sum(b) AS bigint_sum_is_numeric, avg(b) FROM ag_big;
SELECT sum(b)::bigint FROM ag_big;

DROP TABLE ag_sales;
DROP TABLE ag_empty;
DROP TABLE ag_big;
