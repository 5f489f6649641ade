SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Joins, grouping, DISTINCT and set operations on keys other than one
-- integer column: text, char(n), numeric, floats, intervals, several
-- columns, mixed widths; NULL keys; keys wide enough to defeat packing.
CREATE TABLE jk_a (id int, t text, c char(4), v varchar(10), n numeric, f float8, r real, i2 smallint, i4 int, i8 bigint, iv interval, d date);
CREATE TABLE jk_b (id int, t text, c char(4), v varchar(10), n numeric, f float8, r real, i2 smallint, i4 int, i8 bigint, iv interval, d date);
INSERT INTO jk_a VALUES
 (1, 'ab', 'ab', 'ab', 1.0, 0.0, 0.0, 1, 1, 1, '1 mon', '2024-01-01'),
 (2, 'ab ', 'ab  ', 'ab ', 1.00, -0.0, -0.0, 2, 2, 2, '30 days', '2024-01-02'),
 (3, 'x', 'x', 'x', 'NaN', 'NaN', 'NaN', 3, 3, 3, '720 hours', '2024-01-03'),
 (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (5, '', '', '', 0, 'Infinity', '-Infinity', -1, -1, -1, '0', '2024-01-01'),
 (6, 'long key value beyond sixteen bytes', 'long', 'longer', 123456789012345678901234567890.5, 1e300, 1e30, 32767, 2147483647, 9223372036854775807, '-1 day', '1999-12-31');
INSERT INTO jk_b VALUES
 (11, 'ab', 'ab ', 'ab', 1, 0.0, 0.0, 1, 1, 1, '30 days', '2024-01-01'),
 (12, 'ab  ', 'ab', 'ab  ', 1.000, 0.0, 0.0, 2, 2, 2, '1 mon', '2024-01-02'),
 (13, 'x', 'x ', 'x', 'NaN', 'NaN', 'NaN', 3, 3, 3, '1 mon', '2024-01-03'),
 (14, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (15, '', ' ', '', -0.0, 'Infinity', '-Infinity', -1, -1, -1, '-0 days', '2024-01-01'),
 (16, 'long key value beyond sixteen bytes', 'long', 'longer', 123456789012345678901234567890.50, 1e300, 1e30, 32767, 2147483647, -9223372036854775808, '-24 hours', '1999-12-31');
-- single keys of each type
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.t = b.t ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.c = b.c ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.v = b.v ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.v = b.t ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.n = b.n ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.f = b.f ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.r = b.r ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.iv = b.iv ORDER BY 1, 2;
-- mixed widths: smallint = int, int = bigint
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.i2 = b.i4 ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.i4 = b.i8 ORDER BY 1, 2;
-- several columns
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.i4 = b.i4 AND a.t = b.t ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.i2 = b.i2 AND a.i8 = b.i8 ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.d = b.d AND a.c = b.c ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.n = b.n AND a.f = b.f AND a.iv = b.iv ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.i8 = b.i8 AND a.i4 = b.i4 AND a.i2 = b.i2 ORDER BY 1, 2;
-- outer joins keep the rows whose keys are NULL or unmatched
SELECT a.id, b.id FROM jk_a a LEFT JOIN jk_b b ON a.i4 = b.i4 AND a.t = b.t ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a FULL JOIN jk_b b ON a.c = b.c AND a.i2 = b.i2 ORDER BY 1, 2;
SELECT a.id, b.id FROM jk_a a RIGHT JOIN jk_b b ON a.i8 = b.i8 AND a.d = b.d ORDER BY 1, 2;
-- semi and anti joins on several columns
SELECT a.id FROM jk_a a WHERE EXISTS (SELECT 1 FROM jk_b b WHERE b.i4 = a.i4 AND b.t = a.t) ORDER BY 1;
SELECT a.id FROM jk_a a WHERE NOT EXISTS (SELECT 1 FROM jk_b b WHERE b.i4 = a.i4 AND b.t = a.t) ORDER BY 1;
SELECT a.id FROM jk_a a WHERE (a.i4, a.t) IN (SELECT i4, t FROM jk_b) ORDER BY 1;
SELECT a.id FROM jk_a a WHERE (a.i4, a.t) NOT IN (SELECT i4, t FROM jk_b WHERE id <> 14) ORDER BY 1;
SELECT a.id FROM jk_a a WHERE a.t NOT IN (SELECT t FROM jk_b WHERE t IS NOT NULL) ORDER BY 1;
-- IS NOT DISTINCT FROM keys: NULL matches NULL
SELECT a.id, b.id FROM jk_a a JOIN jk_b b ON a.t IS NOT DISTINCT FROM b.t AND a.i4 IS NOT DISTINCT FROM b.i4 ORDER BY 1, 2;
-- grouping: NULLs group together; equal values in different forms are one group
SELECT count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY t ORDER BY 2;
SELECT count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY c ORDER BY 2;
SELECT count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY n ORDER BY 2;
SELECT count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY f ORDER BY 2;
SELECT count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY iv ORDER BY 2;
SELECT i4, t, count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY i4, t ORDER BY 1, 2;
SELECT i2, i8, d, count(*) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY i2, i8, d ORDER BY 1, 2, 3;
SELECT t, v, count(*) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY t, v ORDER BY 1, 2;
SELECT count(*), sum(id) FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u GROUP BY i4, c ORDER BY 2;
SELECT count(*) FROM (SELECT DISTINCT i4, t FROM (SELECT * FROM jk_a UNION ALL SELECT * FROM jk_b) u) s;
SELECT i4, t FROM jk_a UNION SELECT i4, t FROM jk_b ORDER BY 1, 2;
SELECT i4, t FROM jk_a INTERSECT SELECT i4, t FROM jk_b ORDER BY 1, 2;
SELECT i4, t FROM jk_a EXCEPT SELECT i4, t FROM jk_b ORDER BY 1, 2;
SELECT i2, t, d FROM jk_a INTERSECT ALL SELECT i2, t, d FROM jk_b ORDER BY 1, 2;
-- many rows: two int columns whose packed range is sparse, text keys, and
-- (int, text) keys, joined and grouped
CREATE TABLE jk_big (g int, h int, s text);
INSERT INTO jk_big SELECT g, (g * 7919) % 100003, 'key-' || md5(g::text) FROM generate_series(1, 30000) g;
INSERT INTO jk_big SELECT NULL, g, NULL FROM generate_series(1, 50) g;
SELECT count(*), sum(x.g) FROM jk_big x JOIN jk_big y ON x.g = y.g AND x.h = y.h;
SELECT count(*), sum(x.g), sum(y.g) FROM jk_big x JOIN jk_big y ON x.h = y.g AND x.g % 3 = y.h % 3;
SELECT count(*), sum(x.g) FROM jk_big x JOIN jk_big y ON x.s = y.s;
SELECT count(*), sum(x.g) FROM jk_big x JOIN jk_big y ON x.g = y.g AND x.s = y.s;
SELECT count(*), sum(y.g) FROM jk_big x JOIN jk_big y ON x.h::bigint * 100000000000 = y.h::bigint * 100000000000 AND x.g::bigint * 100000000000 = y.g;
SELECT count(*), sum(y.g) FROM jk_big x JOIN jk_big y ON x.h::bigint * 100000000000 = y.h::bigint * 100000000000 AND x.g::bigint * 100000000000 = y.g::bigint * 100000000000;
SELECT count(*), count(y.g) FROM jk_big x LEFT JOIN jk_big y ON x.s = y.s AND x.h = y.h + x.g % 2;
SELECT count(*), count(y.g) FROM jk_big x LEFT JOIN jk_big y ON x.g = y.g AND x.h = y.h + x.g % 2;
SELECT count(*) FROM (SELECT s, h FROM jk_big GROUP BY s, h) q;
SELECT count(*), max(c) FROM (SELECT substr(s, 1, 6) AS p, count(*) AS c FROM jk_big GROUP BY 1) q;
SELECT count(*), max(c) FROM (SELECT g % 100 AS a, h % 100 AS b, count(*) AS c FROM jk_big GROUP BY 1, 2) q;
SELECT count(*) FROM (SELECT s FROM jk_big INTERSECT SELECT 'key-' || md5(g::text) FROM generate_series(29000, 31000) g) q;
DROP TABLE jk_a, jk_b, jk_big;
