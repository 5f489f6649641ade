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
