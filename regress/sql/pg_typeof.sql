SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- pg_typeof: the argument's type as regtype prints it.
SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('x'), pg_typeof('x'::varchar(3)), pg_typeof(now()),
       pg_typeof(NULL), pg_typeof(array[1, 2]), pg_typeof(row(1, 2)), pg_typeof('{}'::jsonb);
SELECT pg_typeof(1::int8 + 1), pg_typeof('12:00'::time), pg_typeof(true), pg_typeof('x'::name),
       pg_typeof('1 day'::interval), pg_typeof(current_date), pg_typeof('x'::char(3)), pg_typeof(1::float4),
       pg_typeof(localtimestamp), pg_typeof('\x00'::bytea), pg_typeof(array['a']::text[]);
CREATE TABLE pt_t (a int, b numeric(10, 2), c text[]);
SELECT pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(pt_t) FROM pt_t;
INSERT INTO pt_t VALUES (1, 2.5, '{x}');
SELECT pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(sum(a) OVER ()) FROM pt_t;
DROP TABLE pt_t;
