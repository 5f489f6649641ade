-- CREATE FUNCTION ... LANGUAGE sql: definitions, their errors, calls.
CREATE TABLE cf_items (id int, name text, price numeric);
INSERT INTO cf_items VALUES (1, 'apple', 1.50), (2, 'pear', 2.25), (3, 'fig', NULL);

CREATE FUNCTION cf_double(x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x * 2';
CREATE FUNCTION cf_double(x numeric) RETURNS numeric LANGUAGE sql AS 'SELECT $1 * 2';
CREATE FUNCTION cf_greet(who text, times int DEFAULT 2, sep int DEFAULT 0) RETURNS text
    LANGUAGE sql RETURN repeat(who || sep, times);
CREATE FUNCTION cf_strict(int) RETURNS text LANGUAGE sql STRICT AS $$SELECT 'got ' || coalesce($1::text, 'null')$$;
CREATE FUNCTION cf_price(item text) RETURNS numeric LANGUAGE sql STABLE
    AS 'SELECT price FROM cf_items WHERE name = item';
CREATE FUNCTION cf_cheap(limit_price numeric) RETURNS SETOF cf_items LANGUAGE sql
    AS 'SELECT * FROM cf_items WHERE price < limit_price ORDER BY id';
CREATE FUNCTION cf_squares(n int) RETURNS TABLE(i int, sq int) LANGUAGE sql
    AS 'SELECT g, g * g FROM generate_series(1, n) g';
CREATE FUNCTION cf_split(INOUT a int, OUT half int, OUT rest int) LANGUAGE sql
    AS 'SELECT a, a / 2, a % 2';
CREATE FUNCTION cf_atomic(a int, b int) RETURNS int LANGUAGE sql
BEGIN ATOMIC
    SELECT a + b;
END;
CREATE FUNCTION cf_nothing(int) RETURNS void LANGUAGE sql AS 'SELECT 1';

SELECT cf_double(21), cf_double(1.25), cf_double(id) FROM cf_items ORDER BY id;
SELECT cf_greet('hi'), cf_greet('you', 3), cf_greet('you', 1, 7);
SELECT cf_strict(NULL), cf_strict(7);
SELECT name, cf_price(name) FROM cf_items ORDER BY id;
SELECT cf_price('nosuch');
SELECT * FROM cf_cheap(2);
SELECT * FROM cf_squares(3);
SELECT s.i, s.sq FROM cf_items c, cf_squares(c.id) s ORDER BY 1, 2;
SELECT cf_split(7);
SELECT * FROM cf_split(9);
SELECT cf_atomic(2, 3);
SELECT cf_nothing(1);

-- errors
CREATE FUNCTION cf_bad() RETURNS int LANGUAGE sql AS $$SELECT 'x'::text$$;
CREATE FUNCTION cf_bad() RETURNS int LANGUAGE sql AS 'SELECT 1, 2';
CREATE FUNCTION cf_bad() RETURNS int LANGUAGE sql AS 'SELECT $1';
CREATE FUNCTION cf_bad() RETURNS int LANGUAGE sql AS '';
CREATE FUNCTION cf_bad() RETURNS int LANGUAGE nosuch AS 'x';
CREATE FUNCTION cf_double(x int) RETURNS int LANGUAGE sql AS 'SELECT 0';
CREATE OR REPLACE FUNCTION cf_double(x int) RETURNS bigint LANGUAGE sql AS 'SELECT 0';
SELECT cf_double('a'::text);

-- replace, alter, drop
CREATE OR REPLACE FUNCTION cf_double(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 3';
SELECT cf_double(2);
ALTER FUNCTION cf_double(int) STRICT;
SELECT proname, provolatile, proisstrict FROM pg_proc WHERE oid = 'cf_strict'::regproc;
DROP FUNCTION cf_double;
DROP FUNCTION cf_double(numeric);
DROP FUNCTION cf_double(numeric);
DROP FUNCTION IF EXISTS cf_double(numeric);
DROP FUNCTION IF EXISTS cf_nosuch;
SELECT proname, pronargs, pronargdefaults, proretset, proargmodes, proargnames
  FROM pg_proc WHERE proname LIKE 'cf\_%' ORDER BY proname, pronargs;
\df cf_*

-- schema-qualified calls
CREATE SCHEMA cf_s;
CREATE FUNCTION cf_s.triple(int) RETURNS int LANGUAGE sql AS 'SELECT $1 * 3';
CREATE FUNCTION cf_pub(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 100';
SELECT cf_s.triple(4) AS s, public.cf_pub(1) AS p;
SELECT cf_s.triple(x) FROM (VALUES (1), (NULL), (-2)) v(x) ORDER BY 1;
SELECT triple(4);
SELECT cf_s.nosuch(1);
SELECT cf_s.triple('a');
SELECT cf_nosuchschema.triple(1);
DROP FUNCTION cf_s.triple(int);
DROP FUNCTION cf_pub(int);
DROP SCHEMA cf_s;
