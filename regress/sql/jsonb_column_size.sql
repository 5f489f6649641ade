-- pg_column_size of computed jsonb values: the binary form's size
-- (containers, JEntries, numerics aligned to 4 bytes).
select pg_column_size('{}'::jsonb), pg_column_size('{"a":1}'::jsonb), pg_column_size('[1,2,"abc",null,true,{"x":[1.5]}]'::jsonb), pg_column_size('12'::jsonb), pg_column_size('"s"'::jsonb);
select pg_column_size('{"aa":1, "b":2}'::jsonb || '{}'::jsonb), pg_column_size('{"b": {"c": [1, 2e3, -0.5]}, "a": "xyz", "ccc": null}'::jsonb), pg_column_size('[[], {}, [[]], 1.0000001, 10000, "é"]'::jsonb);
select pg_column_size('{"a":1 , "b":2, "c":3}'::jsonb - 'b') = pg_column_size('{"a":1, "b":2}'::jsonb);
select pg_column_size(jsonb_build_object('k', repeat('x', 300), 'n', 123456789.123));
select pg_column_size(null::jsonb);
select pg_column_size(j || '{}') from (values ('{"q": [true, false]}'::jsonb)) v(j);
