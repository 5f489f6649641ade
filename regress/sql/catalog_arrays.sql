SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- The array types over uuid, time, timetz, json and jsonb, and pg_type.typarray for them.
select '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}'::uuid[], '{12:00,13:30:01.5}'::time[], '{12:00+02}'::timetz[], '{"{\"a\": 1}",2}'::json[], '{"{\"a\": 1}",2}'::jsonb[];
select (array['12:00'::time, '01:00'])[2], array_agg(t order by t) from (values ('12:00'::time), ('01:00')) v(t);
select pg_typeof('{}'::uuid[]), pg_typeof(array['{}'::jsonb]), array['12:00+01'::timetz] = array['11:00+00'::timetz];
select typname, typarray::regtype from pg_type where typname in ('uuid','time','timetz','json','jsonb','bytea') order by 1;
select array_length('{12:00,13:00}'::time[], 1), '12:00'::time = any('{12:00,13:00}'::time[]);
CREATE TABLE ca_t (id int, u uuid[], t time[], tz timetz[], j jsonb[]);
INSERT INTO ca_t VALUES (1, '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', '{12:00,01:00}', '{12:00+02}', '{"{\"a\": 1}"}'), (2, NULL, '{}', '{NULL}', '{}');
SELECT id, u, t, tz, j, t[1], pg_typeof(t[1]) FROM ca_t ORDER BY id;
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'ca_t'::regclass AND a.attnum > 0 ORDER BY a.attnum;
DROP TABLE ca_t;
