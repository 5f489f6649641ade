--
-- ddl_dml: CREATE/DROP TABLE, INSERT in its forms, CREATE TABLE AS,
-- TRUNCATE, and the errors a user meets on the way.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

DROP TABLE IF EXISTS dd_items;
CREATE TABLE dd_items (
  id integer NOT NULL,
  name text NOT NULL,
  qty integer DEFAULT 1,
  price numeric(8,2) DEFAULT 9.99,
  added date DEFAULT '2024-01-01',
  note varchar(10)
);
CREATE TABLE dd_items (id integer);
CREATE TABLE IF NOT EXISTS dd_items (id integer);
CREATE TABLE dd_bad (a integer, a text);
CREATE TABLE dd_bad (a nosuchtype);

-- INSERT forms
INSERT INTO dd_items VALUES (1, 'apple', 5, 0.50, '2024-02-01', 'fresh');
INSERT INTO dd_items (id, name) VALUES (2, 'pear');
INSERT INTO dd_items (name, id, qty) VALUES ('plum', 3, 12), ('fig', 4, NULL), ('kiwi', 5, DEFAULT);
INSERT INTO dd_items VALUES (6, 'lime', DEFAULT, DEFAULT, DEFAULT, DEFAULT);
INSERT INTO dd_items (id, name, price) VALUES (7, 'melon', 3), (8, 'grape', 2.555);
SELECT * FROM dd_items ORDER BY id;

-- errors
INSERT INTO dd_items (id, name) VALUES (9, NULL);
INSERT INTO dd_items (name) VALUES ('no id');
INSERT INTO dd_items VALUES (10, 'x', 1, 1, '2024-01-01', 'a note that is far too long');
INSERT INTO dd_items (id, name, nosuch) VALUES (11, 'x', 1);
INSERT INTO dd_items (id, name) VALUES (12);
INSERT INTO dd_items (id) VALUES (13, 'x');
INSERT INTO dd_items (id, name) VALUES ('thirteen', 'x');
INSERT INTO dd_items (id, id) VALUES (14, 15);
INSERT INTO dd_missing VALUES (1);
SELECT * FROM dd_missing;
SELECT nosuch FROM dd_items;
SELECT id, name FROM dd_items WHERE nosuch > 1;
SELECT dd_items.nosuch FROM dd_items;
SELECT
  id,
  bogus
FROM dd_items;
SELEC 1;
SELECT FROM WHERE;
SELECT 1 +;
SELECT (1));
SELECT 1 2;
CREATE TABLE dd_bad (a integer,);
SELECT count(*) AS still_eight FROM dd_items;

-- INSERT ... SELECT and CREATE TABLE AS
CREATE TABLE dd_copy (id integer, label text, total numeric);
INSERT INTO dd_copy SELECT id, upper(name), qty * price FROM dd_items WHERE qty IS NOT NULL;
INSERT INTO dd_copy (label, id) SELECT name || '!', id + 100 FROM dd_items WHERE id <= 2;
SELECT * FROM dd_copy ORDER BY id;
INSERT INTO dd_copy SELECT id, name FROM dd_items WHERE false;
INSERT INTO dd_copy SELECT name, id FROM dd_items;
INSERT INTO dd_copy (id) SELECT id, id FROM dd_items;
CREATE TABLE dd_summary AS SELECT qty, count(*) AS n, sum(price) AS total FROM dd_items GROUP BY qty;
SELECT * FROM dd_summary ORDER BY qty NULLS FIRST;
CREATE TABLE dd_empty AS SELECT id, name FROM dd_items WHERE id < 0;
SELECT * FROM dd_empty;
CREATE TABLE dd_expr AS SELECT 1 AS one, 'two'::text AS two, 3.0 AS three, NULL::date AS four;
SELECT * FROM dd_expr;
INSERT INTO dd_expr VALUES (2, 'x', 4.5, '2024-03-03');
SELECT * FROM dd_expr ORDER BY one;
CREATE TABLE dd_summary AS SELECT 1 AS x;

-- types of expressions coerced on insert
CREATE TABLE dd_coerce (i integer, f float8, t text, d date);
INSERT INTO dd_coerce VALUES (1.4, 1, 123, '2024-5-6'), ('7', '2.5', 4.50, '20240102');
SELECT * FROM dd_coerce ORDER BY i;
INSERT INTO dd_coerce VALUES (1, 1, 'x', 5);
INSERT INTO dd_coerce (i) SELECT 'abc'::text;

-- TRUNCATE and DROP
TRUNCATE dd_copy;
SELECT count(*) FROM dd_copy;
INSERT INTO dd_copy VALUES (1, 'after truncate', 1.5);
SELECT * FROM dd_copy;
TRUNCATE TABLE dd_copy, dd_summary;
SELECT (SELECT count(*) FROM dd_copy) AS c, (SELECT count(*) FROM dd_summary) AS s;
TRUNCATE dd_missing;
DROP TABLE dd_missing;
DROP TABLE IF EXISTS dd_missing;
DROP TABLE dd_copy, dd_summary;
SELECT * FROM dd_copy;
DROP TABLE IF EXISTS dd_empty, dd_missing;
DROP TABLE dd_expr;
DROP TABLE dd_coerce;
DROP TABLE dd_items;
CREATE TABLE dd_items (id bigint);
INSERT INTO dd_items VALUES (1);
SELECT * FROM dd_items;
DROP TABLE dd_items;
