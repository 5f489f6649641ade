-- nextval, currval and setval after ALTER SEQUENCE ... RESTART and
-- TRUNCATE ... RESTART IDENTITY in the same open transaction: the
-- transaction counts from the restart value; ROLLBACK undoes the restart
-- (the sequence goes on where it was), COMMIT keeps it.
CREATE TABLE sr_items (id serial PRIMARY KEY, v text);
INSERT INTO sr_items (v) VALUES ('a'), ('b'), ('c');

-- TRUNCATE ... RESTART IDENTITY, then rows in the same transaction.
BEGIN;
TRUNCATE sr_items RESTART IDENTITY;
INSERT INTO sr_items (v) VALUES ('x'), ('y');
SELECT id, v FROM sr_items ORDER BY id;
SELECT last_value, log_cnt, is_called FROM sr_items_id_seq;
SELECT currval('sr_items_id_seq');
ROLLBACK;
SELECT id, v FROM sr_items ORDER BY id;
SELECT last_value, is_called FROM sr_items_id_seq;
INSERT INTO sr_items (v) VALUES ('d') RETURNING id, v;

BEGIN;
TRUNCATE sr_items RESTART IDENTITY;
INSERT INTO sr_items (v) VALUES ('p'), ('q');
COMMIT;
INSERT INTO sr_items (v) VALUES ('r') RETURNING id, v;
SELECT id, v FROM sr_items ORDER BY id;
SELECT last_value, log_cnt, is_called FROM sr_items_id_seq;

-- ALTER SEQUENCE ... RESTART [WITH], setval and savepoints.
CREATE SEQUENCE sr_seq;
SELECT nextval('sr_seq'), nextval('sr_seq');
BEGIN;
ALTER SEQUENCE sr_seq RESTART WITH 100;
SELECT last_value, log_cnt, is_called FROM sr_seq;
SELECT nextval('sr_seq'), currval('sr_seq'), lastval();
SAVEPOINT s1;
SELECT nextval('sr_seq');
ALTER SEQUENCE sr_seq RESTART WITH 500;
SELECT nextval('sr_seq');
ROLLBACK TO SAVEPOINT s1;
-- the restart to 500 is undone, the nextval before it is not
SELECT nextval('sr_seq');
SELECT setval('sr_seq', 300);
SELECT nextval('sr_seq');
ROLLBACK;
SELECT nextval('sr_seq');

BEGIN;
ALTER SEQUENCE sr_seq RESTART;
SELECT nextval('sr_seq'), nextval('sr_seq');
ALTER SEQUENCE sr_seq RESTART WITH 40;
SELECT nextval('sr_seq');
COMMIT;
SELECT nextval('sr_seq');
SELECT last_value, log_cnt, is_called FROM sr_seq;

-- a restart and a rename in one transaction
BEGIN;
ALTER SEQUENCE sr_seq RESTART WITH 7;
ALTER SEQUENCE sr_seq RENAME TO sr_seq2;
SELECT nextval('sr_seq2');
COMMIT;
SELECT nextval('sr_seq2');

-- a sequence created in the transaction and restarted there
BEGIN;
CREATE SEQUENCE sr_new START 10;
SELECT nextval('sr_new'), nextval('sr_new');
ALTER SEQUENCE sr_new RESTART;
SELECT nextval('sr_new');
COMMIT;
SELECT nextval('sr_new');
SELECT last_value, log_cnt, is_called FROM sr_new;

-- identity columns restart with TRUNCATE too
CREATE TABLE sr_ident (id int GENERATED ALWAYS AS IDENTITY (START 5 INCREMENT 5), v int);
INSERT INTO sr_ident (v) VALUES (1), (2);
BEGIN;
TRUNCATE sr_ident RESTART IDENTITY;
INSERT INTO sr_ident (v) VALUES (3);
SELECT id, v FROM sr_ident ORDER BY id;
ROLLBACK;
INSERT INTO sr_ident (v) VALUES (4);
SELECT id, v FROM sr_ident ORDER BY id;

DROP TABLE sr_items, sr_ident;
DROP SEQUENCE sr_seq2, sr_new;
