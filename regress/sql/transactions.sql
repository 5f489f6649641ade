--
-- transactions: the session's transaction states (engine/txnfsm.go) as
-- psql sees them: blocks, failed blocks, savepoints, and the implicit
-- transaction of a multi-statement query (statements joined with \;).
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE tx_t (a integer);

-- outside a block
COMMIT;
ROLLBACK;
SAVEPOINT s;
RELEASE s;
ROLLBACK TO s;

-- a block, its savepoints, a failure and ROLLBACK TO
BEGIN;
BEGIN;
INSERT INTO tx_t VALUES (1);
SAVEPOINT s;
INSERT INTO tx_t VALUES (2);
SELECT 1/0;
SELECT a FROM tx_t ORDER BY a;
SAVEPOINT s2;
RELEASE s;
BEGIN;
ROLLBACK TO s;
SELECT a FROM tx_t ORDER BY a;
RELEASE s;
ROLLBACK TO s;
SELEC 1;
SELECT 1;
COMMIT;
SELECT a FROM tx_t ORDER BY a;

-- a multi-statement query is one implicit transaction
INSERT INTO tx_t VALUES (10) \; INSERT INTO tx_t VALUES ('x'::int);
SELECT a FROM tx_t ORDER BY a;
INSERT INTO tx_t VALUES (11) \; COMMIT \; INSERT INTO tx_t VALUES (1/0);
SELECT a FROM tx_t ORDER BY a;
INSERT INTO tx_t VALUES (12) \; ROLLBACK \; INSERT INTO tx_t VALUES (13);
SELECT a FROM tx_t ORDER BY a;
INSERT INTO tx_t VALUES (14) \; SAVEPOINT s \; INSERT INTO tx_t VALUES (15);
SELECT a FROM tx_t ORDER BY a;
SELECT 1 \; DISCARD ALL;
-- BEGIN inside it makes the block of what came before
INSERT INTO tx_t VALUES (16) \; BEGIN \; INSERT INTO tx_t VALUES (17);
ROLLBACK;
SELECT a FROM tx_t ORDER BY a;
-- after a block ends inside the string, the rest is implicit again
BEGIN;
COMMIT \; INSERT INTO tx_t VALUES (18) \; INSERT INTO tx_t VALUES ('x'::int);
SELECT a FROM tx_t ORDER BY a;
BEGIN;
SELECT 1/0;
ROLLBACK \; INSERT INTO tx_t VALUES (19) \; SET LOCAL extra_float_digits = 2 \; INSERT INTO tx_t VALUES ('x'::int);
SELECT a FROM tx_t ORDER BY a;
SET LOCAL extra_float_digits = 2;
INSERT INTO tx_t VALUES (20) \; SET LOCAL extra_float_digits = 3 \; SHOW extra_float_digits;
SHOW extra_float_digits;

DROP TABLE tx_t;
