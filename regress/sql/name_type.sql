-- The name type: PostgreSQL's 63-byte identifier string, compared in the
-- C collation (issue 15).
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

-- Input: truncated to NAMEDATALEN-1 bytes, at a character boundary.
SELECT 'abc'::name AS n, 'abc'::pg_catalog.name AS q;
SELECT length(repeat('x', 70)::name) AS ascii_len,
       octet_length(repeat('x', 70)::name) AS ascii_bytes;
SELECT repeat('é', 40)::name AS clipped, length(repeat('é', 40)::name) AS chars,
       octet_length(repeat('é', 40)::name) AS bytes;
SELECT octet_length(repeat('a', 62) || '€'::text) AS before,
       octet_length((repeat('a', 62) || '€')::name) AS after;
SELECT ''::name AS empty, NULL::name AS null_name;

-- Casts between name and the other string types.
SELECT 'abc'::text::name, 'abc'::name::text, 'abc'::name::varchar(2),
       'ab'::name::char(4) || '|' AS padded, 'ab  '::char(4)::name || '|' AS trimmed;
SELECT (repeat('y', 70)::varchar)::name = repeat('y', 63) AS varchar_clip;
SELECT ('x' || repeat(' ', 70) || 'z')::char(80)::name || '|' AS char_clip_then_trim;
SELECT '42'::name::text::int AS via_text;
SELECT 42::name;
SELECT 'abc'::name(3);

-- Comparisons: name with name, name with text, text with name (C order).
CREATE TABLE nm_t (id int, n name, t text);
INSERT INTO nm_t VALUES (1, 'apple', 'apple'), (2, 'Banana', 'banana'),
  (3, 'cherry', 'Cherry'), (4, 'apple pie', 'apple'), (5, NULL, 'x'),
  (6, '_under', '_under'), (7, 'Zed', 'zed'), (8, repeat('m', 80), repeat('m', 63));
SELECT id, n FROM nm_t ORDER BY n, id;
SELECT id, n FROM nm_t ORDER BY n DESC NULLS LAST, id;
SELECT id, n = t AS eq, n < t AS lt, t >= n AS ge, n <> 'apple' AS ne FROM nm_t ORDER BY id;
SELECT id FROM nm_t WHERE n > 'a' AND n < 'd' ORDER BY id;
SELECT id FROM nm_t WHERE n = 'apple'::text ORDER BY id;
SELECT id, length(n) FROM nm_t WHERE id = 8;

-- LIKE, ILIKE and regular expressions on name.
SELECT id FROM nm_t WHERE n LIKE 'apple%' ORDER BY id;
SELECT id FROM nm_t WHERE n NOT LIKE '%e%' ORDER BY id;
SELECT id FROM nm_t WHERE n ILIKE 'b%' ORDER BY id;
SELECT id FROM nm_t WHERE n ~ '^[A-Z]' ORDER BY id;
SELECT id FROM nm_t WHERE n !~* 'A' ORDER BY id;

-- Functions and || reach name through its implicit cast to text.
SELECT id, n || '!' AS bang, upper(n) AS up, substr(n, 1, 3) AS s3
  FROM nm_t WHERE id <= 4 ORDER BY id;
SELECT 'x'::name || 'y'::name AS cat;

-- Grouping, DISTINCT and joins on name keys.
INSERT INTO nm_t VALUES (9, 'apple', 'APPLE'), (10, 'cherry', 'cherry');
SELECT n, count(*) FROM nm_t GROUP BY n ORDER BY n;
SELECT DISTINCT n FROM nm_t WHERE n IS NOT NULL ORDER BY n;
CREATE TABLE nm_u (k name PRIMARY KEY, v int);
INSERT INTO nm_u VALUES ('apple', 10), ('cherry', 30), ('banana', 20);
SELECT t.id, u.v FROM nm_t t JOIN nm_u u ON t.n = u.k ORDER BY t.id;
SELECT t.id, u.v FROM nm_t t JOIN nm_u u ON t.t = u.k ORDER BY t.id;
SELECT k FROM nm_u WHERE k IN (SELECT n FROM nm_t) ORDER BY k;
INSERT INTO nm_u VALUES ('apple', 99);
SELECT min(n), max(n) FROM nm_t;

-- Assignment: text and varchar columns from name, name columns from text.
CREATE TABLE nm_a (n name, v varchar(3), c char(6));
INSERT INTO nm_a SELECT t, n, n FROM nm_t WHERE id = 1;
INSERT INTO nm_a VALUES (repeat('q', 70), 'abc', 'abc');
SELECT n, v, c || '|' AS c FROM nm_a ORDER BY n;
INSERT INTO nm_a (v) SELECT n FROM nm_t WHERE id = 3;
UPDATE nm_a SET n = n || '_x' WHERE v = 'abc';
SELECT length(n) FROM nm_a ORDER BY 1;

-- COPY in and out.
COPY nm_a (n, v) FROM STDIN;
copied	xyz
\N	\N
\.
SELECT n, v FROM nm_a WHERE v = 'xyz' OR v IS NULL ORDER BY n NULLS LAST;
COPY (SELECT n FROM nm_t WHERE id IN (1, 2, 3) ORDER BY id) TO STDOUT;

-- The catalog: pg_type, format_type, pg_attribute, information_schema.
SELECT oid, typname, typlen, typbyval, typalign, typstorage, typcategory,
       typispreferred, typcollation, typinput, typoutput, typreceive, typsend
  FROM pg_type WHERE typname = 'name';
SELECT attname, atttypid, attlen, attalign
  FROM pg_attribute WHERE attrelid = 'pg_class'::regclass AND attname = 'relname';
SELECT format_type('name'::regtype, NULL), format_type(19, -1);
SELECT attname, atttypid::regtype, attlen, attcollation
  FROM pg_attribute WHERE attrelid = 'nm_a'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type FROM information_schema.columns
  WHERE table_name = 'nm_a' ORDER BY ordinal_position;
\d nm_a
SELECT 'pg_class'::regclass::name AS relname;

DROP TABLE nm_t, nm_u, nm_a;
SELECT true::name AS t, false::name AS f, true::text AS booltext;
