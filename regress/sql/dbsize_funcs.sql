SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- pg_size_pretty (bigint and numeric) and pg_size_bytes, with their edges.
SELECT x, pg_size_pretty(x), pg_size_pretty(x::numeric)
  FROM (VALUES (0::int8), (1), (-1), (10239), (10240), (-10240), (10485247), (10485248),
               (20971519), (20971520), (-20971520), (1099511627776), (9223372036854775807),
               (-9223372036854775808)) v(x)
  ORDER BY x;
SELECT pg_size_pretty(1.5::numeric), pg_size_pretty(10.2::numeric), pg_size_pretty(-10240.7::numeric),
       pg_size_pretty(123456789012345678901234567890::numeric), pg_size_pretty(NULL::bigint);
SELECT pg_size_pretty(123::int4), pg_size_pretty('123');
SELECT pg_size_bytes('1 kB'), pg_size_bytes('1.5 GB'), pg_size_bytes(' -3 tb '), pg_size_bytes('10 bytes'),
       pg_size_bytes('1PB'), pg_size_bytes('1e3 MB'), pg_size_bytes('1.5'), pg_size_bytes('1 kb'),
       pg_size_bytes('+2.5e1 mB'), pg_size_bytes('.5kB');
SELECT pg_size_bytes('1 B');
SELECT pg_size_bytes('1 KiB');
SELECT pg_size_bytes('9999999999 PB');
SELECT pg_size_bytes('1 e');
SELECT pg_size_bytes('1e');
SELECT pg_size_bytes('abc');
SELECT pg_size_bytes('');
SELECT pg_size_bytes('-');
SELECT pg_size_bytes(pg_size_pretty(x)) FROM (VALUES (10240::int8), (10485248)) v(x) ORDER BY 1;
