SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Deferred foreign keys: checked at COMMIT; SET CONSTRAINTS.
CREATE TABLE kd_p (id int PRIMARY KEY);
CREATE TABLE kd_c (pid int REFERENCES kd_p DEFERRABLE INITIALLY DEFERRED, qid int,
  CONSTRAINT kd_c_q FOREIGN KEY (qid) REFERENCES kd_p DEFERRABLE, CONSTRAINT kd_c_n FOREIGN KEY (qid) REFERENCES kd_p);
SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'kd_c'::regclass ORDER BY conname;
-- The child row first, the parent later in the transaction.
BEGIN;
INSERT INTO kd_c VALUES (1, null);
INSERT INTO kd_p VALUES (1);
COMMIT;
-- Never fixed: COMMIT fails and nothing is kept.
BEGIN;
INSERT INTO kd_p VALUES (2);
INSERT INTO kd_c VALUES (9, null);
COMMIT;
SELECT * FROM kd_p ORDER BY id;
SELECT * FROM kd_c ORDER BY pid;
-- Outside a block the statement is its own transaction.
INSERT INTO kd_c VALUES (8, null);
-- SET CONSTRAINTS (outside a block: a warning, and it lasts for the statement).
SET CONSTRAINTS ALL DEFERRED;
BEGIN;
INSERT INTO kd_c VALUES (null, 3);
ROLLBACK;
BEGIN;
SET CONSTRAINTS kd_c_q DEFERRED;
INSERT INTO kd_c VALUES (null, 3);
ROLLBACK;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
INSERT INTO kd_c VALUES (7, null);
SET CONSTRAINTS ALL IMMEDIATE;
ROLLBACK;
BEGIN;
SET CONSTRAINTS kd_c_pid_fkey IMMEDIATE;
INSERT INTO kd_c VALUES (7, null);
ROLLBACK;
BEGIN;
SET CONSTRAINTS nope DEFERRED;
ROLLBACK;
BEGIN;
SET CONSTRAINTS kd_c_n DEFERRED;
ROLLBACK;
BEGIN;
INSERT INTO kd_c VALUES (5, null);
SAVEPOINT s;
INSERT INTO kd_c VALUES (6, null);
ROLLBACK TO s;
INSERT INTO kd_p VALUES (5);
COMMIT;
SELECT * FROM kd_c ORDER BY pid;
DROP TABLE kd_c, kd_p;
