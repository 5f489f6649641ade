-- Math functions and integer bit operators (issue 15 part 5).
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

-- Shifts take the count modulo the width, as PostgreSQL's C does on x86-64.
SELECT 1::int2 << 3 AS a, 1::int4 << 31 AS b, 1::int8 << 63 AS c, -8 >> 1 AS d, 1::int2 << 16 AS e,
       1 << 32 AS f, 1::int8 << 64 AS g, 1 << -1 AS h, (-1)::int2 >> 20 AS i;
SELECT ~5 AS n4, ~5::int2 AS n2, ~5::int8 AS n8, 5 # 3 AS x, 5 & 3 AS a, 5::int8 | 3::int8 AS o, 5::int2 & 6::int2 AS a2;
CREATE TABLE mf_t (id int, i2 int2, i4 int4, i8 int8, f float8);
INSERT INTO mf_t VALUES (1, 3, 12, 120, 30), (2, -7, -18, 9223372036854775807, -45), (3, 0, 0, 0, 90), (4, NULL, NULL, NULL, NULL);
SELECT id, i2 << 2 AS s2, i4 >> 1 AS s4, i8 << 1 AS s8, ~i4 AS n, i4 & 10 AS a, i4 | 1 AS o, i4 # 5 AS x FROM mf_t ORDER BY id;
-- gcd, lcm, factorial and their errors.
SELECT gcd(12, 18) AS g4, lcm(4, 6) AS l4, gcd(12::int8, 18) AS g8, gcd(12.5, 5) AS gn, lcm(1.5, 2.5) AS ln, factorial(20) AS f;
SELECT lcm(2147483647, 2147483646);
SELECT gcd(-2147483648, 0);
SELECT lcm((-2147483648)::int4, 0) AS l4, lcm(0::int8, (-9223372036854775808)::int8) AS l8;
SELECT factorial(-1);
-- Degree-based trigonometry: exact at the key angles.
SELECT x, sind(x) AS sin, cosd(x) AS cos, tand(x) AS tan, cotd(x) AS cot FROM generate_series(-360, 360, 45) x ORDER BY x;
SELECT x, sind(x) AS sin, cosd(x) AS cos FROM generate_series(0, 180, 30) x ORDER BY x;
SELECT x, asind(x) AS asin, acosd(x) AS acos, atand(x) AS atan FROM (VALUES (-1.0::float8), (-0.5), (0), (0.5), (1)) v(x) ORDER BY x;
SELECT atan2d(1, 1) AS a1, atan2d(-1, 0) AS a2, atan2d(0, -1) AS a3, sind('NaN') AS nan;
SELECT sind('Infinity');
SELECT asind(1.5);
SELECT id, sind(f) AS s, cosd(f) AS c FROM mf_t ORDER BY id;
-- Hyperbolic functions.
SELECT sinh(1) AS sinh, cosh(1) AS cosh, tanh(1) AS tanh, asinh(1) AS asinh, acosh(2) AS acosh, atanh(0.5) AS atanh;
SELECT atanh(1) AS inf, atanh(-1) AS neginf, asinh(0) AS zero, acosh(1) AS one;
SELECT acosh(0.5);
-- float.c's domain checks of the radian trigonometric functions
SELECT acos(2::float8);
SELECT asin(-1.5::float8);
SELECT acos(1::float8) AS acos1, asin(-1::float8) AS asinm1, acos('NaN'::float8) AS acosnan, sin('NaN'::float8) AS sinnan, cot(0::float8) AS cot0;
SELECT sin('infinity'::float8);
SELECT cos('-infinity'::float8);
SELECT tan('infinity'::float8);
SELECT cot('-infinity'::float8);
SELECT sinh(1000::float8) AS sinh, cosh(-1000::float8) AS cosh, atan('infinity'::float8) AS atan;
SELECT atanh(1.5);
-- Numeric helpers.
SELECT width_bucket(5.35, 0.024, 10.06, 5) AS wn, width_bucket(5.35::float8, 0.024, 10.06, 5) AS wf,
       trim_scale(1.2000) AS ts, min_scale(1.2000) AS ms, scale(1.2000) AS sc, log(2.0, 8.0) AS lg,
       div(9, 4) AS dv, mod(9.5, 4) AS md, mod(-9, 4) AS mi;
SELECT erf(1);
SELECT to_hex(i4) AS h4, to_hex(i8) AS h8 FROM mf_t ORDER BY id;
DROP TABLE mf_t;
