--
-- decimal_kernels: numeric(p,s) stored and computed as scaled integers
-- (Decimal64/Decimal128) and unconstrained numeric in its exact form:
-- result scales of + - * / and avg, rounding of casts (half away from
-- zero), typmod overflow errors, NaN in constrained columns, results at
-- int64's edge (which must take the exact path), sum beyond int64.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE dk_t (id integer, a numeric(15,2), b numeric(15,2), c numeric(10,4),
  w numeric(30,5), u numeric, i integer, big numeric(18,0));
INSERT INTO dk_t VALUES
  (1, 1.50, 2.25, 0.0001, 12345678901234567890.12345, 3.125, 7, 999999999999999999),
  (2, -1.005, 0, -123.4567, -1, 'NaN', NULL, -999999999999999999),
  (3, NULL, 99.99, 1.5, NULL, 1e20, 3, 0),
  (4, 'NaN', 1, 0.5, 0.00001, 0.5, 0, 1),
  (5, 9999999999999.99, -9999999999999.99, 999999.9999, 99999999999999999999999.99999, -0.000001, -2, 461168601842738790),
  (6, 0.01, 0.02, -0.0001, 0, 0, 1, -461168601842738790),
  (7, -0.05, 0.05, 0.0050, -0.5, 123.456, 100, 3037000500);

SELECT * FROM dk_t ORDER BY id;
-- add, subtract, multiply, negate: scales max, max, sum
SELECT id, a + b, a - b, a * b, -a, a + c, a * c, c * c * c, a * 1, 1 - a, a + 0.001 FROM dk_t ORDER BY id;
-- products and sums at int64's edge, and beyond it
SELECT id, big * 10, big + big, big * big, big - (-big), a * b * c * a FROM dk_t ORDER BY id;
-- unconstrained and wide operands
SELECT id, u + a, u * b, w + a, w * c, w - u FROM dk_t ORDER BY id;
-- division and modulo: select_div_scale per row
SELECT id, a / b, b / 3, c / 7, a / 0.3, a % 0.7 FROM dk_t WHERE b <> 0 ORDER BY id;
SELECT a / b FROM dk_t WHERE id = 2;
-- comparisons across scales and forms
SELECT id, a < b, a = 1.5, c >= 0.5, a <> c, u > a, w <= a, a = 'NaN', big > 1e17 FROM dk_t ORDER BY id;
SELECT id FROM dk_t WHERE a BETWEEN -0.05 AND 1.5 ORDER BY id;
SELECT id FROM dk_t WHERE c * 2 > a ORDER BY id;
-- aggregates
SELECT sum(a), avg(a), min(a), max(a), sum(b), avg(b), sum(c), avg(c), min(c), max(c), count(a) FROM dk_t;
SELECT sum(a * b), avg(a * c), sum(big), avg(big), sum(big * 10), sum(w), avg(w), sum(u), max(u) FROM dk_t WHERE id <> 4;
SELECT id % 2 AS g, sum(a), avg(b), sum(a * (1 - c)), avg(c * (1 + b)), count(*) FROM dk_t GROUP BY 1 ORDER BY 1;
SELECT sum(x), avg(x) FROM (SELECT 99999999999999.99::numeric(16,2) AS x FROM generate_series(1, 1000)) s;
-- casts: rounding half away from zero, typmod errors with PostgreSQL's wording
SELECT id, a::numeric(15,1), a::numeric(15,0), c::numeric(6,2), c::numeric(8,3), a::integer, c::bigint, a::float8, c::float8, i::numeric(6,2) FROM dk_t WHERE id NOT IN (4, 5) ORDER BY id;
SELECT (-1.005)::numeric(5,2), (-0.005)::numeric(3,2), 0.005::numeric(3,2), (-2.5)::numeric(2,0), 2.5::numeric(2,0);
SELECT 12345.678::numeric(5,2);
SELECT a::numeric(4,2) FROM dk_t WHERE id = 5;
SELECT c::numeric(3,3) FROM dk_t ORDER BY id;
SELECT 'Infinity'::numeric::numeric(5,2);
SELECT a::integer FROM dk_t WHERE id = 4;
SELECT big::integer FROM dk_t ORDER BY id;
SELECT 99999::numeric(5,0) + 1, (99999::numeric(5,0) + 1)::numeric(5,0);
-- round and trunc
SELECT id, round(a), round(a, 1), round(c, 2), round(c, 6), trunc(c, 2), trunc(a), round(a, -1), trunc(c, 0) FROM dk_t ORDER BY id;
-- grouping and joining numerics of different scales and forms
CREATE TABLE dk_k (k numeric(10,3), v text);
INSERT INTO dk_k VALUES (1.5, 'one and a half'), (0.010, 'a cent'), (2.25, 'two and a quarter'), (NULL, 'null'), ('NaN', 'not a number');
SELECT t.id, k.v FROM dk_t t JOIN dk_k k ON t.a = k.k ORDER BY t.id, k.v;
SELECT t.id, k.v FROM dk_t t JOIN dk_k k ON t.b = k.k ORDER BY t.id, k.v;
SELECT x, count(*) FROM (SELECT a AS x FROM dk_t UNION ALL SELECT k FROM dk_k UNION ALL SELECT u FROM dk_t) s GROUP BY x ORDER BY x;
SELECT DISTINCT a * 2 FROM dk_t ORDER BY 1;
-- a constrained column stores every value at its scale
CREATE TABLE dk_s AS SELECT id, a * b AS p, a + c AS q, a::numeric(20,4) AS r FROM dk_t;
SELECT * FROM dk_s ORDER BY id;
INSERT INTO dk_t (id, a) VALUES (8, 12.345);
INSERT INTO dk_t (id, a) VALUES (9, 12345678901234.5);
SELECT id, a FROM dk_t WHERE id > 7 ORDER BY id;
DROP TABLE dk_t, dk_k, dk_s;
