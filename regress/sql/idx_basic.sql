SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- CREATE INDEX / DROP INDEX / REINDEX / ALTER INDEX, unique indexes, and
-- the rows an indexed predicate reads (the same as without the index).
CREATE TABLE ib_t (a int, b text, c int, d date, n numeric);
INSERT INTO ib_t SELECT g, 'v' || (g % 50), g % 7, date '2020-01-01' + g, g / 4.0
  FROM generate_series(1, 3000) g;
INSERT INTO ib_t VALUES (NULL, NULL, NULL, NULL, NULL), (NULL, 'x', 1, NULL, 1);
CREATE VIEW ib_v AS SELECT a FROM ib_t;
-- names PostgreSQL generates
CREATE INDEX ON ib_t (a);
CREATE INDEX ON ib_t (a);
CREATE INDEX ON ib_t (b, a);
CREATE INDEX ib_named ON ib_t USING btree (c);
CREATE INDEX ON ib_t USING hash (b);
CREATE INDEX IF NOT EXISTS ib_named ON ib_t (d);
CREATE INDEX CONCURRENTLY ON ib_t (d);
CREATE INDEX ON ib_t (n);
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ib_t' ORDER BY indexname;
SELECT c.relname, c.relkind, a.amname, i.indkey, i.indisunique, i.indisprimary, i.indnatts
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE i.indrelid = 'ib_t'::regclass ORDER BY 1;
SELECT relname, relhasindex FROM pg_class WHERE relname IN ('ib_t', 'ib_v') ORDER BY 1;
\d ib_t
-- errors
CREATE INDEX ON ib_nosuch (a);
CREATE INDEX ON ib_t (z);
CREATE INDEX ON ib_v (a);
CREATE INDEX ib_named ON ib_t (a);
CREATE INDEX ib_t ON ib_t (a);
CREATE TABLE ib_named (x int);
CREATE VIEW ib_named AS SELECT 1 AS x;
CREATE INDEX ON ib_t USING foo (a);
CREATE UNIQUE INDEX ON ib_t USING hash (a);
DROP INDEX ib_nosuch;
DROP INDEX IF EXISTS ib_nosuch;
DROP INDEX ib_t;
DROP INDEX ib_v;
REINDEX INDEX ib_nosuch;
REINDEX TABLE ib_nosuch;
ALTER INDEX ib_nosuch RENAME TO ib_x;
ALTER INDEX IF EXISTS ib_nosuch RENAME TO ib_x;
ALTER INDEX ib_named RENAME TO ib_t_a_idx;
-- lookups through the indexes agree with the rows
SELECT * FROM ib_t WHERE a = 17;
SELECT * FROM ib_t WHERE a = 17 AND c = 3;
SELECT * FROM ib_t WHERE a = 17 AND c = 4;
SELECT count(*) FROM ib_t WHERE a = NULL;
SELECT a FROM ib_t WHERE a > 2990 ORDER BY a;
SELECT a FROM ib_t WHERE a >= 2990 AND a < 2993 ORDER BY a;
SELECT a FROM ib_t WHERE 5 >= a ORDER BY a;
SELECT a FROM ib_t WHERE a BETWEEN 100 AND 103 ORDER BY a;
SELECT a FROM ib_t WHERE a = 5::bigint;
SELECT a FROM ib_t WHERE a::numeric = 5.5;
SELECT a, b FROM ib_t WHERE b = 'v3' AND a < 200 ORDER BY a;
SELECT count(*) FROM ib_t WHERE b = 'x';
SELECT a, d FROM ib_t WHERE d = date '2020-01-11';
SELECT a, n FROM ib_t WHERE n = 2.5;
SELECT a, n FROM ib_t WHERE n = 2.50;
SELECT count(*) FROM ib_t WHERE c = 3;
-- rename, reindex, drop
ALTER INDEX ib_named RENAME TO ib_renamed;
REINDEX INDEX ib_renamed;
REINDEX TABLE ib_t;
DROP INDEX ib_renamed, ib_t_a_idx1;
SELECT indexname FROM pg_indexes WHERE tablename = 'ib_t' ORDER BY 1;
SELECT a FROM ib_t WHERE a = 42;
-- an index in a transaction block
BEGIN;
CREATE INDEX CONCURRENTLY ib_tx ON ib_t (c);
ROLLBACK;
BEGIN;
CREATE INDEX ib_tx ON ib_t (c);
SELECT count(*) FROM ib_t WHERE c = 2;
ROLLBACK;
SELECT indexname FROM pg_indexes WHERE indexname = 'ib_tx';
-- unique indexes
CREATE TABLE ib_u (id int, k text, v int);
INSERT INTO ib_u VALUES (1, 'a', 1), (2, 'b', 1), (NULL, 'c', 2), (NULL, 'd', 2);
CREATE UNIQUE INDEX ON ib_u (v);
CREATE UNIQUE INDEX ON ib_u (id);
CREATE UNIQUE INDEX ib_u_kv ON ib_u (k, v);
INSERT INTO ib_u VALUES (1, 'z', 9);
INSERT INTO ib_u VALUES (3, 'z', 9), (3, 'y', 9);
INSERT INTO ib_u VALUES (NULL, 'a', 1);
INSERT INTO ib_u VALUES (NULL, 'e', 3), (4, 'f', 4);
INSERT INTO ib_u VALUES (7, 'n', NULL), (8, 'n', NULL);
SELECT * FROM ib_u ORDER BY k;
BEGIN;
INSERT INTO ib_u VALUES (5, 'g', 5);
INSERT INTO ib_u VALUES (5, 'h', 6);
ROLLBACK;
INSERT INTO ib_u SELECT g, 'k' || g, g FROM generate_series(10, 20) g;
INSERT INTO ib_u SELECT g, 'm' || g, g FROM generate_series(20, 25) g;
SELECT count(*) FROM ib_u;
\d ib_u
COPY ib_u FROM stdin;
30	c30	30
30	c31	31
\.
COPY ib_u (id, k, v) FROM stdin (FORMAT csv, HEADER true);
id,k,v
32,c32,32
32,c33,33
\.
COPY ib_u FROM stdin;
34	c34	34
\.
SELECT count(*) FROM ib_u WHERE id >= 30;
-- temporary tables' indexes
CREATE TEMP TABLE ib_tmp (a int);
INSERT INTO ib_tmp SELECT g FROM generate_series(1, 100) g;
CREATE UNIQUE INDEX ON ib_tmp (a);
INSERT INTO ib_tmp VALUES (5);
SELECT a FROM ib_tmp WHERE a = 7;
SELECT indexname FROM pg_indexes WHERE tablename = 'ib_tmp';
DROP INDEX ib_tmp_a_idx;
INSERT INTO ib_tmp VALUES (5);
SELECT count(*) FROM ib_tmp WHERE a = 5;
DROP TABLE ib_tmp;
-- DROP TABLE drops the table's indexes
DROP VIEW ib_v;
DROP TABLE ib_t;
DROP TABLE ib_u;
SELECT count(*) FROM pg_indexes WHERE tablename LIKE 'ib\_%';
CREATE TABLE ib_t (a int);
CREATE INDEX ON ib_t (a);
SELECT indexname FROM pg_indexes WHERE tablename = 'ib_t';
DROP TABLE ib_t;
