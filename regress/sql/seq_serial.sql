SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- serial, bigserial, smallserial: an owned sequence, a nextval DEFAULT, NOT NULL.
CREATE TABLE ss_t (a serial, b bigserial, c smallserial, d text);
INSERT INTO ss_t (d) VALUES ('x'), ('y');
INSERT INTO ss_t (d) SELECT 'g' || i FROM generate_series(1, 3) i;
INSERT INTO ss_t VALUES (DEFAULT, 100, DEFAULT, 'explicit');
SELECT * FROM ss_t ORDER BY a;
INSERT INTO ss_t (a, d) VALUES (NULL, 'null');
SELECT pg_get_serial_sequence('ss_t', 'a'), pg_get_serial_sequence('ss_t', 'b'), pg_get_serial_sequence('ss_t', 'd');
SELECT sequencename, data_type, max_value, last_value FROM pg_sequences WHERE sequencename LIKE 'ss%' ORDER BY 1;
SELECT column_name, column_default, is_nullable FROM information_schema.columns WHERE table_name = 'ss_t' ORDER BY ordinal_position;
SELECT currval('ss_t_a_seq'), lastval();
-- A taken name moves the sequence's name on.
CREATE SEQUENCE ss_u_a_seq;
CREATE TABLE ss_u (a serial);
SELECT pg_get_serial_sequence('ss_u', 'a');
INSERT INTO ss_u DEFAULT VALUES;
SELECT * FROM ss_u;
-- serial with a DEFAULT is an error; so is a serial in a table that exists.
CREATE TABLE ss_v (a serial DEFAULT 1);
CREATE TABLE ss_t (a serial);
SELECT count(*) FROM pg_class WHERE relname = 'ss_t_a_seq1';
-- The owned sequence cannot be dropped while its column uses it.
DROP SEQUENCE ss_t_a_seq;
-- A DEFAULT follows its sequence's rename.
CREATE TABLE ss_w (x int DEFAULT nextval('ss_t_a_seq'));
ALTER SEQUENCE ss_t_a_seq RENAME TO ss_renamed;
INSERT INTO ss_w DEFAULT VALUES;
SELECT * FROM ss_w;
SELECT table_name, column_name, column_default FROM information_schema.columns WHERE table_name IN ('ss_t', 'ss_w') AND column_default IS NOT NULL ORDER BY 1, 2;
DROP SEQUENCE ss_renamed;
DROP TABLE ss_w;
ALTER SEQUENCE ss_renamed RENAME TO ss_t_a_seq;
-- TRUNCATE ... RESTART IDENTITY restarts it, CONTINUE IDENTITY does not.
TRUNCATE ss_t CONTINUE IDENTITY;
INSERT INTO ss_t (d) VALUES ('continued');
SELECT a, b, c, d FROM ss_t;
TRUNCATE ss_t RESTART IDENTITY;
INSERT INTO ss_t (d) VALUES ('restarted');
SELECT a, b, c, d FROM ss_t;
BEGIN;
TRUNCATE ss_t RESTART IDENTITY;
ROLLBACK;
INSERT INTO ss_t (d) VALUES ('after rollback');
SELECT a, b, c, d FROM ss_t ORDER BY a;
-- COPY fills omitted serial columns.
COPY ss_t (d) FROM STDIN;
copy1
copy2
\.
SELECT a, d FROM ss_t ORDER BY a;
-- DROP TABLE drops the sequences its columns own.
DROP TABLE ss_t;
SELECT relname FROM pg_class WHERE relname LIKE 'ss%' ORDER BY 1;
DROP TABLE ss_u;
DROP SEQUENCE ss_u_a_seq;
SELECT relname FROM pg_class WHERE relname LIKE 'ss%' ORDER BY 1;
