-- bytea (OID 17) and uuid (OID 2950): input forms, output by bytea_output,
-- operators, functions, columns and COPY (issue 15 part 4).
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

-- bytea input: hex (blanks between digit pairs) and escape forms.
SELECT '\x0a0B'::bytea AS hex, '\x 01 02'::bytea AS blanks, 'abc\000\\'::bytea AS esc, ''::bytea AS empty;
SELECT '\x1'::bytea;
SELECT '\xzz'::bytea;
SELECT 'a\b'::bytea;
SELECT 'a\4'::bytea;
-- Output: hex by default, escape on request.
SET bytea_output = escape;
SELECT 'a\\b\001\177\377'::bytea AS esc, '\x41ff'::bytea AS hex_in;
SHOW bytea_output;
RESET bytea_output;
SET bytea_output = 'base64';
-- Casts to and from text use the output and input functions.
SELECT 'x'::bytea::text AS t, '\x00'::bytea::text AS nul, 'hi'::text::bytea AS b;
-- Comparisons are bytewise; || concatenates.
SELECT '\x01'::bytea < '\x0101'::bytea AS lt, '\xff'::bytea > '\x00ff'::bytea AS gt,
       '\x'::bytea = ''::bytea AS eq, '\x01'::bytea || '\x02'::bytea AS cat;
SELECT 'abc'::bytea LIKE 'a%' AS l1, 'abc'::bytea NOT LIKE '_c' AS l2;
-- Length, substring, position, overlay, trim.
SELECT length('\xdeadbeef'::bytea) AS len, octet_length('\xdead'::bytea) AS octets,
       bit_length('\xdead'::bytea) AS bits;
SELECT substring('\x0102030405'::bytea FROM 2 FOR 2) AS s1, substring('\x0102030405'::bytea FROM 4) AS s2,
       substr('\x0102030405'::bytea, 0, 3) AS s3, substr('\x0102'::bytea, 5) AS s4;
SELECT substr('\x0102'::bytea, 1, -1);
SELECT position('\x03'::bytea IN '\x0102030405'::bytea) AS p1, position('\x09'::bytea IN '\x01'::bytea) AS p2;
SELECT overlay('\x0102030405'::bytea PLACING '\xffff'::bytea FROM 2 FOR 1) AS o1,
       overlay('\x0102'::bytea PLACING '\xaa'::bytea FROM 3) AS o2;
SELECT btrim('\x0001020100'::bytea, '\x00'::bytea) AS b, ltrim('\x0001'::bytea, '\x00'::bytea) AS l,
       rtrim('\x0100'::bytea, '\x00'::bytea) AS r, trim(both '\x00'::bytea from '\x000100'::bytea) AS t;
-- Bytes and bits.
SELECT get_byte('\x0102'::bytea, 1) AS g, set_byte('\x0102'::bytea, 0, 255) AS s,
       get_bit('\x0102'::bytea, 9) AS gb, set_bit('\x0102'::bytea, 0, 0) AS sb;
SELECT get_byte('\x0102'::bytea, 2);
SELECT set_bit('\x01'::bytea, 3, 2);
SELECT get_bit('\x01'::bytea, -1);
-- Digests.
SELECT md5('abc'::bytea) AS md5, sha224(''::bytea) AS sha224;
SELECT sha256('abc'::bytea) AS sha256;
SELECT sha384('abc'::bytea) AS sha384;
SELECT sha512('abc'::bytea) AS sha512;
-- encode/decode: hex, base64 (76-character lines), escape.
SELECT encode('\x00ff5c41'::bytea, 'hex') AS hex, encode('\x00ff5c41'::bytea, 'escape') AS esc,
       encode('abc'::bytea, 'base64') AS b3, encode('ab'::bytea, 'base64') AS b2, encode('a'::bytea, 'base64') AS b1;
SELECT encode(repeat('x', 60)::bytea, 'base64') AS long_b64;
SELECT decode('YWJj', 'base64') AS b, decode('YW Jj', 'base64') AS blanks, decode('YQ==', 'base64') AS pad,
       decode('616263', 'hex') AS h, decode('a\\b\001', 'escape') AS e;
SELECT decode('YW=j', 'base64');
SELECT decode('YWJ', 'base64');
SELECT decode('a!', 'base64');
SELECT decode('6', 'hex');
SELECT encode('abc'::bytea, 'rot13');
-- convert_to/convert_from: UTF8 and LATIN1.
SELECT convert_to('héllo', 'UTF8') AS u, convert_to('xé', 'LATIN1') AS l,
       convert_from('\x68c3a9'::bytea, 'utf8') AS fu, convert_from('\x78e9'::bytea, 'latin1') AS fl;
SELECT convert_to('x€', 'LATIN1');
SELECT convert_from('\xff'::bytea, 'UTF8');
SELECT convert_to('x', 'no_such_encoding');
-- string_agg of bytea.
SELECT string_agg(b, '\x2c'::bytea ORDER BY b) AS agg FROM (VALUES ('\x02'::bytea), ('\x01'::bytea), (NULL)) v(b);

-- uuid input: hyphens after any group of four digits, braces, upper case.
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS canonical,
       '{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}'::uuid AS braces,
       'a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid AS plain,
       'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'::uuid AS groups;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'::uuid;
SELECT '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT 'a0eebc99-9c0b4-ef8-bb6d-6bb9bd380a11'::uuid;
SELECT '-a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS eq,
       '00000000-0000-0000-0000-000000000001'::uuid < 'ffffffff-0000-0000-0000-000000000000'::uuid AS lt;
-- gen_random_uuid: version 4, a new value each call.
SELECT length(gen_random_uuid()::text) AS len, substr(gen_random_uuid()::text, 15, 1) AS version,
       gen_random_uuid() <> gen_random_uuid() AS differ;

-- Columns, ORDER BY, GROUP BY, joins and COPY.
CREATE TABLE bu_t (id int, b bytea, u uuid);
INSERT INTO bu_t VALUES (1, '\xdead', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  (2, 'ab\\c', '00000000-0000-0000-0000-000000000000'), (3, NULL, NULL),
  (4, '\x00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
SELECT * FROM bu_t ORDER BY b, id;
SELECT * FROM bu_t ORDER BY u DESC, id;
SELECT u, count(*) AS n FROM bu_t GROUP BY u ORDER BY u;
SELECT x.id, y.id FROM bu_t x JOIN bu_t y ON x.u = y.u AND x.id < y.id ORDER BY 1, 2;
SELECT id FROM bu_t WHERE b = '\x00' ORDER BY id;
COPY bu_t TO stdout;
COPY (SELECT * FROM bu_t ORDER BY id) TO stdout WITH (FORMAT csv);
CREATE TABLE bu_c (b bytea, u uuid);
COPY bu_c FROM stdin;
\\x0102	11111111-2222-3333-4444-555555555555
ab\\\\c	\N
\.
SELECT * FROM bu_c ORDER BY b;
DROP TABLE bu_t, bu_c;
