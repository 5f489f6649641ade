SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

-- jsonb subscripting: reads
SELECT ('{"a": 1}'::jsonb)['a'];
SELECT ('{"a": {"b": [1, 2, {"c": "x"}]}}'::jsonb)['a']['b'][2]['c'];
SELECT ('[1, "2", null]'::jsonb)[1], ('[1, "2", null]'::jsonb)[-1], ('[1, "2", null]'::jsonb)[3];
SELECT ('[1, "2", null]'::jsonb)['1'], ('[1, "2", null]'::jsonb)['x'];
SELECT ('123'::jsonb)[0], ('{"a": 1}'::jsonb)[NULL];
SELECT ('[1, 2]'::jsonb)[1.0];
SELECT ('[1, 2]'::jsonb)[1:2];

-- jsonb subscripting: assignment
CREATE TABLE jf2_sub (id int, j jsonb);
INSERT INTO jf2_sub VALUES (1, '{}'), (2, '{"k": "v"}'), (3, NULL), (4, '[0]'), (5, '7');
UPDATE jf2_sub SET j['a'] = '1' WHERE id <= 2;
UPDATE jf2_sub SET j['a']['b'][2] = '"deep"' WHERE id = 1;
UPDATE jf2_sub SET j[0] = '"first"' WHERE id = 3;
UPDATE jf2_sub SET j[5] = 'true' WHERE id = 4;
UPDATE jf2_sub SET j[-1] = '{"x": null}' WHERE id = 4;
SELECT * FROM jf2_sub ORDER BY id;
UPDATE jf2_sub SET j[-9] = '1' WHERE id = 4;
UPDATE jf2_sub SET j['a'] = '1' WHERE id = 5;
UPDATE jf2_sub SET j['k']['z'] = '1' WHERE id = 2;
UPDATE jf2_sub SET j[NULL] = '1' WHERE id = 2;
UPDATE jf2_sub SET j['x'] = NULL WHERE id = 2;
SELECT j FROM jf2_sub WHERE id = 2;
INSERT INTO jf2_sub (id, j[0]) VALUES (6, '"new"');
SELECT * FROM jf2_sub WHERE j['a'] = '1' ORDER BY id;
SELECT j FROM jf2_sub WHERE id = 6;

-- populate_record over a table's row type
CREATE TABLE jf2_pop (a text, b int, c timestamp);
SELECT * FROM json_populate_record(null::jf2_pop, '{"a":"blurfl","x":43.2}') q;
SELECT * FROM json_populate_record(row('x',3,'2012-12-31 15:30:56')::jf2_pop, '{"a":"blurfl","x":43.2}') q;
SELECT * FROM jsonb_populate_record(row('x',3,'2012-12-31 15:30:56')::jf2_pop, '{"a":[100,200,false],"x":43.2}') q;
SELECT * FROM json_populate_record(row('x',3,'2012-12-31 15:30:56')::jf2_pop, '{"c":[100,200,false]}') q;
SELECT * FROM jsonb_populate_record(row('x',3,'2012-12-31 15:30:56')::jf2_pop, '{}') q;
SELECT json_populate_record(null::jf2_pop, '{"b": "12"}');
SELECT jsonb_populate_record(row(1,2), '{"f1": 0, "f2": 1}');
SELECT json_populate_record(null::record, '{"x": 0}');
SELECT * FROM json_populate_record(null::record, '{"x": 776}') AS (x int, y int);
SELECT * FROM json_populate_record(null::jf2_pop, '[1]') q;
SELECT json_populate_record(1, '{}');

-- populate_recordset
SELECT * FROM json_populate_recordset(null::jf2_pop, '[{"a":"blurfl","x":43.2},{"b":3,"c":"2012-01-20 10:42:53"}]') q ORDER BY a;
SELECT * FROM jsonb_populate_recordset(row('def',99,null)::jf2_pop, '[{"a":[100,200,300],"x":43.2},{"a":{"z":true},"b":3}]') q ORDER BY a;
SELECT i, json_populate_recordset(row(i,50), '[{"f1":"42"},{"f2":"43"}]') FROM (VALUES (1),(2)) v(i) ORDER BY 1, 2;
SELECT * FROM jsonb_populate_recordset(null::record, '[{"x": 776}]') AS (x int, y int);
SELECT * FROM json_populate_recordset(null::jf2_pop, '[]') q;
SELECT * FROM jsonb_populate_recordset(null::jf2_pop, '{"a": 1}') q;
SELECT * FROM json_populate_recordset(null::jf2_pop, '{"a": 1}') q;
SELECT * FROM json_populate_recordset(null::jf2_pop, '[1]') q;
SELECT * FROM json_populate_recordset(row(0::int,0::int), '[{"a":"1"}]') q (a text, b text);

-- array and record fields
CREATE DOMAIN jf2_int_nn AS int NOT NULL;
CREATE TABLE jf2_rec (i int, ia int[], ia2 int[][], t text, ta text[], c char(10), ca char(10)[], js json, jsb jsonb, jsa json[], d jf2_int_nn);
SELECT ia FROM json_populate_record(NULL::jf2_rec, '{"ia": [1, "2", null, 4], "d": 1}') q;
SELECT ia FROM jsonb_populate_record(NULL::jf2_rec, '{"ia": [[1, 2], [3, 4]], "d": 1}') q;
SELECT ia FROM json_populate_record(NULL::jf2_rec, '{"ia": "{1,2,3}", "d": 1}') q;
SELECT ia FROM json_populate_record(NULL::jf2_rec, '{"ia": 123, "d": 1}') q;
SELECT ia FROM jsonb_populate_record(NULL::jf2_rec, '{"ia": [[1], 2], "d": 1}') q;
SELECT ia FROM json_populate_record(NULL::jf2_rec, '{"ia": [[1], [2, 3]], "d": 1}') q;
SELECT ia2 FROM jsonb_populate_record(NULL::jf2_rec, '{"ia2": [[], []], "d": 1}') q;
SELECT ta FROM json_populate_record(NULL::jf2_rec, '{"ta": [1, "2", null, 4], "d": 1}') q;
SELECT ta FROM jsonb_populate_record(NULL::jf2_rec, '{"ta": [[1, 2, 3], {"k": "v"}], "d": 1}') q;
SELECT c FROM json_populate_record(NULL::jf2_rec, '{"c": "aaaaaaaaaaaaa", "d": 1}') q;
SELECT ca FROM jsonb_populate_record(NULL::jf2_rec, '{"ca": [1, "2", null, 4], "d": 1}') q;
SELECT js, jsb FROM json_populate_record(NULL::jf2_rec, '{"js": "abc", "jsb": {"a": "bbb", "b": null,  "c": 123.45}, "d": 1}') q;
SELECT js, jsb FROM jsonb_populate_record(NULL::jf2_rec, '{"js": [123, "123", null], "jsb": 1.50, "d": 1}') q;
SELECT jsa FROM json_populate_record(NULL::jf2_rec, '{"jsa": ["aaa", null, [1, 2, "3", {}], { "k" : "v" }], "d": 1}') q;
SELECT jsa FROM jsonb_populate_record(NULL::jf2_rec, '{"jsa": 123, "d": 1}') q;
SELECT d FROM json_populate_record(NULL::jf2_rec, '{"i": 1}') q;
SELECT d FROM jsonb_populate_record(NULL::jf2_rec, '{"d": null}') q;
SELECT * FROM jsonb_to_record('{"a": 1, "r": {"a": "aaa", "b": 123}, "ia": [[1,2],[3,4]]}') AS t(a int, r jf2_pop, ia int[]);
SELECT * FROM json_to_record('{"r": "(abc,42,2003-01-02)"}') AS t(r jf2_pop);
SELECT * FROM jsonb_to_record('{"r": 123}') AS t(r jf2_pop);
SELECT * FROM json_to_record('{"r": [1, 2]}') AS t(r jf2_pop);

-- arrays of json and jsonb
SELECT '{"{\"a\": 1}", null}'::json[], '{"[1, 2]"}'::jsonb[];

-- scalar functions in FROM: one row
SELECT * FROM repeat('ab', 3) s;
SELECT s, length(s) FROM repeat('xy', 2) s;
SELECT * FROM upper(null::text) u;
SELECT * FROM lower('A') WITH ORDINALITY;
SELECT * FROM abs(-3) AS t(v);
SELECT * FROM concat('a', null, 'b');
SELECT * FROM jsonb_typeof('[1]');
