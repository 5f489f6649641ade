--
-- bit_types: bit(n) and bit varying(n): literals, typmod coercion, text
-- and binary I/O, operators, functions, casts, aggregates, keys, COPY and
-- the catalog's view of the columns.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

-- literals and input
SELECT B'1010' AS b, X'1F' AS x, B'' AS empty, pg_typeof(B'1'), pg_typeof(X'F');
SELECT '101'::bit(3), 'x0f'::varbit, 'B11'::bit varying, ''::varbit AS empty;
SELECT '102'::varbit;
SELECT 'x1g'::bit varying;
SELECT '101'::bit(4) AS padded, B'10101'::bit(3) AS truncated, B'10101'::varbit(2) AS vtrunc;
SELECT '101'::text::bit(5) AS via_text, ''::bit AS one_zero;

-- typmod coercion on assignment
CREATE TABLE bt_fixed (id int, b bit(4));
INSERT INTO bt_fixed VALUES (1, B'1010'), (2, '0110'), (3, X'F'), (4, NULL);
INSERT INTO bt_fixed VALUES (5, B'101');
INSERT INTO bt_fixed VALUES (5, '10101');
CREATE TABLE bt_var (id int, v bit varying(5));
INSERT INTO bt_var VALUES (1, B''), (2, B'1'), (3, B'10101'), (4, '011');
INSERT INTO bt_var VALUES (5, B'101010');
SELECT * FROM bt_fixed ORDER BY id;
SELECT * FROM bt_var ORDER BY id;

-- column types as the catalog shows them
SELECT attname, format_type(atttypid, atttypmod), atttypmod FROM pg_attribute
  WHERE attrelid = 'bt_var'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type, character_maximum_length, character_octet_length, udt_name
  FROM information_schema.columns WHERE table_name IN ('bt_fixed', 'bt_var') ORDER BY table_name, ordinal_position;
CREATE TABLE bt_ctas AS SELECT B'101' AS b, B'1'::varbit AS v, 'x'::"char" AS c;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
  WHERE attrelid = 'bt_ctas'::regclass AND attnum > 0 ORDER BY attnum;
DROP TABLE bt_ctas;
SELECT format_type(1560, -1), format_type(1560, 4), format_type(1562, 5), format_type(1562, NULL);
SELECT typname, typlen, typcategory, typispreferred, typarray FROM pg_type
  WHERE oid IN (1560, 1561, 1562, 1563) ORDER BY oid;
CREATE TABLE bt_bad (b bit(0));

-- operators
SELECT b, ~b AS not_b, b & B'1100' AS and_b, b | B'0001' AS or_b, b # B'1111' AS xor_b,
       b << 1 AS shl, b >> 2 AS shr, b << -1 AS shl_neg, b >> 9 AS shr_all
  FROM bt_fixed WHERE b IS NOT NULL ORDER BY id;
SELECT B'101' & B'10';
SELECT B'101' | B'10';
SELECT B'101' # B'10';
SELECT v || B'11' AS cat, pg_typeof(v || B'11'), B'1'::bit(2) || B'0' AS fixed_cat FROM bt_var ORDER BY id;

-- comparison and ordering: all bits count, the shorter prefix first
SELECT v, v < B'1' AS lt, v = B'1' AS eq, v >= B'011' AS ge FROM bt_var ORDER BY v;
SELECT B'1' = B'10', B'10' > B'1', B'0' < B'00', B'11'::varbit = B'11'::bit(2);

-- length, position, substring, overlay, bits
SELECT v, length(v), bit_length(v), octet_length(v), bit_count(v) FROM bt_var ORDER BY id;
SELECT position(B'01' IN B'0010110'), position(B'' IN B'01'), position(B'' IN B''), position(B'111' IN B'11');
SELECT substring(B'0101101' FROM 2 FOR 3), substring(B'0101101' FROM 5), substring(B'0101101' FROM -2 FOR 4),
       substring(B'0101101' FROM 9);
SELECT substring(B'0101' FROM 1 FOR -1);
SELECT overlay(B'0000000' PLACING B'11' FROM 3), overlay(B'0000000' PLACING B'111' FROM 2 FOR 1),
       overlay(B'0000' PLACING B'1' FROM 9);
SELECT overlay(B'0000' PLACING B'1' FROM 0);
SELECT get_bit(B'0010', 2), set_bit(B'0000', 3, 1), set_bit(B'1111', 0, 0);
SELECT get_bit(B'0010', 4);
SELECT set_bit(B'0010', -1, 1);
SELECT set_bit(B'0010', 1, 2);

-- casts between integers and bit strings
SELECT 5::bit(8), (-5)::bit(8), 1000::bit(4), (-1)::bigint::bit(70), 7::bit;
SELECT B'00000101'::int4, B'11111111111111111111111111111011'::int4, B'1111'::bigint;
SELECT B'111111111111111111111111111111111'::int4;
SELECT (B'1' || repeat('0', 64)::varbit)::bit(65)::bigint;
SELECT B'1010'::text, B'1010'::varchar(2), 'x'::text || B'01';

-- "char", the one-byte type
SELECT 'a'::"char", '\101'::"char", '\377'::"char", '\377'::"char"::text, ''::text::"char" AS zero,
       'é'::"char", 'ab'::"char" = 'a', 65::"char", '\377'::"char"::int4;
SELECT 128::"char";

-- aggregates
SELECT bit_and(b), bit_or(b), bit_xor(b) FROM bt_fixed;
SELECT bit_and(v) FROM bt_var WHERE id > 2;
SELECT bit_or(b) FROM bt_fixed WHERE false;

-- grouping, DISTINCT and joins on bit strings
INSERT INTO bt_fixed VALUES (6, B'1010'), (7, B'0110');
SELECT b, count(*) FROM bt_fixed GROUP BY b ORDER BY b;
SELECT DISTINCT b FROM bt_fixed WHERE b IS NOT NULL ORDER BY b DESC;
SELECT f.id, v.id, f.b FROM bt_fixed f JOIN bt_var v ON f.b::varbit = v.v || B'0' ORDER BY 1, 2;

-- arrays of bit strings
SELECT ARRAY[B'101', B'1']::varbit[], '{1,0}'::bit(2)[], pg_typeof(ARRAY[B'1']);

-- COPY in and out
CREATE TABLE bt_copy (a bit(8), b bit varying(12));
COPY bt_copy FROM stdin;
X0F	X1
10101010	
X8F	X123
\.
COPY bt_copy FROM stdin;
X0	1
\.
SELECT * FROM bt_copy ORDER BY a;
COPY (SELECT * FROM bt_copy ORDER BY a) TO stdout;

-- DEFAULTs are coerced to the column
CREATE TABLE bt_defaults (b1 bit(4) DEFAULT '1001', b2 bit varying(5) DEFAULT B'0101');
INSERT INTO bt_defaults DEFAULT VALUES;
SELECT * FROM bt_defaults;

DROP TABLE bt_fixed, bt_var, bt_copy, bt_defaults;
