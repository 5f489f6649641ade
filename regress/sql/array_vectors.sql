-- int2vector and oidvector in arrays: scalar elements (int2vector[],
-- oidvector[]), and ARRAY[...]::vector built as the vector type.
select pg_typeof(array(select '11 22 33'::int2vector from generate_series(1,3)));
select array(select '11 22 33'::int2vector from generate_series(1,3));
select unnest(array(select '11 22 33'::oidvector from generate_series(1,2)));
select pg_typeof(array['11 22 33'::int2vector]), pg_typeof(array['1'::oidvector]);
select array['11 22 33'::int2vector], array['11 22 33'::oidvector, '4'];
select pg_typeof(unnest(array['11 22 33'::int2vector])), unnest(array['11 22 33'::oidvector]);
select (array['1 2'::int2vector, '3 4'])[2], (array['1 2'::int2vector, '3 4'])[2][1];
select ((array['1 2'::int2vector, '3'])[1])[1], array_dims((array['1 2'::int2vector])[1]);
select array['1 2'::int2vector, '3 4'] = array['1 2'::int2vector, '3 4'];
select array_length(array['1 2'::int2vector, '3 4'], 1), array_dims(array['1 2'::oidvector, '3 4']);
select array['1 2'::int2vector]::text, array['1 2'::int2vector]::int2[];
select to_json(array['1 2'::int2vector]), array_to_string(array['1 2'::oidvector, '3'], ',');
select '1 2'::int2vector = any(array['1 2'::int2vector]);
select distinct array['1 2'::int2vector] from generate_series(1,3);
create table vec_arr as select array['1 2'::int2vector, '3'] a, array['7 8'::oidvector] b;
select a, b, pg_typeof(a), pg_typeof(b) from vec_arr;
select format_type(atttypid, atttypmod) from pg_attribute
  where attrelid = 'vec_arr'::regclass and attnum > 0 order by attnum;
drop table vec_arr;
-- ARRAY[...]::vector
select array[1,2]::oidvector, array_dims(array[1,2]::oidvector), pg_typeof(array[1,2]::int2vector);
select array[1,2]::int2vector = '1 2'::int2vector, (array[1,2]::int2vector)[1];
select array[1.5,2]::int2vector, array['1','2']::int2vector;
select array[]::oidvector;
select array[]::int2vector;
select array[1,null]::int2vector;
select array[1,null]::oidvector;
select array[[1,2]]::int2vector;
-- a vector as anyelement beside an array of vectors
select array_append(array['1 2'::int2vector], '5 6'::int2vector);
select array_prepend('5 6'::int2vector, array['1 2'::int2vector]);
select array_position(array['1 2'::oidvector, '3'], '3'::oidvector);
select array_positions(array['1 2'::oidvector, '3', '3'], '3'::oidvector);
select array_remove(array['1 2'::int2vector, '3'], '3'::int2vector);
select array_replace(array['1 2'::int2vector, '3'], '3'::int2vector, '4 4');
select array['1 2'::int2vector] || '3'::int2vector;
select '3'::int2vector || array['1 2'::int2vector];
select array['1 2'::int2vector] || array['3'::int2vector];
select array[1,2] || array[3];
select array[1,2] || 3, 0 || array[1];
select array_append(array[1], array[2]);
select array_fill('1 2'::int2vector, array[2]);
select array_append('1 2'::int2vector, 3::int2);
select '1 2'::int2vector || 3::int2;
select array_position('1 2'::int2vector, 2::int2);
select coalesce('1 2'::int2vector, '3');
select greatest(array[1], array[2]);
select nullif(array[1], array[2]);
-- the type names int2vector[] and oidvector[]
select '{"1 2","3"}'::int2vector[], '{"1 2",NULL,""}'::oidvector[];
select '{{"1 2"},{"3"}}'::int2vector[], array_dims('{{"1 2"},{"3"}}'::int2vector[]);
select '{"1 x"}'::int2vector[];
select '{"1 2","3"}'::int2vector[] = array['1 2'::int2vector, '3'];
select cast('{"7"}' as oidvector[]);
select array['1 2'::int2vector]::int2vector[];
select '{1,2}'::int2[]::int2vector[];
select '{"1 2"}'::int2vector[]::int2[][];
select '{"1 2"}'::int2vector[]::text[];
create table vt5 (a int2vector[], b oidvector[]);
insert into vt5 values ('{"1 2","3"}', '{"4 5"}'), (NULL, '{}');
select a, b, a[1], b[1][1] from vt5 order by 1;
select * from vt5 where a = '{"1 2","3"}';
drop table vt5;
select '1 2'::int2vector(3);
select '{}'::oidvector(2)[];
