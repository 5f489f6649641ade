SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- jsonpath input, canonical output and syntax errors
SELECT '$.a ? (@ > 1)'::jsonpath, 'strict $.a[1 to last, 0]'::jsonpath, 'lax $.**{1 to 2}.b'::jsonpath;
SELECT '$ ? (@.a like_regex "^x" flag "si" && exists (@.b) || !(@.c starts with "y"))'::jsonpath;
SELECT '-(1 + 2) * $.a % 3'::jsonpath, '$.a.type().size()'::jsonpath, '($.a > 1) is unknown'::jsonpath;
SELECT '$."quoted key"."\u00e9"'::jsonpath, '$var.a'::jsonpath, '$.datetime("HH24:MI")'::jsonpath;
SELECT pg_typeof('$'::jsonpath), '$.a'::text::jsonpath;
SELECT ''::jsonpath;
SELECT '$.'::jsonpath;
SELECT '$ ? (@ > 1'::jsonpath;
SELECT '1a'::jsonpath;
SELECT '@.a'::jsonpath;
SELECT 'last'::jsonpath;
SELECT '$ ? (@ like_regex "a" flag "z")'::jsonpath;
-- a table of documents and paths
CREATE TABLE jpb_docs (id int, doc jsonb);
INSERT INTO jpb_docs VALUES
  (1, '{"a": [1, 2, 3], "b": {"c": "xyz"}}'),
  (2, '{"a": [], "b": {"c": "Xylophone"}}'),
  (3, '{"a": 5, "b": null}'),
  (4, '[{"a": 1}, {"a": 2, "b": [10, 20]}]');
SELECT id, doc @? '$.a[*] ? (@ > 2)' AS gt2, doc @@ '$.b.c like_regex "^x" flag "i"' AS m FROM jpb_docs ORDER BY id;
SELECT id, jsonb_path_query_array(doc, '$.a') AS a, jsonb_path_query_first(doc, '$.**.c') AS c FROM jpb_docs ORDER BY id;
SELECT id, jsonb_path_exists(doc, 'strict $.a[*]') AS strict_a, jsonb_path_exists(doc, 'strict $.a[*]', silent => true) AS silent FROM jpb_docs WHERE id < 4 ORDER BY id;
SELECT id, v FROM jpb_docs, jsonb_path_query(doc, '$.a[*] ? (@ >= $min)', '{"min": 2}') AS v ORDER BY id, v;
SELECT jsonb_path_query('{"a": [1, 2, {"b": 3}]}', 'lax $.a.b');
SELECT jsonb_path_query('{"a": [1, 2, {"b": 3}]}', 'strict $.a.b');
SELECT jsonb_path_query('[1, "a", null, true, [], {}]', '$[*].type()') AS t ORDER BY 1;
SELECT jsonb_path_query('[1.5, -2.5, "3.25"]', '$[*].double().floor()') AS f ORDER BY 1;
SELECT jsonb_path_query('[-1.5, 2.5]', '$[*].abs().ceiling()') AS c ORDER BY 1;
SELECT jsonb_path_query('{"x": [1, 2], "y": 3}', '$.*.size()') AS s ORDER BY 1;
SELECT jsonb_path_query('[{"a": 1, "b": [1, 2]}, {"c": {"a": "bbb"}}]', '$[*].keyvalue()') AS kv ORDER BY 1;
SELECT jsonb_path_query('[1, 2, 3, 4]', '$[last - 1 to last, 0]') AS e ORDER BY 1;
SELECT jsonb_path_query('[1, 2, 3]', 'strict $[5]');
SELECT jsonb_path_query('[1, 2, 3]', '$[5]');
SELECT jsonb_path_query('{"a": 10}', '$.a / 0');
SELECT jsonb_path_query('{"a": 10}', '$.a + "x"');
SELECT jsonb_path_query('{}', '$undefined');
SELECT jsonb_path_query('{}', '$x', '[1]');
SELECT jsonb_path_match('{"a": 1}', '$.a');
SELECT jsonb_path_match('{"a": 1}', '$.a', silent => true) IS NULL AS is_null;
SELECT jsonb_path_match('{"a": 1}', '$.a == $v', vars => '{"v": 1}');
SELECT jsonb_path_query('"abc\ndef"', '$ ? (@ like_regex "^abc.def")'), jsonb_path_query('"abc\ndef"', '$ ? (@ like_regex "^abc.def" flag "s")');
DROP TABLE jpb_docs;
