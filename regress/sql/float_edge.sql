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

-- float input takes strtod's forms: hexadecimal floats and nan(chars)
SELECT '0x10'::float8, '0x1.8p3'::float8, '-0X.8P-2'::float8, '0x1p-1074'::float8, '0x1e1'::float8;
SELECT ' -0x10 '::float4, '0xffp+1'::float4, '0x1.000001p0'::float4, '0x.8'::float8, '0x1.'::float8;
SELECT 'nan(123)'::float8, ' NaN(x) '::float8, '-nan()'::float4;
SELECT '0x1p-1080'::float8;
SELECT '0x1p1024'::float8;
SELECT '0x1.fffffffffffff8p1023'::float8;
SELECT '0x1p-150'::float4;
SELECT '0x1p128'::float4;
SELECT '0x'::float8;
SELECT '0x1p'::float8;
SELECT '0x_1'::float8;
SELECT '0x1p1_0'::float8;
SELECT '0x1E+1'::float8;
SELECT 'nan(1'::float8;
SELECT 'nan(-)'::float8;

-- numeric typmods whose scale exceeds the precision: 10^-n in the detail
SELECT 0.0012345::numeric(3,5);
SELECT 1::numeric(3,5);
SELECT 0.1::numeric(2,3);
SELECT 12.3::numeric(3,3);
