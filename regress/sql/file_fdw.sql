-- Foreign tables over CSV and text files, contrib file_fdw's way. The
-- files are regress/data/fdw/*, named as PostgreSQL's own suites name theirs.
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
\getenv abs_srcdir PG_ABS_SRCDIR
\set people :abs_srcdir '/data/fdw/people.csv'
\set words :abs_srcdir '/data/fdw/words.txt'
\set pipe :abs_srcdir '/data/fdw/pipe.dat'
\set badint :abs_srcdir '/data/fdw/badint.csv'
\set extra :abs_srcdir '/data/fdw/extra.csv'
\set short :abs_srcdir '/data/fdw/short.csv'
\set ids :abs_srcdir '/data/fdw/ids.csv'
\set nonull :abs_srcdir '/data/fdw/nonull.csv'
\set force :abs_srcdir '/data/fdw/force.csv'
\set quote :abs_srcdir '/data/fdw/quote.csv'
\set header :abs_srcdir '/data/fdw/header.csv'
\set rowsbin :abs_srcdir '/data/fdw/rows.bin'

-- The wrapper comes with the extension.
CREATE SERVER early FOREIGN DATA WRAPPER file_fdw;
CREATE EXTENSION file_fdw;
CREATE EXTENSION file_fdw;
CREATE EXTENSION IF NOT EXISTS file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE SERVER IF NOT EXISTS files FOREIGN DATA WRAPPER file_fdw;
CREATE SERVER other FOREIGN DATA WRAPPER postgres_fdw;
CREATE SERVER withopts FOREIGN DATA WRAPPER file_fdw OPTIONS (filename '/x');

-- file_fdw's option checks.
CREATE FOREIGN TABLE f_nofile (a int) SERVER files OPTIONS (format 'csv');
CREATE FOREIGN TABLE f_both (a int) SERVER files OPTIONS (filename '/x', program 'cat /x');
CREATE FOREIGN TABLE f_fmt (a int) SERVER files OPTIONS (filename '/x', format 'xml');
CREATE FOREIGN TABLE f_bogus (a int) SERVER files OPTIONS (filename '/x', bogus 'y');
CREATE FOREIGN TABLE f_twice (a int) SERVER files OPTIONS (filename '/x', filename '/y');
CREATE FOREIGN TABLE f_quote (a int) SERVER files OPTIONS (filename '/x', quote '"');
CREATE FOREIGN TABLE f_escape (a int) SERVER files OPTIONS (filename '/x', format 'text', escape '\');
CREATE FOREIGN TABLE f_delim (a int) SERVER files OPTIONS (filename '/x', delimiter ';;');
CREATE FOREIGN TABLE f_header (a int) SERVER files OPTIONS (filename '/x', header 'sometimes');
CREATE FOREIGN TABLE f_same (a int) SERVER files OPTIONS (filename '/x', format 'csv', delimiter '"');
CREATE FOREIGN TABLE f_nosrv (a int) SERVER nosuch OPTIONS (filename '/x');
CREATE FOREIGN TABLE f_colopt (a int OPTIONS (bogus 'true')) SERVER files OPTIONS (filename '/x');
CREATE FOREIGN TABLE f_fnn (a int OPTIONS (force_not_null 'true')) SERVER files OPTIONS (filename '/x');

-- CSV with a header: quoting, empty strings and NULLs.
CREATE FOREIGN TABLE people (id int, name text, score numeric, joined date)
  SERVER files OPTIONS (filename :'people', format 'csv', header 'true');
SELECT * FROM people ORDER BY id;
SELECT id, name IS NULL AS name_null, name = '' AS name_empty, score IS NULL AS score_null FROM people ORDER BY id;
SELECT count(*), sum(score), min(joined), max(joined) FROM people;
SELECT name FROM people WHERE score > 5 ORDER BY name;
SELECT id FROM people WHERE joined IS NULL;
CREATE FOREIGN TABLE IF NOT EXISTS people (id int) SERVER files OPTIONS (filename :'people');

-- NULL given as a string.
CREATE FOREIGN TABLE people_n (id int, name text, score numeric, joined date)
  SERVER files OPTIONS (filename :'people', format 'csv', header 'true', null 'NULL');
SELECT id, name, name IS NULL AS name_null FROM people_n ORDER BY id;
-- An empty score is no NULL now.
SELECT id, score FROM people_n ORDER BY id;

-- The text format: tabs, \N, escapes.
CREATE FOREIGN TABLE words (n int, w text, extra text) SERVER files OPTIONS (filename :'words');
SELECT n, w, w IS NULL AS w_null, extra, extra IS NULL AS extra_null FROM words ORDER BY n;

-- Another delimiter and NULL string.
CREATE FOREIGN TABLE piped (a int, b int, c text) SERVER files OPTIONS (filename :'pipe', delimiter '|', null 'NA');
SELECT a, c, c IS NULL AS c_null FROM piped ORDER BY a;
SELECT a, b FROM piped ORDER BY a;

-- quote and escape.
CREATE FOREIGN TABLE quoted (a int, b text, c text) SERVER files
  OPTIONS (filename :'quote', format 'csv', delimiter ';', quote '''', escape '''');
SELECT a, b, c, c IS NULL AS c_null FROM quoted ORDER BY a;

-- force_not_null and force_null are column options.
CREATE FOREIGN TABLE forced (a text OPTIONS (force_not_null 'true'), b text OPTIONS (force_null 'true'))
  SERVER files OPTIONS (filename :'force', format 'csv', header 'true');
SELECT a, a IS NULL AS a_null, b, b IS NULL AS b_null FROM forced;
CREATE FOREIGN TABLE unforced (a text, b text) SERVER files OPTIONS (filename :'force', format 'csv', header 'true');
SELECT a, a IS NULL AS a_null, b, b IS NULL AS b_null FROM unforced;

-- header 'match' reads the header line as a header.
CREATE FOREIGN TABLE hdr (name text, score int) SERVER files OPTIONS (filename :'header', format 'csv', header 'match');
SELECT * FROM hdr;

-- COPY's binary format (the file is PostgreSQL's COPY ... TO (FORMAT
-- binary) of (1, 'x', 1.5), (2, NULL, NULL), (3, 'z', 3)).
CREATE FOREIGN TABLE binrows (a int, b text, c numeric) SERVER files OPTIONS (filename :'rowsbin', format 'binary');
SELECT * FROM binrows ORDER BY a;
SELECT b FROM binrows WHERE c IS NULL;
CREATE FOREIGN TABLE binwrong (a int, b int, c numeric) SERVER files OPTIONS (filename :'rowsbin', format 'binary');
SELECT a FROM binwrong;
CREATE FOREIGN TABLE binopt (a int) SERVER files OPTIONS (filename :'rowsbin', format 'binary', delimiter ',');

-- Bad rows give COPY's error and CONTEXT, with the foreign table's name.
CREATE FOREIGN TABLE badint (a int, b text) SERVER files OPTIONS (filename :'badint', format 'csv');
SELECT * FROM badint;
SELECT count(*) FROM badint;
-- Only the columns a query reads are converted (file_fdw's convert_selectively).
SELECT b FROM badint ORDER BY b;
CREATE FOREIGN TABLE extra (a int, b text) SERVER files OPTIONS (filename :'extra', format 'csv');
SELECT * FROM extra;
CREATE FOREIGN TABLE short (a int, b text) SERVER files OPTIONS (filename :'short', format 'csv');
SELECT * FROM short;

-- Joins with stored tables, NOT IN over a foreign table.
CREATE FOREIGN TABLE ids (id int) SERVER files OPTIONS (filename :'ids', format 'csv');
CREATE FOREIGN TABLE nonull (id int) SERVER files OPTIONS (filename :'nonull', format 'csv');
CREATE TABLE fdw_scores (id int, bonus int);
INSERT INTO fdw_scores VALUES (1, 100), (2, 200), (4, 400), (6, 600), (NULL, 0);
SELECT p.id, p.name, s.bonus FROM people p JOIN fdw_scores s ON s.id = p.id ORDER BY p.id;
SELECT p.id, s.bonus FROM people p LEFT JOIN fdw_scores s USING (id) ORDER BY p.id;
SELECT * FROM ids ORDER BY id NULLS FIRST;
SELECT id FROM fdw_scores WHERE id NOT IN (SELECT id FROM ids) ORDER BY id;
SELECT id FROM fdw_scores WHERE id NOT IN (SELECT id FROM nonull) ORDER BY id;
SELECT id FROM people WHERE id NOT IN (SELECT id FROM fdw_scores WHERE id IS NOT NULL) ORDER BY id;
SELECT id FROM people WHERE id NOT IN (SELECT id FROM fdw_scores) ORDER BY id;
SELECT id FROM people WHERE id IN (SELECT id FROM nonull) ORDER BY id;
SELECT id FROM fdw_scores s WHERE NOT EXISTS (SELECT 1 FROM ids i WHERE i.id = s.id) ORDER BY id;
SELECT a.id, b.id FROM ids a JOIN nonull b ON a.id = b.id ORDER BY 1;
CREATE VIEW fdw_view AS SELECT id, name FROM people WHERE id < 3;
SELECT * FROM fdw_view ORDER BY id;

-- psql's \d family and the catalogs (a table of a file that need not
-- exist until it is read).
CREATE FOREIGN TABLE described (id int NOT NULL, name text, score numeric(6,2) OPTIONS (force_null 'true'), joined date)
  SERVER files OPTIONS (filename '/nonexistent/described.csv', format 'csv', header 'true', delimiter ';');
\d described
\det
\des
SELECT relname, relkind FROM pg_class WHERE relname IN ('described', 'fdw_scores') ORDER BY 1;
SELECT c.relname, s.srvname, ft.ftoptions FROM pg_foreign_table ft JOIN pg_class c ON c.oid = ft.ftrelid
  JOIN pg_foreign_server s ON s.oid = ft.ftserver WHERE c.relname = 'described';
SELECT attname, attfdwoptions FROM pg_attribute WHERE attrelid = 'described'::regclass AND attnum > 0 ORDER BY attnum;
SELECT * FROM pg_options_to_table(ARRAY['a=1', 'b=x=y', 'c']);
SELECT srvname, fdwname FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw;
SELECT extname, extversion FROM pg_extension WHERE extname = 'file_fdw';
-- ALTER FOREIGN TABLE ... OPTIONS: ADD, SET, DROP, checked again.
ALTER FOREIGN TABLE described OPTIONS (SET delimiter '|', DROP header, ADD null 'NA');
ALTER FOREIGN TABLE described OPTIONS (ADD null 'x');
ALTER FOREIGN TABLE described OPTIONS (SET quote '"', DROP escape);
ALTER FOREIGN TABLE described OPTIONS (DROP filename);
ALTER FOREIGN TABLE described OPTIONS (SET format 'text');
ALTER FOREIGN TABLE described ALTER COLUMN name OPTIONS (ADD force_not_null 'true');
ALTER FOREIGN TABLE described ALTER COLUMN score OPTIONS (DROP force_null);
ALTER FOREIGN TABLE described ALTER COLUMN score OPTIONS (ADD bogus 'true');
ALTER FOREIGN TABLE described ALTER COLUMN nosuch OPTIONS (ADD force_null 'true');
ALTER FOREIGN TABLE fdw_scores OPTIONS (ADD format 'csv');
\d described
BEGIN;
ALTER FOREIGN TABLE described OPTIONS (SET filename '/elsewhere.csv');
ROLLBACK;
SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'described'::regclass;
DROP FOREIGN TABLE described;
-- Repointing a table at another file.
CREATE FOREIGN TABLE repointed (id int) SERVER files OPTIONS (filename :'ids', format 'csv');
SELECT count(*), count(id) FROM repointed;
ALTER FOREIGN TABLE repointed OPTIONS (SET filename :'nonull');
SELECT count(*), count(id) FROM repointed;
DROP FOREIGN TABLE repointed;

-- Foreign tables are read-only.
INSERT INTO people VALUES (9, 'x', 1, NULL);
UPDATE people SET score = 0;
DELETE FROM people;
TRUNCATE people;
COPY people TO STDOUT;
CREATE INDEX ON people (id);
-- ALTER TABLE changes the definition only.
ALTER TABLE ids ADD COLUMN extra int;
SELECT * FROM ids ORDER BY id NULLS FIRST;
ALTER TABLE ids DROP COLUMN extra;

-- DROP: kinds, dependencies, CASCADE.
DROP TABLE people;
DROP FOREIGN TABLE fdw_scores;
DROP FOREIGN TABLE nosuch;
DROP FOREIGN TABLE IF EXISTS nosuch;
DROP FOREIGN TABLE people;
DROP VIEW fdw_view;
DROP FOREIGN TABLE people, people_n;
SELECT * FROM people;
DROP SERVER nosuch;
DROP SERVER IF EXISTS nosuch;
CREATE VIEW fdw_ids AS SELECT * FROM ids;
CREATE VIEW fdw_ids2 AS SELECT * FROM fdw_ids;
DROP SERVER files;
DROP EXTENSION file_fdw;
DROP EXTENSION file_fdw CASCADE;
SELECT * FROM ids;
DROP EXTENSION file_fdw;
DROP EXTENSION IF EXISTS file_fdw;
DROP TABLE fdw_scores;
