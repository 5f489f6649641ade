-- Disagreements found by regress/sqlfuzz, each as its minimal query
-- (regress/sqlfuzz/FINDINGS.md lists them with the fuzzer's repro).
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
\pset null NULL
-- PostgreSQL 15 has no prefix + for interval
SELECT + '1 day'::interval;
SELECT ('2020-06-15 12:00:00-07'::timestamptz - (+ '-1 day'::interval));
SELECT - '1 day'::interval, + 1.5::float4, + 2::int2, + 1.5::numeric;
-- an integer literal that fits int4 only once negated is int4
SELECT -2147483648 - 1;
SELECT -2147483649 - 1, 2147483648 - 1, -9223372036854775808 + 1;
SELECT '5874897-12-31'::date + (-2147483648), '2020-01-01'::date + (-2147483648 + 2147483647);
SELECT '2020-02-29'::date - (-2147483648);
CREATE TABLE ff_t (a int4);
INSERT INTO ff_t VALUES (1), (-2147483648);
SELECT a FROM ff_t WHERE a = -2147483648;
SELECT CASE WHEN a > 0 THEN -2147483648 ELSE a END AS c FROM ff_t ORDER BY c;
DROP TABLE ff_t;
-- text || anynonarray casts the other operand to text: boolean is true/false
-- (concat uses the output function: t/f)
SELECT false || bpchar '1', 'x' || true, true || 'y', concat(true, 'x'), concat_ws(',', false, 1);
-- a constant GROUP BY / ORDER BY item other than an integer is an error
CREATE TABLE ff_g (a int4, b text);
INSERT INTO ff_g VALUES (1, 'x'), (2, 'y'), (1, 'z');
SELECT a FROM ff_g GROUP BY (1.5);
SELECT a FROM ff_g GROUP BY a, 'x';
SELECT a FROM ff_g GROUP BY NULL;
SELECT a FROM ff_g ORDER BY true;
SELECT a FROM ff_g ORDER BY 1.0;
SELECT a FROM ff_g ORDER BY NULL;
SELECT a FROM ff_g UNION SELECT 3 ORDER BY 'x';
SELECT a, count(*) FROM ff_g GROUP BY 1 ORDER BY 1;
SELECT a FROM ff_g GROUP BY a, bigint '1' ORDER BY a;
DROP TABLE ff_g;
-- extract(julian) of a timestamp at midnight keeps numeric_div's scale
SELECT extract(julian FROM timestamp '1970-01-01 00:00'), extract(julian FROM timestamptz '1970-01-01 00:00+00'),
       extract(julian FROM timestamp '1970-01-01 12:00'), extract(julian FROM date '1970-01-01');
-- a date past the last timestamp: the cast and date ± interval fail, comparisons
-- treat it as larger than every finite timestamp (it overflowed before)
SELECT '5874897-12-31'::date::timestamp;
SELECT '5874897-12-31'::date::timestamptz;
SELECT '5874897-12-31'::date > '294246-12-31 23:59:59.999999'::timestamp, '5874897-12-31'::date < 'infinity'::timestamp, '5874897-12-31'::date = 'infinity'::timestamp, 'infinity'::timestamp > '5874897-12-31'::date;
SELECT '5874897-12-31'::date > '294246-12-31 23:59:59.999999+00'::timestamptz, '5874897-12-31'::date < 'infinity'::timestamptz;
SELECT '5874897-12-31'::date + interval '1 day';
SELECT '5874897-12-31'::date - interval '1 day';
SELECT extract(year FROM '5874897-12-31'::date), extract(doy FROM '5874897-12-31'::date), extract(dow FROM '5874897-12-31'::date), extract(isoyear FROM '5874897-12-31'::date);
SELECT '294247-01-09'::date::timestamp;
SELECT '2020-01-01'::date::timestamp, '2020-01-01'::date < '2020-01-01 00:00:01'::timestamp;
-- float output never relies on a decimal exactly on a rounding boundary
SELECT 3e10::float4, 9e9::float4, 104934416::float4, 1e23::float8, (1024.375::float4 * (1024.375::float4 * '100'::real));
SELECT 0.1::float4, 1.5::float8, 1e300::float8, 16777216::float4;
-- degrees/radians use PostgreSQL's RADIANS_PER_DEGREE and float8_div/mul's range checks
SELECT degrees(0.1::float8), degrees(1::float8), degrees(-3.25::float8), degrees(1e-320::float8), radians(180::float8), radians(0.1::float8), radians(1e-320::float8);
SELECT degrees('NaN'::float8), degrees('Infinity'::float8), radians('-Infinity'::float8);
SELECT degrees(1e308::float8);
SELECT radians(1e-323::float8);
-- right(s, -2147483648) keeps the whole string (text_right's int32 negation wraps)
SELECT right('1 day', -2147483648), left('1 day', -2147483648), right('abc', -2147483647), left('abc', -2147483647), right('abc', 2147483647), left('abc', 2147483647);
SELECT substr('abc', -2147483648, 2147483647), substr('abc', 2147483647, 2), repeat('x', -2147483648), lpad('ab', -2147483648), split_part('a,b', ',', -2147483648);
-- concat/concat_ws print bpchar with its padding (output function); || casts it to text
SELECT concat('a'::char(3), 'x'), concat_ws(',', 'a'::char(3), 1), 'a'::char(3) || 'x', 5 || 'a'::char(3);
CREATE TABLE ff_c (c char(10));
INSERT INTO ff_c VALUES ('%'), (''), (NULL);
SELECT concat_ws('-', c, 1) AS w, concat(c, '|') AS x, c || '|' AS y FROM ff_c ORDER BY w;
DROP TABLE ff_c;
-- date_trunc('decade') of BC years: no "+1" (unlike century and millennium)
SELECT date_trunc('decade', timestamp '0001-06-01 BC') a, date_trunc('decade', timestamp '0005-06-01 BC') b,
       date_trunc('decade', timestamp '0010-06-01 BC') c, date_trunc('decade', timestamp '0011-06-01 BC') d,
       date_trunc('decade', timestamp '0009-06-01') e, date_trunc('century', timestamp '0001-06-01 BC') f,
       date_trunc('millennium', timestamp '0100-06-01 BC') g;
SELECT date_trunc('decade', timestamptz '0001-01-01 00:00:00+00', 'EST5EDT');
-- quote_ident quotes keywords that are not unreserved
SELECT quote_ident('true'), quote_ident('select'), quote_ident('between'), quote_ident('integer'), quote_ident('left'),
       quote_ident('year'), quote_ident('text'), quote_ident('abc'), quote_ident('Abc'), quote_ident('a b'), quote_ident('');
-- sum over floats starts from the first value: sum of -0 is -0 (avg starts from 0)
CREATE TABLE ff_z (g int4, x float8, y float4);
INSERT INTO ff_z VALUES (1, '-0', '-0'), (1, '-0', '-0'), (1, NULL, NULL), (2, '-0', '-0'), (2, 0, 0), (3, NULL, NULL);
SELECT sum(x) AS sx, sum(y) AS sy, avg(x) AS ax FROM ff_z WHERE g = 1;
SELECT g, sum(x) AS sx, sum(y) AS sy, avg(x) AS ax FROM ff_z GROUP BY g ORDER BY g;
SELECT (SELECT sum('-0'::double precision) FROM ff_z) AS s;
DROP TABLE ff_z;
-- timezone(interval, ...) keeps the offset in a C int, as PostgreSQL does
SELECT timezone((interval '36:00:00' * '20000.5'::double precision), '0001-01-01 00:00:00'::timestamp);
SELECT timezone((CAST('36:00:00' AS interval) * (real '60000.789' - CAST('-3.25' AS double precision))), '2020-02-29 12:34:56.789'::timestamp);
SELECT timezone(interval '-05:00', '2020-01-01 12:00:00'::timestamp), timezone(interval '+05:30', '2020-01-01 12:00:00+00'::timestamptz);
-- a GROUP BY expression with a NaN constant matches the same select-list expression
CREATE TABLE ff_g2 (k1 real, c1 float8);
INSERT INTO ff_g2 VALUES (1.5, 2), (NULL, 3);
SELECT CAST((k1 * 'NaN'::real) AS bpchar) AS c0 FROM ff_g2 GROUP BY CAST((k1 * 'NaN'::real) AS bpchar) ORDER BY c0;
SELECT (real 'NaN' - c1)::bpchar AS c0 FROM ff_g2 GROUP BY (real 'NaN' - c1)::bpchar;
SELECT c1 * '-0'::float8 AS c0 FROM ff_g2 GROUP BY c1 * '0'::float8;
DROP TABLE ff_g2;

-- Found by the long sqlfuzz run (seeds 1000090234, 90453, 1000090496).
-- width_bucket divides at select_div_scale, rounded, then floors.
SELECT width_bucket(numeric '0.00000000000000000001', 123456789012345678901234567890.123456789, (0.00000000000000000001 - 100), 65536);
SELECT width_bucket(9.999999999999999999999999, 0, 10, 10), width_bucket(9.99999999999999999999999999999999, 10, 0, 100000);
-- bpchar regular expressions see the padding (bpcharregexeq), as LIKE does.
SELECT 'a'::char(3) ~* 'a$', 'a'::char(3) ~ 'a  $', 'a'::char(3) !~ 'a$', 'a'::char(3) !~* 'A  $';
-- min/max keep the later of equal values (float8smaller, numeric_smaller, interval_smaller).
SELECT min(x), max(x) FROM (VALUES (0::float8), ('-0'::float8)) v(x);
SELECT min(n), max(n), min(i), max(i) FROM (VALUES (1.0, interval '1 day'), (1.00, interval '24 hours')) v(n, i);
-- DISTINCT resolves an arm's unknown literals to text before the set
-- operation types its columns (seed 1000090635): text keeps the blanks.
SELECT c0 || '|' AS v FROM ((SELECT DISTINCT 'x  ' AS c0) UNION ALL (SELECT 'a'::char(3))) s ORDER BY 1;
SELECT c0 || '|' AS v FROM ((SELECT 'x  ' AS c0) UNION ALL (SELECT 'a'::char(3))) s ORDER BY 1;
SELECT DISTINCT 'x' UNION SELECT 1;
-- bitcmp/varbitcmp answer memcmp's byte difference, not only its sign
SELECT varbitcmp('1111'::varbit, '0110'::varbit), bitcmp('1'::bit, '0'::bit), varbitcmp('1'::varbit, '0110'::varbit), varbitcmp('0110'::varbit, '011'::varbit), varbitcmp('011'::varbit, '0110'::varbit), varbitcmp('11'::varbit, '11'::varbit);
SELECT substr('\x7f80'::bytea, varbitcmp('1111'::varbit, '0110'::varbit));
-- a strict call with a NULL constant argument is NULL: its other arguments are never evaluated
SELECT regexp_substr('x', 'a', json_populate_record(1, '-1.50'::json), NULL::integer);
-- window definitions are analysed after WHERE: the WHERE literal's error comes first
CREATE TABLE ff_win (j json, i int);
SELECT last_value(1) OVER (ORDER BY j) FROM ff_win WHERE ('ABC')::boolean;
SELECT last_value(1) OVER (ORDER BY j) FROM ff_win;
SELECT sum(i) OVER w FROM ff_win WINDOW w AS (PARTITION BY j) LIMIT 'x';
DROP TABLE ff_win;
-- two fields of one record column are two sort and group keys
CREATE TYPE ff_pr AS (x int, y int);
CREATE TABLE ff_pt (d ff_pr);
INSERT INTO ff_pt VALUES (row(11,15)), (row(11,12)), (row(2,1)), (row(11,12));
SELECT * FROM ff_pt ORDER BY (d).x, (d).y;
SELECT (d).x, (d).y, count(*) FROM ff_pt GROUP BY (d).x, (d).y ORDER BY 1, 2;
SELECT DISTINCT (d).y FROM ff_pt ORDER BY (d).y;
DROP TABLE ff_pt;
DROP TYPE ff_pr;
-- Unicode escape errors: the scanner's E'\u...' is 22025, U&'...' a syntax error, unistr's code point 22023
\set VERBOSITY sqlstate
SELECT E'wrong: \u061';
SELECT U&'wrong: \061';
SELECT unistr('wrong: \+2FFFFF');
\set VERBOSITY default
SELECT E'wrong: \U0061';
SELECT U&'wrong: \+0061';
