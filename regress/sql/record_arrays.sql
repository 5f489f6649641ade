--
-- record_arrays: arrays of records (record[], a table's row type array)
-- and of bytea: constructors, array_agg, ARRAY(subquery), unnest,
-- subscripts and field selection, comparison, text output with its
-- quoting, bytea[] as a column type with both bytea_output forms, COPY.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE ra_t (a int, b text, n numeric);
INSERT INTO ra_t VALUES (1, 'a', 1.5), (2, 'b c', 2.50), (3, NULL, NULL), (4, 'q"u\o', -0.0);

-- array_agg of a table's row, of ROW(...)
SELECT array_agg(ra_t ORDER BY a) FROM ra_t;
SELECT array_agg(ROW(a, b) ORDER BY a DESC) FROM ra_t;
SELECT pg_typeof(array_agg(ra_t)), pg_typeof(array_agg(ROW(a, b))) FROM ra_t;
SELECT a % 2 AS k, array_agg(ra_t ORDER BY a) FROM ra_t GROUP BY 1 ORDER BY 1;
SELECT array_agg(ra_t ORDER BY a) FILTER (WHERE a > 10) FROM ra_t;
-- ARRAY[...] and ARRAY(subquery)
SELECT ARRAY[ROW(1, 'a'), ROW(2, 'b')];
SELECT ARRAY[ROW(1, 'a'), NULL, ROW(NULL, NULL)];
SELECT ARRAY[ROW(1, ARRAY[1, 2]), ROW(2, ARRAY[3])];
SELECT ARRAY[ROW(1, 'a"b\c', ''), ROW(2, 'x,y', ' ')];
SELECT ARRAY[ARRAY[ROW(1, 'a')], ARRAY[ROW(2, 'b')]];
SELECT ARRAY(SELECT ra_t FROM ra_t ORDER BY a);
SELECT ARRAY(SELECT ROW(a, n) FROM ra_t WHERE a < 3 ORDER BY a);
SELECT array_agg(ra_t ORDER BY a)::text FROM ra_t;
-- unnest: in the select list a record per element; in FROM the row
-- type's columns (a column definition list for anonymous records)
SELECT unnest(array_agg(ra_t ORDER BY a)) FROM ra_t;
SELECT (unnest(array_agg(ra_t ORDER BY a))).b FROM ra_t;
SELECT * FROM unnest((SELECT array_agg(ra_t ORDER BY a) FROM ra_t)) ORDER BY a;
SELECT * FROM unnest((SELECT array_agg(ra_t ORDER BY a) FROM ra_t)) WITH ORDINALITY AS u(p, q) ORDER BY p;
SELECT u FROM unnest((SELECT array_agg(ra_t ORDER BY a) FROM ra_t)) u ORDER BY 1;
SELECT * FROM unnest((SELECT array_agg(ra_t ORDER BY a) FROM ra_t), ARRAY[10, 20]) ORDER BY a;
SELECT x FROM unnest(ARRAY[ROW(1, 'a'), ROW(2, 'b')]) x;
SELECT * FROM unnest(ARRAY[ROW(1, 'a'::text), ROW(2, 'b'::text)]) AS x(a int, b text) ORDER BY a;
SELECT x.b, a FROM unnest(ARRAY[ROW(1, 'a'::text)]) AS x(a int, b text);
SELECT * FROM unnest(ARRAY[ROW(1, 'a'::text)]) AS x(a int, b varchar);
SELECT * FROM unnest(ARRAY[ROW(1, 'a'::text)]) AS x(a int);
SELECT * FROM unnest(ARRAY[ROW(1, 'a'::text)]) AS x(a int, b int);
SELECT * FROM unnest(ARRAY[ROW(1, 'a'::text)]) WITH ORDINALITY AS x(a int, b text);
SELECT * FROM unnest(ARRAY[1, 2]) AS x(a int);
-- subscripts, slices, field selection of an element
SELECT (array_agg(ra_t ORDER BY a))[2] FROM ra_t;
SELECT ((array_agg(ra_t ORDER BY a))[2]).b, ((array_agg(ra_t ORDER BY a))[1]).n FROM ra_t;
SELECT (array_agg(ra_t ORDER BY a))[2:3] FROM ra_t;
SELECT array_length(array_agg(ra_t), 1), cardinality(ARRAY[ROW(1), ROW(2)]) FROM ra_t;
SELECT (ARRAY[ROW(1, 'a')] || ROW(2, 'b'))[2], array_cat(ARRAY[ROW(1, 'a')], ARRAY[ROW(3, 'c')]);
-- equality and ordering: record_eq and record_cmp element by element
SELECT ARRAY[ROW(1, 1.5)] = ARRAY[ROW(1, 1.50)], ARRAY[ROW(1, 'a'::text)] < ARRAY[ROW(2, 'a'::text)],
  ARRAY[ROW(1, NULL::int)] > ARRAY[ROW(1, 5)], ARRAY[ROW(1)] < ARRAY[ROW(1), ROW(0)];
SELECT array_agg(x ORDER BY x) FROM (VALUES (ROW(2, 'b'::text)), (ROW(1, 'z'::text)), (ROW(1, 'a'::text))) v(x);
SELECT array_agg(DISTINCT ROW(n)) FROM (VALUES (1.5), (1.50), (2)) v(n);
SELECT DISTINCT ARRAY[ROW(n)] FROM (VALUES (1.5), (1.50), (2)) v(n) ORDER BY 1;
SELECT x, count(*) FROM (VALUES (ARRAY[ROW(1, 1.0)]), (ARRAY[ROW(1, 1.00)]), (ARRAY[ROW(2, 1.5)])) v(x) GROUP BY x ORDER BY x;
SELECT max(ARRAY[ROW(a, b)]), min(ARRAY[ROW(a, b)]) FROM ra_t;
-- record[] is a pseudo-type: not a column type
CREATE TABLE ra_bad AS SELECT ARRAY[ROW(1, 2)] AS x;

-- bytea[]: literals, array_agg, a column type, both output forms, COPY
CREATE TABLE ra_b (id int, b bytea[]);
INSERT INTO ra_b VALUES (1, ARRAY['\x01'::bytea, '\x']), (2, '{"\\\\x0203",NULL}'), (3, NULL), (4, '{}'),
  (5, ARRAY['a\\b'::bytea, 'x y'::bytea]);
SELECT * FROM ra_b ORDER BY id;
SELECT id, b[1], array_length(b, 1), pg_typeof(b) FROM ra_b ORDER BY id;
SELECT array_agg(x ORDER BY x) FROM (VALUES ('\x01'::bytea), ('\xff'), (NULL), ('\x')) v(x);
SELECT ARRAY['\x01'::bytea] = ARRAY['\x01'::bytea], ARRAY['\x01'::bytea] < ARRAY['\x02'::bytea];
SELECT id, unnest(b) FROM ra_b WHERE id IN (1, 5) ORDER BY 1, 2;
SET bytea_output = 'escape';
SELECT * FROM ra_b ORDER BY id;
SELECT ARRAY['\x00ff'::bytea, 'abc'::bytea];
COPY (SELECT * FROM ra_b ORDER BY id) TO STDOUT;
RESET bytea_output;
COPY (SELECT * FROM ra_b ORDER BY id) TO STDOUT;
COPY (SELECT * FROM ra_b ORDER BY id) TO STDOUT WITH (FORMAT csv);
CREATE TABLE ra_b2 (id int, b bytea[]);
COPY ra_b2 FROM STDIN;
1	{"\\\\x41",NULL}
2	{}
3	\N
\.
SELECT * FROM ra_b2 ORDER BY id;
UPDATE ra_b2 SET b = b || '\x42'::bytea WHERE id = 1;
SELECT * FROM ra_b2 ORDER BY id;

DROP TABLE ra_t, ra_b, ra_b2;
