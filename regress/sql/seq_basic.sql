SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- CREATE SEQUENCE and the sequence functions.
CREATE SEQUENCE sb_s;
SELECT * FROM sb_s;
SELECT nextval('sb_s'), nextval('sb_s');
SELECT * FROM sb_s;
SELECT currval('sb_s'), lastval();
SELECT nextval('sb_s'::regclass), currval('SB_S'), nextval('"sb_s"');
CREATE SEQUENCE sb_s;
CREATE SEQUENCE IF NOT EXISTS sb_s;
-- Options and their errors.
CREATE SEQUENCE sb_d INCREMENT BY -2 START WITH -3;
SELECT nextval('sb_d'), nextval('sb_d');
SELECT * FROM sb_d;
CREATE SEQUENCE sb_e MINVALUE 10 MAXVALUE 5;
CREATE SEQUENCE sb_e START 100 MAXVALUE 5;
CREATE SEQUENCE sb_e START -1;
CREATE SEQUENCE sb_e AS smallint MAXVALUE 100000;
CREATE SEQUENCE sb_e AS smallint MINVALUE -100000;
CREATE SEQUENCE sb_e INCREMENT 0;
CREATE SEQUENCE sb_e CACHE 0;
CREATE SEQUENCE sb_e AS text;
CREATE SEQUENCE sb_e CACHE 1 CACHE 2;
-- Limits and CYCLE.
CREATE SEQUENCE sb_m MAXVALUE 2;
SELECT nextval('sb_m'), nextval('sb_m');
SELECT nextval('sb_m');
SELECT * FROM sb_m;
CREATE SEQUENCE sb_c MINVALUE 1 MAXVALUE 3 CYCLE;
SELECT nextval('sb_c') FROM generate_series(1, 7);
CREATE SEQUENCE sb_dm INCREMENT -1 MINVALUE -2 MAXVALUE 0;
SELECT nextval('sb_dm'), nextval('sb_dm'), nextval('sb_dm');
SELECT nextval('sb_dm');
-- currval/lastval before any nextval; unknown relations; not a sequence.
CREATE SEQUENCE sb_n;
SELECT currval('sb_n');
SELECT nextval('sb_nosuch');
CREATE TABLE sb_t (a int);
SELECT nextval('sb_t');
-- setval, 2 and 3 arguments.
SELECT setval('sb_n', 10);
SELECT nextval('sb_n'), currval('sb_n');
SELECT setval('sb_n', 20, false);
SELECT currval('sb_n');
SELECT nextval('sb_n');
SELECT * FROM sb_n;
SELECT setval('sb_m', 5);
SELECT setval('sb_m', 0);
-- Non-transactional: a rolled-back nextval is not returned again.
BEGIN;
SELECT nextval('sb_n');
ROLLBACK;
SELECT nextval('sb_n');
-- A sequence created in a transaction block.
BEGIN;
CREATE SEQUENCE sb_tx START 5;
SELECT nextval('sb_tx'), nextval('sb_tx');
COMMIT;
SELECT nextval('sb_tx');
BEGIN;
CREATE SEQUENCE sb_gone;
ROLLBACK;
SELECT nextval('sb_gone');
-- ALTER SEQUENCE.
ALTER SEQUENCE sb_m RESTART;
SELECT nextval('sb_m');
SELECT * FROM sb_m;
ALTER SEQUENCE sb_m MAXVALUE 10 INCREMENT 3;
SELECT nextval('sb_m'), nextval('sb_m'), nextval('sb_m');
SELECT nextval('sb_m');
ALTER SEQUENCE sb_m RESTART WITH 2;
SELECT nextval('sb_m');
ALTER SEQUENCE sb_m INCREMENT 0;
ALTER SEQUENCE sb_m RESTART WITH 100;
ALTER SEQUENCE sb_m MAXVALUE 1;
ALTER SEQUENCE sb_nosuch RESTART;
ALTER SEQUENCE IF EXISTS sb_nosuch RESTART;
ALTER SEQUENCE sb_t RESTART;
ALTER SEQUENCE sb_m AS smallint;
SELECT sequencename, data_type, min_value, max_value, increment_by, last_value FROM pg_sequences WHERE sequencename LIKE 'sb%' ORDER BY 1;
ALTER SEQUENCE sb_m RENAME TO sb_m2;
SELECT nextval('sb_m2');
SELECT nextval('sb_m');
ALTER SEQUENCE sb_m2 RENAME TO sb_s;
-- Catalogs.
SELECT sequence_name, data_type, numeric_precision, start_value, minimum_value, maximum_value, increment, cycle_option
  FROM information_schema.sequences WHERE sequence_name LIKE 'sb%' ORDER BY 1;
SELECT relname, relkind, relnatts FROM pg_class WHERE relname LIKE 'sb%' ORDER BY 1;
SELECT c.relname, format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, s.seqmax, s.seqmin, s.seqcache, s.seqcycle
  FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relname LIKE 'sb%' ORDER BY 1;
-- Read-only transactions refuse nextval and setval.
BEGIN READ ONLY;
SELECT nextval('sb_s');
ROLLBACK;
BEGIN READ ONLY;
SELECT setval('sb_s', 3);
ROLLBACK;
-- ALTER TABLE renames a sequence too; an identity's sequence keeps its owner.
ALTER TABLE sb_s RENAME TO sb_s2;
SELECT nextval('sb_s2');
ALTER TABLE sb_s2 RENAME TO sb_s;
CREATE TABLE sb_i (a int GENERATED ALWAYS AS IDENTITY);
ALTER SEQUENCE sb_i_a_seq OWNED BY NONE;
DROP TABLE sb_i;
CREATE SEQUENCE sb_o OWNED BY pg_class.relname;
CREATE SEQUENCE sb_o OWNED BY sb_t.nosuch;
CREATE SEQUENCE sb_o OWNED BY sb_nosuch.a;
CREATE SEQUENCE sb_o OWNED BY sb_t;
-- DISCARD SEQUENCES forgets currval and lastval.
SELECT nextval('sb_s');
DISCARD SEQUENCES;
SELECT currval('sb_s');
SELECT lastval();
-- Temporary sequences, and a temporary table's serial column.
CREATE TEMP SEQUENCE sb_tmp;
CREATE TEMP TABLE sb_tt (a serial, b int DEFAULT nextval('sb_tmp'));
INSERT INTO sb_tt DEFAULT VALUES;
INSERT INTO sb_tt DEFAULT VALUES;
SELECT * FROM sb_tt ORDER BY a;
BEGIN READ ONLY;
SELECT nextval('sb_tmp');
ROLLBACK;
SELECT relname, relpersistence FROM pg_class WHERE relname LIKE 'sb_t%' ORDER BY 1;
DROP SEQUENCE sb_tmp;
DROP TABLE sb_tt;
SELECT count(*) FROM pg_class WHERE relname = 'sb_tt_a_seq';
CREATE TEMP SEQUENCE sb_tmp2;
DISCARD TEMP;
SELECT nextval('sb_tmp2');
-- A sequence is not a table; a view over one depends on it.
CREATE SEQUENCE sb_q;
INSERT INTO sb_q VALUES (1, 1, true);
TRUNCATE sb_q;
COPY sb_q TO STDOUT;
DROP TABLE sb_q;
DROP VIEW sb_q;
CREATE VIEW sb_qv AS SELECT * FROM sb_q;
SELECT * FROM sb_qv;
DROP SEQUENCE sb_q;
DROP SEQUENCE sb_q CASCADE;
-- DROP SEQUENCE.
CREATE TABLE sb_u (a bigint DEFAULT nextval('sb_s'), b text);
INSERT INTO sb_u (b) VALUES ('x'), ('y');
SELECT * FROM sb_u ORDER BY a;
DROP SEQUENCE sb_s;
DROP TABLE sb_u;
DROP SEQUENCE sb_s, sb_d, sb_c, sb_dm, sb_n, sb_tx;
DROP SEQUENCE sb_nosuch;
DROP SEQUENCE IF EXISTS sb_nosuch;
DROP SEQUENCE sb_t;
DROP TABLE sb_t;
SELECT count(*) FROM pg_class WHERE relname LIKE 'sb%';
