SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- json keeps its input text; jsonb normalizes it
SELECT '{"b":1,  "a":[1, 2.50, 1e2], "a":3}'::json;
SELECT '{"b":1,  "a":[1, 2.50, 1e2], "a":3}'::jsonb;
SELECT '{"aa":1,"b":2,"a":{"z":null,"y":true}}'::jsonb;
SELECT '-0'::jsonb, '1.50'::jsonb, '-1.5e-3'::jsonb, '1E+2'::jsonb, '[]'::jsonb, '{}'::jsonb, ' 7 '::jsonb;
SELECT '"a\"b\\c\/d\n\u00e9\t"'::jsonb, '"\ud83d\ude00"'::jsonb, '"\u0001"'::jsonb;
SELECT '"\ude00"'::json, '"\u0000"'::json;
-- input errors: message, DETAIL and CONTEXT as PostgreSQL
SELECT 'x'::json;
SELECT '{"a":}'::json;
SELECT '[1,'::jsonb;
SELECT '[}'::json;
SELECT '{"a" 1}'::json;
SELECT '{"a":1,}'::jsonb;
SELECT '{"a":1 "b"}'::json;
SELECT '[1 2]'::json;
SELECT '01'::json;
SELECT '1.'::json;
SELECT '-'::jsonb;
SELECT '"abc'::json;
SELECT '"\x"'::json;
SELECT '"\u00zz"'::json;
SELECT '"\u0000"'::jsonb;
SELECT '"\ud83d"'::jsonb;
SELECT '"\ude00"'::jsonb;
SELECT E'"a\tb"'::json;
SELECT E'{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa":1,\n"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb":x, "c":2}'::json;
SELECT '{"a":1} x'::json;
SELECT 'truex'::json;
SELECT ''::json;
SELECT '  '::jsonb;
-- casts
SELECT '"a"'::jsonb::text, '{"a":1}'::json::jsonb, '{"a":1,"a":2}'::jsonb::json, '[1, 2]'::text::jsonb;
SELECT '1.5'::jsonb::numeric, '1.5'::jsonb::int, '2.5'::jsonb::int8, 'true'::jsonb::bool, '2'::jsonb::float8, '32767'::jsonb::int2;
SELECT '"a"'::jsonb::numeric;
SELECT 'null'::jsonb::int;
SELECT '{}'::jsonb::bool;
SELECT '[1]'::jsonb::float4;
SELECT '40000'::jsonb::int2;
SELECT 1::json;
SELECT '1'::json::int;
-- comparison: object > array > boolean > number > string > null
SELECT '1'::jsonb = '1.0'::jsonb, '[]'::jsonb < 'null'::jsonb, '1'::jsonb < '[1]'::jsonb,
       '1'::jsonb > '[]'::jsonb, '{"a":1}'::jsonb > '[1,2,3]'::jsonb, 'true'::jsonb > '2'::jsonb,
       '"b"'::jsonb > '"a"'::jsonb, '{"b":1}'::jsonb > '{"a":2}'::jsonb, '{"a":1,"b":1}'::jsonb > '{"c":1}'::jsonb;
SELECT '1'::json = '1'::json;
-- -> ->> with keys and indexes
SELECT '{"a":[1,2,{"b":"c"}]}'::json -> 'a' -> 2 ->> 'b', '{"a":[1,  2]}'::json -> 'a', '{"a":[1,  2]}'::jsonb -> 'a';
SELECT '{"a":1,"a":2}'::json -> 'a', '{"a":null}'::json ->> 'a', '{"a":null}'::jsonb -> 'a', '{"a":"x"}'::jsonb ->> 'a';
SELECT '[1,2,3]'::jsonb -> -1, '[1,2,3]'::jsonb -> 5, '{"a":1}'::jsonb -> 0, '[1]'::jsonb -> 'a', '[1,2]'::json ->> -2;
-- a jsonb scalar is a one-element array to an index (not to a path); a json one is not
SELECT '-1.50'::jsonb -> -1, '"a"'::jsonb -> 0, '1'::jsonb ->> 0, '1'::jsonb -> 1, '1'::json -> 0, jsonb_extract_path('1', '0');
-- found by sqlfuzz: bool to name is boolout's t/f (no booltext cast), unknown for anyelement
SELECT true::name, (count(jsonb 'null') > 7)::name, true::text FROM (SELECT 1) s;
SELECT to_json(1), json_agg(x) FROM (SELECT 'a' AS x) s;
-- containment, existence, concatenation, deletion
SELECT '{"a":1,"b":{"c":2}}'::jsonb @> '{"b":{}}', '[1,2,[3]]'::jsonb @> '[[3]]', '[1,2]'::jsonb @> '1',
       '1'::jsonb @> '[1]', '{"a":1}'::jsonb <@ '{"a":1,"b":2}', '{"a":[1,2]}'::jsonb @> '{"a":[2,2]}', '{"a":1}'::jsonb @> '{"a":1.0}';
SELECT '{"a":1}'::jsonb ? 'a', '["a","b"]'::jsonb ? 'b', '"a"'::jsonb ? 'a', '[1]'::jsonb ? '1', '{"a":{"b":1}}'::jsonb ? 'b';
SELECT '{"a":1}'::jsonb || '{"a":2,"b":3}', '[1]'::jsonb || '[2]', '1'::jsonb || '2',
       '{"a":1}'::jsonb || '[1]', '[1]'::jsonb || '{"a":1}', '{"a":1}'::jsonb || '1';
SELECT '{"a":1,"b":2}'::jsonb - 'a', '["a","b","a"]'::jsonb - 'a', '[1,2,3]'::jsonb - 1, '[1,2,3]'::jsonb - -1, '[1,2,3]'::jsonb - 9;
SELECT '1'::jsonb - 'a';
SELECT '{"a":1}'::jsonb - 0;
-- processing functions
SELECT json_typeof('{}'), jsonb_typeof('1'), jsonb_typeof('"x"'), json_typeof('null'), json_typeof('true'), jsonb_typeof('[]');
SELECT json_array_length('[1,2]'), jsonb_array_length('[]');
SELECT jsonb_array_length('{}');
SELECT json_array_length('1');
SELECT json_strip_nulls('{"a": 1, "b": null, "c": [null, {"d": null}]}'), jsonb_strip_nulls('{"a": 1, "b": null, "c": [null, {"d": null}]}');
SELECT jsonb_pretty('{"a": 1, "b": [1, {"c": []}, {}], "d": {"e": "f"}}');
SELECT jsonb_pretty('1'), jsonb_pretty('[]');
SELECT json_extract_path('{"a":{"b":[1,2]}}', 'a', 'b', '1'), jsonb_extract_path_text('{"a":{"b":[1,"x"]}}', 'a', 'b', '1'),
       json_extract_path('{"a":1}'), jsonb_extract_path('{"a":1}', 'b'), json_extract_path_text('{"a":null}', 'a');
-- constructors
SELECT to_json(1), to_json(1.50), to_json('a"b'::text), to_json(true), to_json('NaN'::float8), to_json(1e20::float8),
       to_json(date '2020-01-02'), to_json(timestamp '2020-01-02 03:04:05.5'), to_json(timestamptz '2020-01-02 03:04:05+00'),
       to_json(interval '1 day'), to_json('{"a" : 1}'::json), to_json(null::int);
SELECT to_jsonb(1), to_jsonb(1.50), to_jsonb('a"b'::text), to_jsonb(true), to_jsonb('NaN'::float8), to_jsonb(1e20::float8),
       to_jsonb(date '2020-01-02'), to_jsonb('{"a" : 1}'::json), to_jsonb('infinity'::timestamp);
SET TimeZone = 'America/New_York';
SELECT to_json(timestamptz '2020-01-02 03:04:05+00'), to_jsonb(timestamptz '2020-07-02 03:04:05.25+00');
SET TimeZone = 'UTC';
SELECT json_build_object('a', 1, 'b', 'x', 1, true, 'n', null), jsonb_build_object('b', 1, 'a', 'x', 1, true, 'n', null);
SELECT json_build_object(), jsonb_build_object(), json_build_array(), jsonb_build_array();
SELECT json_build_array(1, 'a', null, '{"x":1}'::json), jsonb_build_array(1, 'a', null, '{"x":1}'::json, 2.50);
SELECT json_build_object('a');
SELECT json_build_object(null, 1);
SELECT jsonb_build_object(null, 1);
SELECT json_build_object('{}'::json, 1);
-- columns, COPY, grouping, joins and sorting on jsonb
CREATE TABLE js_t (id int, j json, b jsonb);
INSERT INTO js_t VALUES (1, '{"a": 1}', '{"a": 1}'), (2, '[1, 2]', '[1,2]'), (3, NULL, NULL), (4, '"x"', '"x"'),
  (5, '{"a":1.0}', '{"a":1.0}'), (6, '1', '1.0'), (7, '{}', '[]'), (8, 'null', 'null'), (9, 'true', 'false');
SELECT * FROM js_t ORDER BY id;
SELECT b, count(*) FROM js_t GROUP BY b ORDER BY b, count(*);
SELECT id, b FROM js_t ORDER BY b DESC, id;
SELECT DISTINCT b FROM js_t ORDER BY 1;
SELECT x.id, y.id FROM js_t x JOIN js_t y ON x.b = y.b WHERE x.id < y.id ORDER BY 1, 2;
INSERT INTO js_t VALUES (10, 'bad', NULL);
INSERT INTO js_t VALUES (10, NULL, '{bad');
COPY js_t TO stdout;
COPY js_t (id, b) TO stdout CSV;
CREATE TABLE js_c (id int, b jsonb);
COPY js_c FROM stdin;
1	{"z": 1, "a": [1, 2]}
2	"str"
\.
COPY js_c FROM stdin;
3	{"a":
\.
SELECT * FROM js_c ORDER BY id;
SELECT id, b -> 'a' FROM js_t WHERE b ? 'a' ORDER BY id;
SELECT id FROM js_t WHERE b @> '{"a":1}' ORDER BY id;
-- aggregates
SELECT json_agg(id ORDER BY id), jsonb_agg(b ORDER BY id), json_agg(j ORDER BY id) FROM js_t;
SELECT json_object_agg(id, b ORDER BY id), jsonb_object_agg(id::text, b) FROM js_t;
SELECT jsonb_object_agg(k, v) FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) AS v(k, v);
SELECT json_agg(x) FROM (SELECT 1 AS x WHERE false) s;
SELECT jsonb_object_agg(NULL::text, 1);
SELECT json_agg(b) FILTER (WHERE id > 100) FROM js_t;
SELECT id % 2 AS g, jsonb_agg(b ORDER BY id DESC) FROM js_t GROUP BY 1 ORDER BY 1;
-- set-returning functions
SELECT * FROM json_array_elements('[1, "a", {"b":2}, null]');
SELECT * FROM jsonb_array_elements_text('[1, "a", {"b":2}, null]') WITH ORDINALITY AS t(v, n);
SELECT json_object_keys('{"b":1,"a":2,"b":3}');
SELECT jsonb_object_keys('{"b":1,"a":2,"b":3}'), 1 AS x;
SELECT json_array_elements('{}');
SELECT * FROM jsonb_object_keys('[]');
SELECT jsonb_array_elements('1');
SELECT id, jsonb_array_elements(b) FROM js_t WHERE id IN (2, 3) ORDER BY 1, 2;
SELECT id, e.value FROM js_t, LATERAL jsonb_array_elements(b) e WHERE jsonb_typeof(b) = 'array' ORDER BY 1, 2;
-- json has no equality or ordering operator
CREATE TABLE js_q (id int, j json);
SELECT * FROM js_q ORDER BY j;
SELECT j FROM js_q GROUP BY j;
SELECT DISTINCT j FROM js_q;
SELECT j FROM js_q UNION SELECT j FROM js_q;
SELECT j FROM js_q UNION ALL SELECT j FROM js_q;
SELECT count(DISTINCT j) FROM js_q;
SELECT json_agg(id ORDER BY j) FROM js_q;
SELECT row_number() OVER (ORDER BY j) FROM js_q;
SELECT row_number() OVER (PARTITION BY j) FROM js_q;
SELECT j IN (SELECT j FROM js_q) FROM js_q;
SELECT DISTINCT ON (j) id FROM js_q;
SELECT j FROM js_q INTERSECT SELECT j FROM js_q;
SELECT DISTINCT j::jsonb FROM js_q;
(SELECT 'true'::json AS c0) INTERSECT ALL (SELECT 'true'::json AS c0);
SELECT greatest('1'::json, '2'::json);
SELECT 'a' AS c0 FROM (SELECT least('"a"'::json, '{}'::json) AS c0) AS s;
DROP TABLE js_q;
DROP TABLE js_t;
DROP TABLE js_c;

CREATE TABLE js_t2 (id int, b jsonb);
INSERT INTO js_t2 VALUES (1, '{"a":{"b":1},"c":2}'), (2, '["a","b"]'), (3, '{}'), (4, NULL);
-- text[] paths: #> #>> ?| ?& #- and - text[]
select '{"a":{"b":[1,2,{"c":"x"}]}}'::jsonb #> '{a,b,2}';
select '{"a":{"b":[1,2,{"c":"x"}]}}'::jsonb #>> '{a,b,2,c}';
select '{"a":{"b":[1,2,{"c":"x"}]}}'::json #> '{a,b,-1}';
select '{"a":{"b":[1,2,{"c":"x"}]}}'::json #>> '{a,b, 1}';
select '{"a":{"b":[1,2,{"c":"x"}]}}'::json #>> '{a,b,1 }';
select '{"a":1}'::jsonb #> '{}', '"x"'::jsonb #>> '{}', '"x"'::jsonb #> '{a}', '{"a":1}'::jsonb #> '{a,NULL}';
select '{"a":1, "b":2}'::jsonb ?| '{a,c}', '{"a":1}'::jsonb ?& '{a,c}', '{"a":1}'::jsonb ?& '{}', '["a"]'::jsonb ?| array['a',null];
select '{"a":1, "b":2, "c":3}'::jsonb - '{a,c}'::text[], '["a","b",1]'::jsonb - '{a}'::text[];
select '{"a":1}'::jsonb - 'a', '["a"]'::jsonb - 0;
select '1'::jsonb - '{a}'::text[];
select '{"a":1}'::jsonb - '{{a}}'::text[];
select '{"a":{"b":[1,2,3]}}'::jsonb #- '{a,b,1}', '{"a":{"b":[1,2,3]}}'::jsonb #- '{a,b,-1}', '[1,2]'::jsonb #- '{5}';
select '{"a":1}'::jsonb #- '{a,NULL}';
select '{"a":1}'::jsonb #- '{NULL}';
select '[1]'::jsonb #- '{x}';
select '1'::jsonb #- '{x}';
-- jsonb_set, jsonb_set_lax, jsonb_insert
select jsonb_set('{"a":[1,2,3]}', '{a,1}', '"x"'), jsonb_set('{"a":[1,2,3]}', '{a,9}', '"x"'), jsonb_set('{"a":[1,2,3]}', '{a,-9}', '"x"'), jsonb_set('{"a":[1,2,3]}', '{b}', '"x"', false), jsonb_set('{"a":[1,2,3]}', '{b}', '"x"');
select jsonb_set('{}', '{b}', '1'), jsonb_set('{}', '{b}', '1', false), jsonb_set('[]', '{0}', '1'), jsonb_set('{"a":1}', '{a,b}', '2');
select jsonb_set('1', '{b}', '1');
select jsonb_set('{"a":1}', '{NULL}', '1');
select jsonb_set('{"a":[1]}', '{a,z}', '1');
select jsonb_set_lax('{"a":1,"b":2}', '{b}', null), jsonb_set_lax('{"a":1,"b":2}', '{b}', null, true, 'delete_key'), jsonb_set_lax('{"a":1,"b":2}', '{b}', null, true, 'return_target'), jsonb_set_lax('{"a":1}', '{b}', '5');
select jsonb_set_lax('{"a":1,"b":2}', '{b}', null, true, 'raise_exception');
select jsonb_set_lax('{"a":1,"b":2}', '{b}', null, true, 'foo');
select jsonb_set_lax('{"a":1,"b":2}', '{b}', null, true, null);
select jsonb_set_lax('{"a":1,"b":2}', '{b}', null, null, null);
select jsonb_insert('{"a":[0,1,2]}', '{a,1}', '"new"'), jsonb_insert('{"a":[0,1,2]}', '{a,1}', '"new"', true), jsonb_insert('{"a":[0,1,2]}', '{a,-1}', '"new"', true), jsonb_insert('{"a":[0,1,2]}', '{b}', '"new"'), jsonb_insert('[]', '{5}', '1');
select jsonb_insert('{"a":[0,1,2]}', '{a}', '"new"');
select jsonb_set(jsonb_in => '{"a":1}', path => '{a}', replacement => '2');
select '{"a":1}'::jsonb ?| '{{a},{b}}', jsonb_exists_all('{"a":1}', '{a}');
SELECT id, b #> '{a}' AS a, b #>> '{0}' AS e0, b ?| '{a,x}' AS any, jsonb_set(b, '{z}', '0', true) AS set FROM js_t2 ORDER BY id;
-- json[b]_each[_text]
SELECT * FROM json_each('[1]');
SELECT * FROM json_each('1');
SELECT * FROM jsonb_each('[1]');
SELECT * FROM json_each_text('[1]');
SELECT * FROM jsonb_each_text('"a"');
SELECT json_each('{"a":1,"b":"x y","c":null,"a":[1, 2]}');
SELECT jsonb_each_text('{"a":1,"b":"x y","c":null}');
SELECT * FROM json_each('{"a":1,"b":"x y","c":null,"a":[1, 2]}') WITH ORDINALITY AS t(k, v, n) ORDER BY n;
SELECT t.* FROM jsonb_each_text('{"a":1,"b":"x y","c":null}') t ORDER BY key;
SELECT key, value FROM jsonb_each('{"b":{"x":1},"a":[1,2]}') ORDER BY key;
SELECT * FROM json_each(NULL);
SELECT (json_each('{"a":1}')).key;
SELECT id, e.key, e.value FROM js_t2, LATERAL jsonb_each(b) e WHERE jsonb_typeof(b) = 'object' ORDER BY 1, 2;
-- arrays and records as JSON
SELECT array_to_json('{{1,5},{99,100}}'::int[]), array_to_json('{{1,5},{99,100}}'::int[], true), array_to_json('{}'::text[]), array_to_json(array['a',null,'c"']);
SELECT row_to_json(row(1,'foo')), row_to_json(row(1,'foo'), true), row_to_json(row(array[1,2], row(2,'x')));
SELECT row_to_json(q, true) FROM (SELECT 1 AS a, 'x' AS b, array[1.5,2] AS c) q;
SELECT row_to_json(1);
SELECT to_json(array[1,2]), to_jsonb(array[[1,2],[3,4]]), to_json(row(1,'a')), to_jsonb(row(1,'a',null)), to_jsonb(array[]::int[]);
SELECT json_build_object(array[1], 2);
SELECT json_agg(q ORDER BY b) FROM (SELECT x AS b FROM generate_series(1,2) x) q;
SELECT jsonb_agg(q ORDER BY b) FROM (SELECT x AS b FROM generate_series(1,2) x) q;
SELECT row_to_json(t) FROM js_t2 t ORDER BY id;
-- json_object, jsonb_object
SELECT json_object('{a,1,b,2,3,NULL,"d e f","a b c"}'), json_object('{{a,1},{b,2}}'), json_object('{}'), jsonb_object('{a,1,b,2,a,NULL}');
SELECT json_object('{a,1,b}');
SELECT json_object('{{a,1,2},{b,2,3}}');
SELECT json_object('{a,b}','{1,2}'), json_object('{a,b}','{1,NULL}'), jsonb_object('{b,a}','{1,2}'), json_object('{}','{}');
SELECT json_object('{a,b}','{1}');
SELECT json_object('{a,NULL}','{1,2}');
SELECT json_object('{{a}}','{1}');
SELECT json_object('{a,b}','{}');
SELECT jsonb_object('{{a,1},{b,NULL}}'), jsonb_object('{a,NULL}');
DROP TABLE js_t2;
select jsonb_delete('{"a":1,"b":2,"c":3}', 'a'), jsonb_delete('[1,2]', 0), jsonb_delete('{"a":1,"b":2,"c":3}', 'a', 'c'), jsonb_delete('{"a":1,"b":2,"c":3}', 'a', null);
select jsonb_contains('{"a":1,"b":2}', '{"a":1}'), jsonb_contained('{"a":1}', '{"a":1,"b":2}');
select jsonb_delete(null, 'a', 'b');
select jsonb_delete('1', 'a', 'b');
-- more arrays and records inside JSON constructors and aggregates
select to_json('[0:1]={1,2}'::int[]), to_json(array['2020-01-01 10:00'::timestamp]), to_jsonb(array[true,null]), to_json(array[1.5e300::float8, 'NaN']);
select json_build_object('a', array[1,2], 'b', row(1,'x')), json_build_array(row(1), array['q']), jsonb_build_object('a', array[1,2], 'b', row(1,'x'));
select json_object_agg(k, v order by k) from (values ('a', array[1]), ('b', null)) t(k, v);
select json_agg(v order by i) from (values (1, array[1]), (2, null), (3, array[3])) t(i, v);
select json_agg(v order by i) from (values (1, row(1,2)), (2, null), (3, row(3,4))) t(i, v);
select to_jsonb(t) from (select 1 as b, 'x' as a, null::int as c) t;
select row_to_json(t) from (select 1 as "a""b", now()::date - now()::date as d) t;
select json_object_agg(array[1], 1);
select jsonb_object_agg(row(1), 1);
select jsonb_build_object(array[1], 1);
select to_jsonb(array[array[1,2],array[3,4]]) -> 1, array_to_json(array[[1]], true);
-- json_each beside other functions, LATERAL, aliases
select * from rows from (json_each('{"a":1,"b":2}'), generate_series(1,3)) order by 3;
select j.* from (values ('{"x":1}'::jsonb), ('{"y":[2]}')) v(d), jsonb_each(v.d) j order by 1;
select count(*) from jsonb_each('{"a":1,"b":2}');
select jsonb_each('{"a":1}') as r;
select * from json_each_text('{"a":"x"}') as t(k);
select * from json_each_text('{"a":"x"}') as t(k, v, z);
-- path elements read as strtoint does
select '[1,2]'::jsonb #> '{" 1"}', '[1,2]'::jsonb #> '{"1 "}', '[1,2]'::jsonb #> '{+1}', '[1,2]'::jsonb #> '{2147483648}', '[1,2]'::jsonb #> '{""}', '[1,2]'::json #> '{-2}', '[1,2]'::json #> '{-3}';
select jsonb_set('[1,2]', '{" 0"}', '9'), jsonb_set('[1,2]', '{-2147483648}', '9'), jsonb_insert('[1,2]', '{-3}', '9');
select jsonb_set('[1,2]', '{"1 "}', '9');
select jsonb_set('[1,2]', '{2147483648}', '9');
select '{"a":[1,{"b":2}]}'::jsonb #- '{a,1,b}', '{"a":[1,{"b":2}]}'::jsonb #- '{a,-1}', '{"a":1}'::jsonb #- '{}', '{}'::jsonb #- '{a,b}';
