-- Edge cases of float4, float8 and numeric functions found by PostgreSQL's
-- float4, float8, numeric and numerology regression files.

-- numeric_inc: x + 1, specials unchanged
SELECT x, numeric_inc(x) FROM (VALUES ('0'::numeric), ('9.99'), ('-0.5'), ('-7.777'), ('inf'), ('-inf'), ('nan')) v(x);

-- pg_lsn(numeric): rounded half away from zero; NaN, infinity and out of range fail
SELECT pg_lsn(23783416::numeric), pg_lsn(0::numeric), pg_lsn(18446744073709551615::numeric);
SELECT pg_lsn(-0.4), pg_lsn(1.5), pg_lsn(2.5);
SELECT pg_lsn(-1::numeric);
SELECT pg_lsn(18446744073709551616::numeric);
SELECT pg_lsn(18446744073709551615.5);
SELECT pg_lsn('NaN'::numeric);
SELECT pg_lsn('-inf'::numeric);

-- PostgreSQL 15's scanner: junk stuck to a number or a parameter
SELECT 123abc;
SELECT 1.5abc;
SELECT 1e5xyz;
SELECT 1e+x;
SELECT 12_x;
SELECT 'é', 123é;
SELECT $1abc;
PREPARE p1 AS SELECT $1a;
SELECT 1 AS a$1b, 'é$1x';
