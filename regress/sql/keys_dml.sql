SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Constraints on UPDATE, DELETE and MERGE; the referenced side of FOREIGN KEYs.
CREATE TABLE kd_t (id int PRIMARY KEY, v int NOT NULL CHECK (v > 0), u text UNIQUE);
INSERT INTO kd_t VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c');
-- Keeping a key is no conflict; CHECK and NOT NULL quote the new row.
UPDATE kd_t SET v = v + 10;
UPDATE kd_t SET v = -1 WHERE id = 2;
UPDATE kd_t SET v = NULL WHERE id = 3;
UPDATE kd_t SET u = 'a' WHERE id = 2;
-- Unique keys are checked row by row: a row not yet updated holds its key.
UPDATE kd_t SET id = id + 1;
UPDATE kd_t SET id = id - 1 WHERE id > 1;
UPDATE kd_t SET id = id + 10;
UPDATE kd_t SET u = 'b' WHERE id = 11;
UPDATE kd_t SET u = CASE u WHEN 'a' THEN 'b' WHEN 'b' THEN 'a' ELSE u END;
SELECT * FROM kd_t ORDER BY id;
MERGE INTO kd_t t USING (VALUES (11, -5), (14, 4)) s(id, v) ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 'd');
MERGE INTO kd_t t USING (VALUES (11, 5), (14, 4)) s(id, v) ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 'a');
MERGE INTO kd_t t USING (VALUES (11, 5), (14, 4)) s(id, v) ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 'd');
SELECT * FROM kd_t ORDER BY id;
-- NO ACTION and RESTRICT.
CREATE TABLE kd_p (id int PRIMARY KEY, name text);
INSERT INTO kd_p VALUES (1, 'one'), (2, 'two'), (3, 'three');
CREATE TABLE kd_c (id int PRIMARY KEY, p int REFERENCES kd_p);
CREATE TABLE kd_r (id int PRIMARY KEY, p int REFERENCES kd_p ON DELETE RESTRICT ON UPDATE RESTRICT);
INSERT INTO kd_c VALUES (1, 1), (2, 2), (3, NULL);
INSERT INTO kd_r VALUES (1, 3);
DELETE FROM kd_p WHERE id = 1;
DELETE FROM kd_p WHERE id = 3;
UPDATE kd_p SET id = 10 WHERE id = 2;
UPDATE kd_p SET id = 30 WHERE id = 3;
UPDATE kd_p SET name = upper(name);
UPDATE kd_p SET id = id WHERE id = 3;
MERGE INTO kd_p t USING (VALUES (2)) s(id) ON t.id = s.id WHEN MATCHED THEN DELETE;
UPDATE kd_c SET p = 5 WHERE id = 1;
UPDATE kd_c SET p = 3 WHERE id = 1;
DELETE FROM kd_p WHERE id = 1 RETURNING *;
SELECT * FROM kd_p ORDER BY id;
DROP TABLE kd_c, kd_r;
-- CASCADE, SET NULL, SET DEFAULT, through chains and multi-column keys.
CREATE TABLE kd_c (id int PRIMARY KEY, p int DEFAULT 3 REFERENCES kd_p ON DELETE CASCADE ON UPDATE CASCADE);
CREATE TABLE kd_g (id int PRIMARY KEY, c int REFERENCES kd_c ON DELETE SET NULL ON UPDATE SET DEFAULT);
INSERT INTO kd_p VALUES (1, 'ONE');
INSERT INTO kd_c VALUES (1, 1), (2, 2), (3, 2), (4, 3);
INSERT INTO kd_g VALUES (1, 1), (2, 2), (3, 3), (4, 4);
UPDATE kd_p SET id = id * 100 WHERE id < 3;
SELECT * FROM kd_c ORDER BY id;
DELETE FROM kd_p WHERE id = 200;
SELECT * FROM kd_c ORDER BY id;
SELECT * FROM kd_g ORDER BY id;
UPDATE kd_c SET id = 10 WHERE id = 1;
UPDATE kd_c SET id = 40 WHERE id = 4;
SELECT * FROM kd_g ORDER BY id;
ALTER TABLE kd_c DROP CONSTRAINT kd_c_p_fkey;
ALTER TABLE kd_c ADD FOREIGN KEY (p) REFERENCES kd_p ON DELETE SET DEFAULT;
DELETE FROM kd_p WHERE id = 100;
DELETE FROM kd_p WHERE id = 3;
SELECT * FROM kd_c ORDER BY id;
DROP TABLE kd_g, kd_c;
CREATE TABLE kd_m (a int, b int, PRIMARY KEY (a, b));
CREATE TABLE kd_mc (id int PRIMARY KEY, a int, b int,
  FOREIGN KEY (a, b) REFERENCES kd_m ON UPDATE CASCADE ON DELETE SET NULL);
INSERT INTO kd_m VALUES (1, 1), (1, 2), (2, 2);
INSERT INTO kd_mc VALUES (1, 1, 1), (2, 1, 2), (3, 2, 2), (4, NULL, 2);
UPDATE kd_m SET b = b * 10 WHERE a = 1;
SELECT * FROM kd_mc ORDER BY id;
DELETE FROM kd_m WHERE a = 2;
SELECT * FROM kd_mc ORDER BY id;
-- A self-reference cascades down the tree.
CREATE TABLE kd_tree (id int PRIMARY KEY, parent int REFERENCES kd_tree ON DELETE CASCADE);
INSERT INTO kd_tree VALUES (1, NULL), (2, 1), (3, 2), (4, 3), (5, NULL), (6, 5);
DELETE FROM kd_tree WHERE id = 2;
SELECT * FROM kd_tree ORDER BY id;
UPDATE kd_tree SET id = 9 WHERE id = 5;
DELETE FROM kd_tree WHERE id = 1;
SELECT * FROM kd_tree ORDER BY id;
-- Inside a transaction block, a failed cascade leaves nothing behind.
BEGIN;
DELETE FROM kd_m WHERE a = 1;
SELECT * FROM kd_mc ORDER BY id;
ROLLBACK;
SELECT * FROM kd_mc ORDER BY id;
DROP TABLE kd_mc, kd_m, kd_tree, kd_p, kd_t;
-- ALTER TABLE and indexes: RENAME COLUMN keeps them, DROP COLUMN drops
-- them, ALTER TYPE rebuilds them.
CREATE TABLE kd_i (a int, b text, c int);
INSERT INTO kd_i SELECT g, 'x' || g, g % 7 FROM generate_series(1, 300) g;
CREATE INDEX kd_i_b ON kd_i (b);
CREATE INDEX kd_i_ac ON kd_i (a, c);
CREATE UNIQUE INDEX kd_i_ca ON kd_i (c, a);
CREATE UNIQUE INDEX kd_i_a ON kd_i (a);
ALTER TABLE kd_i RENAME COLUMN b TO bb;
ALTER TABLE kd_i RENAME COLUMN a TO aa;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'kd_i' ORDER BY 1;
SELECT * FROM kd_i WHERE bb = 'x5';
SELECT count(*) FROM kd_i WHERE aa BETWEEN 5 AND 20;
INSERT INTO kd_i VALUES (1, 'y', 1);
ALTER TABLE kd_i DROP COLUMN c;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'kd_i' ORDER BY 1;
INSERT INTO kd_i VALUES (301, 'y');
ALTER TABLE kd_i ALTER COLUMN aa TYPE text;
SELECT count(*) FROM kd_i WHERE aa BETWEEN '5' AND '7';
SELECT * FROM kd_i WHERE aa = '77';
INSERT INTO kd_i VALUES ('77', 'z');
ALTER TABLE kd_i ALTER COLUMN aa TYPE int USING CASE WHEN aa = '300' THEN 1 ELSE aa::int END;
ALTER TABLE kd_i ALTER COLUMN aa TYPE bigint;
SELECT * FROM kd_i WHERE aa = 300;
ALTER TABLE kd_i ALTER COLUMN bb TYPE varchar(10);
SELECT * FROM kd_i WHERE bb = 'x7';
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'kd_i' ORDER BY 1;
DROP TABLE kd_i;
-- An UPDATE's unique check follows the rows' physical order.
CREATE TEMP TABLE kd_pp (f1 int primary key);
insert into kd_pp values(12);
insert into kd_pp values(11);
update kd_pp set f1=f1+1;
SELECT * FROM kd_pp ORDER BY f1;
create table kd_p2 (f1 int primary key);
insert into kd_p2 values(12);
insert into kd_p2 values(11);
update kd_p2 set f1=f1+1;
SELECT * FROM kd_p2 ORDER BY f1;
drop table kd_p2;
DROP TABLE kd_pp;
-- ON DELETE SET NULL / SET DEFAULT (columns).
CREATE TABLE kd_sp (a int, b int, PRIMARY KEY (a, b));
CREATE TABLE kd_sc (x int, a int DEFAULT 0, b int DEFAULT 0, FOREIGN KEY (a, b) REFERENCES kd_sp ON DELETE SET NULL (b));
CREATE TABLE kd_sd (x int, a int, b int, FOREIGN KEY (a, b) REFERENCES kd_sp ON DELETE SET NULL (x));
CREATE TABLE kd_sd (x int, a int, b int, FOREIGN KEY (a, b) REFERENCES kd_sp ON UPDATE SET NULL (b));
INSERT INTO kd_sp VALUES (1, 1), (1, 2), (0, 0);
INSERT INTO kd_sc VALUES (1, 1, 1), (2, 1, 2);
SELECT pg_get_constraintdef(oid), confdelsetcols FROM pg_constraint WHERE conname = 'kd_sc_a_b_fkey';
DELETE FROM kd_sp WHERE b = 1;
SELECT * FROM kd_sc ORDER BY x;
ALTER TABLE kd_sc RENAME COLUMN b TO bb;
SELECT pg_get_constraintdef(oid), confdelsetcols FROM pg_constraint WHERE conname = 'kd_sc_a_b_fkey';
ALTER TABLE kd_sc DROP CONSTRAINT kd_sc_a_b_fkey;
ALTER TABLE kd_sc ADD FOREIGN KEY (a, bb) REFERENCES kd_sp ON DELETE SET DEFAULT (a);
DELETE FROM kd_sp WHERE b = 2;
ALTER TABLE kd_sc DROP CONSTRAINT kd_sc_a_bb_fkey;
ALTER TABLE kd_sc ADD FOREIGN KEY (a, bb) REFERENCES kd_sp ON DELETE SET DEFAULT (a, bb);
DELETE FROM kd_sp WHERE b = 2;
SELECT * FROM kd_sc ORDER BY x;
DROP TABLE kd_sc, kd_sp;
