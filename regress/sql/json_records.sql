SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- json[b]_to_record and json[b]_to_recordset in FROM with column definition lists
SELECT * FROM jsonb_to_record('{"a": 1, "b": "foo", "c": "bar"}') AS x(a int, b text, d text);
SELECT * FROM json_to_record('{"a": {"b": 1}, "c": [1, 2], "d": "s", "e": true, "f": null, "g": 1.50}')
  AS x(a text, c jsonb, d varchar(1), e bool, f int, g numeric, h text, a2 json);
SELECT * FROM jsonb_to_record('{"out": {"key": 1}}') AS x(out json);
SELECT * FROM jsonb_to_record('{"out": "{\"key\": 1}"}') AS x(out jsonb);
SELECT * FROM json_to_record('{"t": "2020-01-02 03:04:05", "d": "2020-01-02", "n": 12.5}') AS x(t timestamp, d date, n float8);
SELECT * FROM jsonb_to_recordset('[{"a": 1, "b": "foo", "d": false}, {"a": 2, "b": "bar", "c": true}]')
  AS x(a int, b text, c bool) ORDER BY a;
SELECT * FROM json_to_recordset('[{"a": 3}, {"b": "x"}, {}]') AS x(a int, b text) ORDER BY a, b;
SELECT * FROM jsonb_to_recordset('[]') AS x(a int);
-- over a table, laterally
CREATE TABLE jr_docs (id int, doc jsonb);
INSERT INTO jr_docs VALUES (1, '[{"k": "a", "v": 1}, {"k": "b", "v": 2}]'), (2, '[{"k": "c", "v": 3}]'), (3, '[]');
SELECT id, r.k, r.v FROM jr_docs, jsonb_to_recordset(doc) AS r(k text, v int) ORDER BY id, r.k;
SELECT id, sum(r.v) FROM jr_docs, jsonb_to_recordset(doc) AS r(k text, v int) GROUP BY id ORDER BY id;
DROP TABLE jr_docs;
-- errors
SELECT * FROM jsonb_to_record('{"a": 1}');
SELECT * FROM jsonb_to_record('{"a": "x"}') AS x(a int);
SELECT * FROM jsonb_to_record('{"d": "long"}') AS x(d varchar(2));
SELECT * FROM jsonb_to_record('[1]') AS x(a int);
SELECT * FROM json_to_record('"x"') AS x(a int);
SELECT * FROM jsonb_to_recordset('{"a": 1}') AS x(a int);
SELECT * FROM json_to_recordset('{"a": 1}') AS x(a int);
SELECT * FROM jsonb_to_recordset('[1]') AS x(a int);
