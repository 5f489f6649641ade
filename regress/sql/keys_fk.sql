SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- FOREIGN KEY: insert side, names, MATCH FULL, self-reference, catalog.
CREATE TABLE kf_p (id int PRIMARY KEY, code text UNIQUE, x int, y int, UNIQUE (x, y));
INSERT INTO kf_p VALUES (1, 'a', 1, 1), (2, 'b', 1, 2);
CREATE TABLE kf_c (pid int REFERENCES kf_p, pcode text REFERENCES kf_p (code) ON DELETE CASCADE ON UPDATE SET NULL,
  x int, y int, FOREIGN KEY (x, y) REFERENCES kf_p (x, y) MATCH FULL, CONSTRAINT kf_c_named FOREIGN KEY (pid) REFERENCES kf_p ON DELETE RESTRICT);
INSERT INTO kf_c VALUES (1, 'a', 1, 1);
INSERT INTO kf_c VALUES (3, 'a', 1, 1);
INSERT INTO kf_c VALUES (1, 'zz', 1, 1);
INSERT INTO kf_c VALUES (1, 'a', 1, 3);
INSERT INTO kf_c VALUES (1, 'a', 1, null);
INSERT INTO kf_c VALUES (null, null, null, null);
INSERT INTO kf_c VALUES (2, 'b', 1, 2), (1, 'a', 2, 2);
SELECT * FROM kf_c ORDER BY pid NULLS LAST, x;
SELECT conname, contype, conkey, confkey, confrelid::regclass, confupdtype, confdeltype, confmatchtype, pg_get_constraintdef(oid)
  FROM pg_constraint WHERE conrelid = 'kf_c'::regclass ORDER BY conname;
\d kf_c
-- A row inserted in the same transaction (or statement) satisfies a reference.
BEGIN;
INSERT INTO kf_p VALUES (5, 'e', 5, 5);
INSERT INTO kf_c VALUES (5, 'e', 5, 5);
COMMIT;
CREATE TABLE kf_tree (id int PRIMARY KEY, parent int REFERENCES kf_tree);
INSERT INTO kf_tree VALUES (1, null), (2, 1), (3, 2);
INSERT INTO kf_tree VALUES (4, 9);
INSERT INTO kf_tree VALUES (5, 6), (6, 5);
SELECT * FROM kf_tree ORDER BY id;
-- Errors of the definition.
CREATE TABLE kf_bad (a int REFERENCES kf_nope);
CREATE TABLE kf_bad (a int REFERENCES kf_p (x));
CREATE TABLE kf_bad (a int, b int, FOREIGN KEY (a, b) REFERENCES kf_p (id));
CREATE TABLE kf_bad (a int REFERENCES kf_c);
CREATE TABLE kf_bad (a int, FOREIGN KEY (z) REFERENCES kf_p);
-- TRUNCATE and DROP of a referenced table.
TRUNCATE kf_p;
DROP TABLE kf_p;
-- ALTER TABLE ADD FOREIGN KEY validates the rows.
CREATE TABLE kf_a (pid int);
INSERT INTO kf_a VALUES (1), (7);
ALTER TABLE kf_a ADD FOREIGN KEY (pid) REFERENCES kf_p;
TRUNCATE kf_a;
INSERT INTO kf_a VALUES (1);
ALTER TABLE kf_a ADD FOREIGN KEY (pid) REFERENCES kf_p;
INSERT INTO kf_a VALUES (8);
ALTER TABLE kf_p DROP CONSTRAINT kf_p_pkey;
ALTER TABLE kf_p DROP CONSTRAINT kf_p_pkey CASCADE;
INSERT INTO kf_a VALUES (8);
DROP TABLE kf_p CASCADE;
\d kf_c
DROP TABLE kf_c, kf_tree, kf_a;
