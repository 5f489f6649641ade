SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Statements of PostgreSQL's own regression files (update, insert_conflict,
-- truncate, sequence) that joind once answered differently.

-- START TRANSACTION has its own command tag
START TRANSACTION READ ONLY;
COMMIT;
START TRANSACTION ISOLATION LEVEL REPEATABLE READ;
START TRANSACTION;
ROLLBACK;

-- TRUNCATE ... CASCADE follows FOREIGN KEYs round by round
CREATE TABLE tc_a (a int PRIMARY KEY);
CREATE TABLE tc_b (b serial PRIMARY KEY, a int REFERENCES tc_a);
CREATE TABLE tc_c (b int REFERENCES tc_b, a int REFERENCES tc_a);
CREATE TABLE tc_d (b int REFERENCES tc_b);
CREATE TABLE tc_other (x int);
INSERT INTO tc_a VALUES (1), (2);
INSERT INTO tc_b (a) VALUES (1), (2);
INSERT INTO tc_c VALUES (1, 1);
INSERT INTO tc_d VALUES (2);
INSERT INTO tc_other VALUES (7);
TRUNCATE tc_a;
TRUNCATE tc_a RESTRICT;
TRUNCATE tc_a, tc_b;
BEGIN;
TRUNCATE tc_b CASCADE;
SELECT (SELECT count(*) FROM tc_a) AS a, (SELECT count(*) FROM tc_b) AS b,
       (SELECT count(*) FROM tc_c) AS c, (SELECT count(*) FROM tc_d) AS d;
ROLLBACK;
TRUNCATE tc_a, tc_other CASCADE;
SELECT (SELECT count(*) FROM tc_a) AS a, (SELECT count(*) FROM tc_b) AS b,
       (SELECT count(*) FROM tc_c) AS c, (SELECT count(*) FROM tc_d) AS d,
       (SELECT count(*) FROM tc_other) AS other;
-- RESTART IDENTITY restarts the sequences of the cascaded tables too
INSERT INTO tc_a VALUES (1);
INSERT INTO tc_b (a) VALUES (1) RETURNING b;
TRUNCATE tc_a RESTART IDENTITY CASCADE;
INSERT INTO tc_a VALUES (1);
INSERT INTO tc_b (a) VALUES (1) RETURNING b;
TRUNCATE tc_d CASCADE;
DROP TABLE tc_d, tc_c, tc_b, tc_a, tc_other;

-- ON CONFLICT inference: repeated columns name one index
CREATE TABLE oc_t (key int, fruit text);
CREATE UNIQUE INDEX oc_key ON oc_t (key);
INSERT INTO oc_t VALUES (1, 'Apple');
INSERT INTO oc_t VALUES (1, 'Orange') ON CONFLICT (key, key, key) DO UPDATE SET fruit = excluded.fruit RETURNING *;
INSERT INTO oc_t VALUES (2, 'Pear') ON CONFLICT (key, key) DO NOTHING RETURNING *;
INSERT INTO oc_t VALUES (2, 'Plum') ON CONFLICT (key, fruit) DO NOTHING;
-- the missing index is reported after DO UPDATE's own errors
INSERT INTO oc_t VALUES (3, 'Fig') ON CONFLICT (fruit) DO UPDATE SET fruit = excluded.nosuch;
INSERT INTO oc_t VALUES (3, 'Fig') ON CONFLICT (fruit) DO UPDATE SET fruit = 'x';
-- EXCLUDED has no system columns
INSERT INTO oc_t VALUES (1) ON CONFLICT (key) DO UPDATE SET fruit = excluded.ctid::text;
INSERT INTO oc_t VALUES (1) ON CONFLICT (key) DO UPDATE SET fruit = excluded.xmin::text;
SELECT * FROM oc_t ORDER BY key;
DROP TABLE oc_t;

-- COMMENT ON SEQUENCE
CREATE SEQUENCE cs_seq CACHE 5;
CREATE TABLE cs_tab (a int);
COMMENT ON SEQUENCE cs_nosuch IS 'won''t work';
COMMENT ON SEQUENCE cs_tab IS 'not a sequence';
SELECT nextval('cs_seq');
COMMENT ON SEQUENCE cs_seq IS 'will work';
SELECT nextval('cs_seq');
SELECT c.relname, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
 WHERE c.relname LIKE 'cs\_%' ORDER BY 1;
SELECT obj_description('cs_seq'::regclass, 'pg_class');
COMMENT ON SEQUENCE public.cs_seq IS '';
SELECT count(*) FROM pg_description d JOIN pg_class c ON c.oid = d.objoid WHERE c.relname = 'cs_seq';
COMMENT ON SEQUENCE cs_seq IS 'again';
COMMENT ON SEQUENCE cs_seq IS NULL;
SELECT count(*) FROM pg_description d JOIN pg_class c ON c.oid = d.objoid WHERE c.relname = 'cs_seq';
DROP TABLE cs_tab;
DROP SEQUENCE cs_seq;

-- ALTER TABLE refuses the system catalogs (alter_table)
ALTER TABLE pg_class ALTER COLUMN relname DROP NOT NULL;
ALTER TABLE pg_class DROP COLUMN relname;
ALTER TABLE pg_class RENAME COLUMN relname TO x;
ALTER TABLE IF EXISTS pg_class RENAME TO x;
ALTER TABLE IF EXISTS pg_nosuch_rel ADD COLUMN x int;

-- FOREIGN KEYs between temporary tables (foreign_key, temp, alter_table)
create temp table tp (id int primary key, v text);
create temp table tc (id int primary key, p int references tp on delete cascade, q int);
create temp table td (c int references tc on update cascade);
create table perm (id int primary key);
create table permc (p int references tp);
create temp table tempc (p int references perm);
insert into tp values (1, 'a'), (2, 'b');
insert into tc values (10, 1), (20, 2);
insert into td values (10);
insert into tc values (30, 3);
delete from tp where id = 1;
select * from tc order by id;
select * from td order by c;
update tc set id = 21 where id = 20;
select * from td order by c;
insert into td values (20);
delete from tc where id = 21;
truncate tp;
truncate tp cascade;
select count(*) from tc;
alter table tc add foreign key (q) references tp;
alter table tc drop constraint tc_pkey;
drop table tp;
drop table tp cascade;
insert into tc values (40, 99);
drop table tc, td;
drop table perm;

-- a table ON COMMIT DELETE ROWS referenced by one that keeps its rows fails the COMMIT
BEGIN;
CREATE TEMP TABLE temptest1(col int PRIMARY KEY);
CREATE TEMP TABLE temptest2(col int REFERENCES temptest1)
  ON COMMIT DELETE ROWS;
INSERT INTO temptest1 VALUES (1);
INSERT INTO temptest2 VALUES (1);
COMMIT;
SELECT * FROM temptest1;
SELECT * FROM temptest2;
BEGIN;
CREATE TEMP TABLE temptest3(col int PRIMARY KEY) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE temptest4(col int REFERENCES temptest3);
COMMIT;
SELECT * FROM temptest3;
CREATE TEMP TABLE temptest5(col int PRIMARY KEY) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE temptest6(col int REFERENCES temptest5);
SELECT 1;
DROP TABLE temptest2, temptest1;
