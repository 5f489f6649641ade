-- Numeric and float8 math: result scales, last digits, specials and errors.
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
\pset null NULL
CREATE TABLE nm_v (id int, x numeric);
INSERT INTO nm_v VALUES
  (1, 0), (2, 0.000), (3, 1), (4, 1.000), (5, 2), (6, 0.5), (7, 10), (8, 123.456),
  (9, 1e-20), (10, 1e20), (11, 8015491789940783531003294973900306),
  (12, 3.14159265358979323846264338327950288), (13, 0.9), (14, 1.1),
  (15, 1.0000000000000000000001), (16, 0.999999999999999999999),
  (17, 12345678901234567890.123456789), (18, 7.5e-7), (19, 99999999999999999999999999),
  (20, 'NaN'), (21, 'Infinity');
-- sqrt: 16 significant digits from the base-10000 weight, at least the input's scale
SELECT id, x, sqrt(x) FROM nm_v ORDER BY id;
SELECT id, ln(x), log(x) FROM nm_v WHERE x > 0 ORDER BY id;
SELECT id, exp(x) FROM nm_v WHERE x < 1000 ORDER BY id;
SELECT id, log(2, x), log(x, 100) FROM nm_v WHERE x > 0 AND x <> 1 ORDER BY id;
-- power: integer exponents keep max(16, base scale) digits; others estimate the weight
SELECT id, x ^ 2 AS sq, x ^ 3 AS cube, x ^ (-1) AS inv, x ^ 0.5 AS half, x ^ 1.5 AS three_halves
  FROM nm_v WHERE x > 0 AND x < 1e15 ORDER BY id;
SELECT id, power(x, 0) AS p0, power(x, 0.0) AS p00, x ^ 'Infinity'::numeric AS pinf,
  x ^ '-Infinity'::numeric AS ninf FROM nm_v ORDER BY id;
SELECT 0.0 ^ 0.0, 0 ^ 0, 0 ^ 0.5, 2 ^ 0.5, 2.0 ^ -2, 0.5 ^ 100, 1.5 ^ 70;
SELECT (-2)::numeric ^ 3, (-2)::numeric ^ -3, (-1)::numeric ^ 2147483648, 1.000000001 ^ 2147483647;
SELECT 10::numeric ^ -1000, 9.99 ^ -7, 123.456 ^ 1.5, 2::numeric ^ 0.333333333333;
SELECT 1.0000000000000000000001 ^ 0.5, 1.0000000000000000000001 ^ 1.5, 0.999999999999999999999 ^ 1.5;
SELECT 'NaN'::numeric ^ 0, 1 ^ 'NaN'::numeric, 'NaN'::numeric ^ 1, 'Infinity'::numeric ^ -2,
  '-Infinity'::numeric ^ 3, '-Infinity'::numeric ^ 2, '-Infinity'::numeric ^ -3, (-1)::numeric ^ 'Infinity'::numeric;
SELECT exp(1.000), exp(-100::numeric), exp(0.5::numeric), ln(1e100), ln(1e-100), log(1.0000000001, 10);
SELECT log('Infinity'::numeric, 5), log(5, 'Infinity'::numeric), log('Infinity'::numeric, 'Infinity'::numeric);
SELECT length(exp(5999::numeric)::text), exp(-6000::numeric) = 0, scale(exp(-6000::numeric));
SELECT length(round(1.5, 3000)::text), round(123.456, -131073), round(999, -3), round(999, -4), trunc(-2.59, 1);
SELECT 1::numeric / 3, 10::numeric / 4, 1.000 / 3, 2 / 0.0000007, 123456789012345678901234567890 / 7.0;
SELECT length((1e-16383::numeric)::text), length((1e99999::numeric)::text), 0e20000::numeric;
SELECT length((1e-10000::numeric * 1e-10000::numeric)::text), right((1.5e-10000::numeric * 1.5e-8000::numeric)::text, 5);
-- errors
SELECT sqrt(-1::numeric);
SELECT sqrt('-Infinity'::numeric);
SELECT ln(0::numeric);
SELECT ln(-1::numeric);
SELECT log(1, 5::numeric);
SELECT log(0, 5::numeric);
SELECT log(-2, 8::numeric);
SELECT 0 ^ (-1)::numeric;
SELECT 0::numeric ^ -1.5;
SELECT (-2)::numeric ^ 0.5;
SELECT exp(6000::numeric);
SELECT 10::numeric ^ 131072;
SELECT (-1.5)::numeric ^ 2147483649;
SELECT 1e-16384::numeric;
SELECT 1e131072::numeric;
-- float8
CREATE TABLE nm_f (id int, x float8);
INSERT INTO nm_f SELECT i, i / 7.3 FROM generate_series(-40, 40) i;
SELECT id, exp(x), power(abs(x) + 1, x), power(2, x) FROM nm_f ORDER BY id;
SELECT id, ln(x), log(x), log10(x * 1e-300), sqrt(x), cbrt(x) FROM nm_f WHERE x > 0 ORDER BY id;
SELECT exp(-745::float8), exp(709::float8), power(0.37::float8, 700), power(-3::float8, 3), power(-3::float8, 4);
SELECT power('-Infinity'::float8, -3), power('-Infinity'::float8, 3), power('-Infinity'::float8, 2),
  power(-1::float8, 'Infinity'), power(0.5::float8, '-Infinity'), power(2::float8, '-Infinity'),
  power('NaN'::float8, 0), power(1::float8, 'NaN'), power(0::float8, 0), power(-0.0::float8, 3);
SELECT exp('Infinity'::float8), exp('-Infinity'::float8), ln('Infinity'::float8), ln('NaN'::float8), sqrt('-0'::float8);
SELECT '1e23'::float8, '19994758824423808'::float8, '1e22'::float8, '3e10'::float4, '16777217'::float4;
SELECT exp(710::float8);
SELECT exp(-746::float8);
SELECT power(10::float8, 309);
SELECT power(10::float8, -400);
SELECT power(0::float8, -1);
SELECT power(-8::float8, 1.0 / 3);
SELECT ln(0::float8);
SELECT ln(-1::float8);
SELECT log(0::float8);
SELECT sqrt(-1::float8);
-- scale, gcd/lcm, factorial, width_bucket
SELECT id, scale(x), min_scale(x), trim_scale(x) FROM nm_v ORDER BY id;
SELECT scale(1e5), min_scale(1e-30), trim_scale(12300.00), trim_scale(-0.10), trim_scale('-Infinity'::numeric);
SELECT gcd(12::numeric, 18), gcd(1.5, 0.25), gcd(-12::numeric, 18.00), gcd(0::numeric, 0), gcd(0.0::numeric, -5), gcd('NaN'::numeric, 1);
SELECT lcm(12::numeric, 18), lcm(1.5, 0.25), lcm(-12::numeric, 18.00), lcm(0::numeric, 5), lcm(1.000, 0.3), lcm('Infinity'::numeric, 1);
SELECT gcd(12, 18), lcm(12, 18), lcm(0, 5), gcd(12::int8, 18::int8), lcm(4294967296::int8, 4294967297::int8);
SELECT gcd((-2147483648)::int4, 0);
SELECT lcm(2147483647, 2147483646);
SELECT lcm(9223372036854775807::int8, 2::int8);
SELECT factorial(0), factorial(1), factorial(20), length(factorial(1000)::text);
SELECT factorial(-1);
SELECT factorial(32178);
SELECT i, width_bucket(i * 0.1, 0, 0.9, 3) AS n1, width_bucket(i * 0.1, 0.9, 0, 7) AS n2,
  width_bucket(i * 0.1::float8, 0, 0.9, 3) AS f1, width_bucket(i * 0.1::float8, 0.9, 0, 7) AS f2
  FROM generate_series(-3, 12) i ORDER BY i;
SELECT width_bucket(1e308::float8, -1e308, 1e308, 10), width_bucket(0::float8, -1.7e308, 1.7e308, 2147483647);
SELECT width_bucket(5::numeric, 0, 10, 0);
SELECT width_bucket(5::numeric, 0, 0, 4);
SELECT width_bucket('NaN'::numeric, 0, 10, 4);
SELECT width_bucket(5::numeric, 'Infinity'::numeric, 10, 4);
SELECT width_bucket(11::float8, 0, 10, 2147483647);
DROP TABLE nm_v;
DROP TABLE nm_f;
