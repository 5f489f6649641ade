SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- composite types: CREATE TYPE ... AS (...), I/O, fields, storage, ALTER and DROP TYPE, catalogs
CREATE TYPE cpt_pt AS (x float8, y float8);
CREATE TYPE cpt_pt AS (z int);
CREATE TYPE cpt_bad AS (a int, a text);
CREATE TYPE cpt_bad AS (a record);
CREATE TYPE cpt_empty AS ();
CREATE TYPE cpt_person AS (name text, born date, tags text[]);
CREATE TYPE cpt_seg AS (a cpt_pt, b cpt_pt);
-- input and output, record_in/record_out quoting
SELECT (1.5,2)::cpt_pt AS p, ROW(3,NULL)::cpt_pt AS q, '(1,2)'::cpt_pt AS r;
SELECT '(Joe,2000-01-02,"{a,b}")'::cpt_person AS p, ROW('a "q" b', NULL, '{}')::cpt_person AS q;
SELECT ' (1,2) '::cpt_pt;
SELECT '(1)'::cpt_pt;
SELECT '(1,2,3)'::cpt_pt;
SELECT '(1,2) x'::cpt_pt;
SELECT 'x'::cpt_pt;
SELECT ROW(1,2,3)::cpt_pt;
SELECT ROW((1,2),(3,4))::cpt_seg AS s, pg_typeof(ROW((1,2),(3,4))::cpt_seg);
-- field selection
SELECT ((1,2)::cpt_pt).y, (ROW((1,2),(3,4))::cpt_seg).b.x, (ROW((1,2),(3,4))::cpt_seg).b;
SELECT ((1,2)::cpt_pt).*;
SELECT (ROW((1,2),(3,4))::cpt_seg).a.*;
SELECT ((1,2)::cpt_pt).z;
-- stored columns
CREATE TABLE cpt_t (id int, p cpt_pt, s cpt_seg);
INSERT INTO cpt_t VALUES (1, '(1,2)', '("(1,2)","(3,4)")'), (2, ROW(0,5), NULL), (3, NULL, ROW(ROW(9,9), NULL)), (4, '(1,1)', NULL);
SELECT * FROM cpt_t ORDER BY id;
SELECT id, (p).x, (s).a.y FROM cpt_t ORDER BY id;
SELECT id FROM cpt_t WHERE p = '(1,2)'::cpt_pt ORDER BY id;
SELECT id, p FROM cpt_t ORDER BY p, id;
SELECT id, p FROM cpt_t ORDER BY p DESC NULLS LAST, id;
SELECT p, count(*) FROM cpt_t GROUP BY p ORDER BY p;
SELECT p < ROW(1,3)::cpt_pt AS lt, p IS NULL AS isnull FROM cpt_t ORDER BY id;
UPDATE cpt_t SET p = ROW((p).x + 10, (p).y) WHERE id = 1;
SELECT * FROM cpt_t WHERE id = 1;
COPY cpt_t (id, p) FROM STDIN;
5	(7,"8")
6	\N
\.
COPY (SELECT id, p, s FROM cpt_t ORDER BY id) TO STDOUT;
-- arrays of the type
SELECT ARRAY[(1,2)::cpt_pt, NULL, '(3,4)'] AS a, pg_typeof(ARRAY[(1,2)::cpt_pt]);
SELECT ('{"(1,2)","(3,4)"}'::cpt_pt[])[2].y;
CREATE TABLE cpt_arr (a cpt_pt[]);
INSERT INTO cpt_arr VALUES ('{"(1,2)"}'), (ARRAY[ROW(5,6)::cpt_pt, ROW(7,8)::cpt_pt]);
SELECT a, a[1], (a[1]).x FROM cpt_arr ORDER BY 1;
-- catalogs
SELECT t.typname, t.typtype, t.typcategory, t.typlen, t.typalign, t.typstorage, t.typinput, t.typoutput,
       t.typreceive, t.typsend, t.typrelid = c.oid AS rel, c.relkind, c.relnatts, c.reltype = t.oid AS reltype
FROM pg_type t JOIN pg_class c ON c.oid = t.typrelid WHERE t.typname LIKE 'cpt%' ORDER BY 1;
SELECT a.typname, a.typcategory, a.typelem = t.oid AS elem, t.typarray = a.oid AS arr, a.typinput
FROM pg_type t JOIN pg_type a ON a.typelem = t.oid WHERE t.typname LIKE 'cpt%' ORDER BY 1;
SELECT c.relname, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname LIKE 'cpt%' AND c.relkind = 'c' ORDER BY 1, 3;
SELECT format_type('cpt_pt'::regtype, NULL), format_type('cpt_pt[]'::regtype, NULL);
-- ALTER TYPE ... ATTRIBUTE
ALTER TYPE cpt_pt ADD ATTRIBUTE z int;
SELECT * FROM cpt_t ORDER BY id;
SELECT (p).z, p FROM cpt_t WHERE id = 1;
INSERT INTO cpt_t VALUES (7, ROW(1,2,3), NULL);
SELECT id, p FROM cpt_t WHERE (p).z IS NOT NULL ORDER BY id;
ALTER TYPE cpt_pt ADD ATTRIBUTE z text;
ALTER TYPE cpt_pt DROP ATTRIBUTE nope;
ALTER TYPE cpt_pt ALTER ATTRIBUTE z TYPE text;
ALTER TYPE cpt_person RENAME ATTRIBUTE born TO birth;
ALTER TYPE cpt_person ADD ATTRIBUTE age int, DROP ATTRIBUTE tags;
ALTER TYPE cpt_person ALTER ATTRIBUTE age TYPE numeric;
SELECT '(x,2001-01-01,42)'::cpt_person;
ALTER TYPE cpt_person RENAME ATTRIBUTE nope TO x;
ALTER TYPE cpt_nope ADD ATTRIBUTE a int;
ALTER TYPE cpt_person RENAME TO cpt_human;
SELECT ROW('y', NULL, 1)::cpt_human;
-- DROP TYPE
DROP TYPE cpt_pt;
DROP TYPE cpt_empty, cpt_human;
DROP TYPE cpt_nope;
DROP TYPE IF EXISTS cpt_nope;
DROP TABLE cpt_arr;
ALTER TABLE cpt_t DROP COLUMN s;
DROP TYPE cpt_pt CASCADE;
SELECT * FROM cpt_t ORDER BY id;
SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'cpt_seg' AND NOT a.attisdropped ORDER BY a.attnum;
\d cpt_seg
-- table row types
CREATE TABLE cpt_name (first text, last text);
INSERT INTO cpt_name VALUES ('Joe', 'Blow');
CREATE TABLE cpt_people (fn cpt_name, bd date, fa cpt_name[]);
INSERT INTO cpt_people VALUES ('(Joe,Blow)', '1984-01-10', '{"(a,b)"}');
INSERT INTO cpt_people SELECT n, '2000-01-01', ARRAY[n] FROM cpt_name n;
SELECT * FROM cpt_people ORDER BY bd;
SELECT pg_typeof(n), n, pg_typeof(ARRAY[n]) FROM cpt_name n;
SELECT (fn).last, fa[1] FROM cpt_people ORDER BY bd;
ALTER TABLE cpt_name ADD COLUMN suffix text;
SELECT * FROM cpt_people ORDER BY bd;
SELECT ROW('a', 'b', 'c')::cpt_name, '(x,y,z)'::cpt_name;
SELECT t.typtype, t.typrelid = c.oid AS rel, c.reltype = t.oid AS reltype, a.typname AS arr
FROM pg_type t JOIN pg_class c ON c.oid = t.typrelid JOIN pg_type a ON a.oid = t.typarray WHERE t.typname = 'cpt_name';
DROP TABLE cpt_people, cpt_name;
-- record image operators
CREATE TYPE cpt_ii AS (a int, b int);
CREATE TYPE cpt_it AS (a int, b text);
SELECT ROW(1, 2)::cpt_ii *< ROW(1, 3)::cpt_ii AS a, ROW(1, -2)::cpt_ii *< ROW(1, 3)::cpt_ii AS b,
       ROW(1, -2)::cpt_ii < ROW(1, 3)::cpt_ii AS c, ROW(1, 2)::cpt_ii *= ROW(1, 2)::cpt_ii AS d,
       ROW(1, NULL)::cpt_ii *>= ROW(1, 2)::cpt_ii AS e;
SELECT ROW(1, 'abc')::cpt_it *< ROW(1, 'abcd')::cpt_it AS a, ROW(1, 'abd')::cpt_it *> ROW(1, 'abcd')::cpt_it AS b,
       ROW(1, 'x')::cpt_it *<> ROW(1, 'x')::cpt_it AS c;
SELECT ROW(1, 2)::cpt_ii *< ROW(1, 'abc')::cpt_it;
DROP TYPE cpt_ii, cpt_it;
DROP TABLE cpt_t;
DROP TYPE cpt_seg;
SELECT count(*) FROM pg_type WHERE typname LIKE '%cpt%';
