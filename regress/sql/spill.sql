-- Sorts, hash aggregations and hash joins past joind.memory_limit spill to
-- the data directory's tmp/ and give PostgreSQL's answers (on PostgreSQL
-- the setting is an inert placeholder).
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';
CREATE TABLE sp_t (g int8, k int4, m text, v numeric, d date);
INSERT INTO sp_t SELECT g, g % 997, md5(g::text), (g % 1000) / 8.0, date '2020-01-01' + (g % 400)::int
  FROM generate_series(1, 40000) g;
INSERT INTO sp_t VALUES (NULL, NULL, NULL, NULL, NULL), (40001, NULL, 'zzz', NULL, NULL);
CREATE TABLE sp_small (k int4, name text);
INSERT INTO sp_small SELECT k, 'k' || k FROM generate_series(0, 1200, 3) k;
INSERT INTO sp_small VALUES (NULL, 'null key');
-- Partial string_agg states merge with their delimiters (once lost).
SELECT count(*), sum(length(m)) FROM
  (SELECT g % 5000 b, string_agg(m, ',') m FROM sp_t GROUP BY 1) x;
-- Far below every working set below (each is several MB).
SET joind.memory_limit = '256kB';
-- Sort: external merge sort, one and several keys, NULLS FIRST/LAST.
SELECT g, m FROM sp_t ORDER BY m OFFSET 39990;
SELECT g, k, m FROM sp_t ORDER BY k DESC NULLS FIRST, m OFFSET 39985;
SELECT g, v, d FROM sp_t ORDER BY d NULLS FIRST, v DESC, g OFFSET 39995;
SELECT m FROM sp_t ORDER BY m DESC LIMIT 5;
-- Hash aggregation: many groups, every kind of state, DISTINCT.
SELECT count(*), sum(c), sum(s), min(mn), max(mx), sum(dv) FROM
  (SELECT m, count(*) c, sum(g) s, min(v) mn, max(d) mx, count(DISTINCT k) dv FROM sp_t GROUP BY m) x;
SELECT k, count(*), sum(g), avg(v), min(m), max(m), count(DISTINCT d)
  FROM sp_t GROUP BY k ORDER BY k NULLS FIRST LIMIT 6;
SELECT count(*), sum(n) FROM (SELECT g % 20011 AS b, m IS NULL AS z, count(*) n FROM sp_t GROUP BY 1, 2) x;
SELECT count(*), sum(length(m)) FROM
  (SELECT g % 5000 b, string_agg(m, ',') m FROM sp_t GROUP BY 1) x;
-- Hash joins: inner, outer, semi, anti; the build side is 40000 rows.
SELECT count(*), sum(a.g), sum(b.g) FROM sp_t a JOIN sp_t b ON a.m = b.m;
SELECT count(*), count(b.g), sum(a.g - b.g) FROM sp_t a JOIN sp_t b ON a.g = b.g + 1;
SELECT count(*), count(b.g) FROM sp_t a LEFT JOIN sp_t b ON a.g = b.g * 2;
SELECT count(*), count(a.g), count(b.g) FROM sp_t a FULL JOIN sp_t b ON a.g = b.g * 3;
SELECT count(*) FROM sp_t a WHERE EXISTS (SELECT 1 FROM sp_t b WHERE b.g = a.g * 2);
SELECT count(*) FROM sp_t a WHERE NOT EXISTS (SELECT 1 FROM sp_t b WHERE b.g = a.g * 2);
SELECT count(*) FROM sp_t a WHERE a.k IN (SELECT k FROM sp_small);
-- NOT IN with a small subquery side keeps its NULL semantics.
SELECT count(*) FROM sp_t WHERE k NOT IN (SELECT k FROM sp_small WHERE k IS NOT NULL);
SELECT count(*) FROM sp_t WHERE k NOT IN (SELECT k FROM sp_small);
-- NOT IN over the big side spills too: a NULL in the subquery empties
-- the result; without one, NULL outer values are dropped.
SELECT count(*) FROM sp_small WHERE k NOT IN (SELECT k FROM sp_t);
SELECT count(*), count(k) FROM sp_small WHERE k + 2000 NOT IN (SELECT coalesce(k, 0) FROM sp_t);
SELECT count(*) FROM sp_small WHERE k NOT IN (SELECT coalesce(k, 0) FROM sp_t);
-- All three in one query.
SELECT s.k, s.name, count(*), sum(t.g) FROM sp_t t JOIN sp_small s ON t.k = s.k
  GROUP BY s.k, s.name ORDER BY sum(t.g) DESC, s.k LIMIT 5;
SELECT a.m, b.g FROM sp_t a JOIN sp_t b ON a.g = b.g ORDER BY a.m DESC, b.g OFFSET 39995;
RESET joind.memory_limit;
DROP TABLE sp_t;
DROP TABLE sp_small;
