-- String functions and regular expressions (issue 15 part 5): PostgreSQL's
-- ARE run on RE2, with what RE2 cannot do the same way refused (0A000).
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';

CREATE TABLE sf_t (id int, s text);
INSERT INTO sf_t VALUES (1, 'the quick brown fox'), (2, 'A PostgreSQL function'), (3, ''), (4, NULL),
  (5, 'line1' || chr(10) || 'line2');

-- regexp_replace: flags, start, N, replacement escapes.
SELECT regexp_replace('1112223333', '(\d{3})(\d{3})(\d{4})', '(\1) \2-\3') AS phone;
SELECT regexp_replace('AAA aaa', 'A+', 'Z', 'gi') AS gi, regexp_replace('AAA aaa', 'A+', 'Z') AS first,
       regexp_replace('AAA', '^|$', 'Z', 'g') AS anchors, regexp_replace('abcabc', 'b*', 'X', 'g') AS empty_matches;
SELECT regexp_replace('abc', 'b', 'X\&Y\\Z\9\q') AS escapes, regexp_replace('abc', 'b', 'trailing\') AS trailing;
SELECT id, regexp_replace(s, '[aeiou]', '_', 'g') AS r FROM sf_t ORDER BY id;
SELECT regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 1, 2, 'i') AS n2,
       regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 7, 0, 'i') AS from7,
       regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 1, 9) AS past_end;
SELECT regexp_replace('abc', 'b', 'X', 0);
SELECT regexp_replace('abc', 'b', 'X', 1, -1);
SELECT regexp_replace('abc', 'b', 'X', '1');
SELECT regexp_replace('abc', 'b', 'X', 'z');
-- regexp_count, regexp_instr, regexp_substr, regexp_like.
SELECT regexp_count('123123123123123', '(12)3') AS c1, regexp_count('123123123123', '123', 3) AS c2,
       regexp_count('ABCABC', 'abc', 1, 'i') AS c3, regexp_count('', 'x*') AS c4;
SELECT regexp_count('abc', 'b', 0);
SELECT regexp_instr('abcabcabc', 'a.c', 1, 3) AS i1, regexp_instr('abcabcabc', 'a.c', 1, 4) AS i2,
       regexp_instr('1234567890', '(123)(4(56)(78))', 1, 1, 1, '', 3) AS i3,
       regexp_instr('1234567890', '(123)(4(56)(78))', 1, 1, 0, '', 5) AS i4,
       regexp_instr('héllo wörld', 'w.r') AS multibyte;
SELECT regexp_instr('abc', 'b', 1, 1, 2);
SELECT regexp_instr('abc', 'b', 1, 1, 0, 'g');
SELECT regexp_substr('1234567890', '(123)(4(56)(78))', 1, 1, '', 2) AS s1, regexp_substr('abc', 'x') IS NULL AS s2,
       regexp_substr('ABCabc', 'b', 1, 2, 'i') AS s3;
SELECT regexp_substr('abc', 'b', 1, 1, '', -1);
SELECT id, regexp_like(s, '^a', 'i') AS l FROM sf_t ORDER BY id;
SELECT regexp_like('a' || chr(10) || 'd', 'a.d') AS dot_newline, regexp_like('a' || chr(10) || 'd', 'a.d', 'n') AS newline_sensitive,
       regexp_like('abc', ' a . c ', 'x') AS expanded, regexp_like('a.c', 'a.c', 'q') AS literal, regexp_like('abc', 'a.c', 'q') AS literal2;
SELECT regexp_like('abc', 'a', 'g');
-- ~ and ~* with ARE escapes and options.
SELECT 'foo bar' ~ '\yfoo\y' AS word, 'foobar' ~ '\yfoo\y' AS not_word, 'abc' ~ '***=a.c' AS director,
       'ABC' ~ '(?i)abc' AS embedded, 'a' || chr(10) || 'b' ~ '^b' AS caret, 'x' ~* 'X' AS ci,
       'a]b' ~ '[]]' AS bracket, 'tab	x' ~ '\t' AS tab, E'\\' ~ '\B' AS backslash;
SELECT s, s ~ '^line2$' AS anchored FROM sf_t WHERE id = 5;
-- (What RE2 cannot do the same way fails with 0A000: regress/unsupported_test.go.)
SELECT 'ab' ~ '(a';
-- regexp_split_to_table in FROM and in the select list.
SELECT foo, length(foo) FROM regexp_split_to_table('the quick  brown fox', '\s+') AS foo ORDER BY foo;
SELECT foo FROM regexp_split_to_table('abc', '') WITH ORDINALITY AS t(foo, n) ORDER BY n;
SELECT foo, n FROM regexp_split_to_table('thE QUick bROWn', 'e', 'i') WITH ORDINALITY AS t(foo, n) ORDER BY n;
SELECT * FROM regexp_split_to_table('abc', 'b', 'g');
SELECT regexp_split_to_table('a,b,,c', ',') AS part, 1 AS one ORDER BY 1;
SELECT id, regexp_split_to_table(s, ' ') AS w FROM sf_t WHERE id <= 2 ORDER BY id, w;
-- substring(... FROM pattern), SIMILAR TO and SUBSTRING ... SIMILAR.
SELECT substring('abcdefg' FROM 'b(.)d') AS sub1, substring('abcdefg' FROM 'c.e') AS sub2, substring('abc' FROM 'x') IS NULL AS sub3;
SELECT 'abcdefg' SIMILAR TO '_bcd%' AS t1, 'abcdefg' SIMILAR TO 'bcd%' AS f1, 'abcd%' SIMILAR TO '_bcd#%' ESCAPE '#' AS t2,
       'abc' NOT SIMILAR TO 'a(b|x)c' AS f2, 'abc' SIMILAR TO '%' ESCAPE NULL AS n;
SELECT substring('abcdefg' SIMILAR 'a#"(b_d)#"%' ESCAPE '#') AS bcd, substring('abcdefg' SIMILAR 'a*#"%#"g*' ESCAPE '#') AS all_,
       substring('abcdefg' SIMILAR 'a#"%g' ESCAPE '#') AS one_sep;
SELECT substring('abcdefg' SIMILAR 'a#"%#"g#"x' ESCAPE '#');
\set VERBOSITY sqlstate
SELECT substring('abcdefg' SIMILAR 'a#"%#"g#"x' ESCAPE '#');
\set VERBOSITY default
SELECT 'abc' SIMILAR TO 'a' ESCAPE 'xy';
SELECT similar_to_escape('a#"%#"g', '#') AS esc, similar_to_escape('(a|b)_%') AS noesc;
-- Other string functions.
SELECT overlay('abcdef' PLACING 'XY' FROM 2 FOR 3) AS o1, overlay('abc' PLACING 'Z' FROM 4) AS o2, overlay('héllo' PLACING 'é' FROM 1 FOR 1) AS o3;
SELECT split_part('a,b,c', ',', -1) AS last, split_part('a,b,c', ',', -4) AS none, left('abcde', -2) AS l, right('abcde', -2) AS r,
       lpad('hi', 5, 'xy') AS lp, rpad('hi', 5, 'xy') AS rp, lpad('hello', 2) AS cut;
SELECT translate('12345', '143', 'ax') AS tr, starts_with('alphabet', 'alph') AS sw, reverse('héllo') AS rev, repeat('ab', 3) AS rep,
       initcap('hi THOMAS o''neil') AS ic, concat_ws(',', 'a', NULL, 2, true) AS cw, md5('abc') AS md5;
SELECT ascii('é') AS a, chr(233) AS c, to_hex(255) AS h1, to_hex(-1) AS h2, to_hex(9223372036854775807) AS h3,
       octet_length('héllo') AS o, bit_length('héllo') AS b;
SELECT chr(0);
SELECT unistr('d\0061t\+000061 \u00e9 \U0001F600 \\') AS u, unistr('\D83D\DE00') AS pair;
SELECT unistr('wrong: \db99');
SELECT unistr('wrong: \+2FFFFF');
SELECT unistr('wrong: \xyz');
SELECT 'a_c'::bytea LIKE 'a$__'::bytea ESCAPE '$'::bytea AS t, bit_count('\x1234567890'::bytea) AS bits;
SELECT float8(1::int8) AS f8, int4(2.7::float8) AS i4, int2(5) AS i2, text(12) AS t, float4('1.5') AS f4;
SELECT int2(100000);
SELECT float4send('1.5'::float4) AS f4, float8send('-0'::float8) AS f8, int4send(-2) AS i4, int8send(7) AS i8,
       int2send(5::int2) AS i2, boolsend(true) AS b, textsend('ab') AS t, uuid_send('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS u;
SHOW escape_string_warning;
SELECT true::name AS n, true::varchar AS v, true::text AS t;
-- Word characters and POSIX classes beyond ASCII, as the C.UTF-8 ctype has them.
SELECT 'é' ~ '[[:alpha:]]' AS alpha, 'É' ~ '[[:upper:]]' AS upper, '²' ~ '\w' AS sup2, '٣' ~ '\w' AS arabic3,
       '٣' ~ '\d' AS digit, 'é' ~ '[\w]' AS inbracket, 'é' ~ '\W' AS notword, 'É' ~* 'é' AS ci;
SELECT overlay('abc' PLACING 'Z' FROM 2 FOR -5) AS o1, overlay('\x010203'::bytea PLACING '\xff'::bytea FROM 3 FOR -1) AS o2;
-- text[]-returning regular expression functions: NULL for a group outside the match.
SELECT regexp_match('foobarbequebaz', '(bar)(beque)') AS m1, regexp_match('abc', '(x)?b') AS m2,
       regexp_match('abc', 'B', 'i') AS m3, regexp_match('abc', 'z') IS NULL AS nomatch,
       (regexp_match('abc', '(x)?(b)'))[2] AS second;
SELECT regexp_match('abc', 'b', 'g');
SELECT regexp_matches('foobarbequebazilbarfbonk', '(b[^b]+)(b[^b]+)', 'g') AS m ORDER BY 1;
SELECT n, m FROM regexp_matches('a1b22c333', '(\d)(\d)?', 'g') WITH ORDINALITY AS t(m, n) ORDER BY n;
SELECT count(*) FROM regexp_matches('abc', '', 'g');
SELECT regexp_matches('abc', 'b', 'gz');
SELECT regexp_split_to_array('the quick  brown fox', '\s+') AS s1, regexp_split_to_array('abc', '') AS s2,
       regexp_split_to_array('', 'x') AS s3, regexp_split_to_array('aXbxc', 'x', 'i') AS s4;
SELECT regexp_split_to_array('abc', 'b', 'g');
-- VARIADIC: the array's elements are the trailing arguments, of its element type.
SELECT concat(VARIADIC ARRAY[1,2,3]) AS c1, concat(VARIADIC ARRAY[[1,2],[3,4]]) AS c2,
       concat_ws('-', VARIADIC ARRAY['a',NULL,'c']) AS ws, concat(VARIADIC '{}'::int[]) = '' AS empty,
       concat(VARIADIC NULL::int[]) IS NULL AS c_null, concat_ws(',', VARIADIC NULL::int[]) IS NULL AS ws_null;
SELECT format('%2$s, %1$s', VARIADIC ARRAY[1, 2]) AS f1, format('%s, %s', VARIADIC ARRAY[true, false]) AS f2,
       format('Hello', VARIADIC NULL::int[]) AS f3, format('%s', VARIADIC ARRAY['2020-01-02'::date]) AS f4;
SELECT format('%s', VARIADIC NULL::int[]);
SELECT json_build_array(VARIADIC ARRAY[1,NULL,3]) AS ja, json_build_array(VARIADIC NULL::int[]) IS NULL AS ja_null,
       jsonb_build_object(VARIADIC ARRAY['a','b']) AS jo, json_extract_path_text('{"a":{"b":3}}', VARIADIC '{a,b}') AS path;
SELECT concat(VARIADIC c) AS c FROM (VALUES (1, ARRAY[1,2]), (2, NULL), (3, ARRAY[3])) v(k, c) ORDER BY k;
SELECT concat_ws(',', VARIADIC 10);
SELECT concat(VARIADIC NULL);
SELECT concat('a', VARIADIC ARRAY[1,2]);
SELECT json_extract_path('{"a":1}', VARIADIC ARRAY[1]);
-- width_bucket over a thresholds array: how many thresholds are at or below the operand.
SELECT width_bucket(5, ARRAY[3]) AS w1, width_bucket(5, '{}') AS w2, width_bucket(5, ARRAY[1,3,5,10]) AS w3,
       width_bucket(2.5, ARRAY[1,3]) AS w4, width_bucket('b'::text, ARRAY['a','c']) AS w5,
       width_bucket('NaN'::float8, ARRAY[1,'NaN']::float8[]) AS w6, width_bucket(NULL::int, ARRAY[1]) IS NULL AS w7;
SELECT width_bucket(5, ARRAY[3, 4, NULL]);
SELECT width_bucket(5, ARRAY[ARRAY[1, 2], ARRAY[3, 4]]);
-- pg_typeof: the argument's type as regtype prints it.
SELECT pg_typeof(1) AS i, pg_typeof('a') AS lit, pg_typeof(NULL) AS n, pg_typeof(1.5) AS num, pg_typeof(ARRAY[1.5]) AS arr,
       pg_typeof('a'::varchar(3)) AS vc, pg_typeof(ROW(1,2)) AS rec, pg_typeof(now()) AS ts, pg_typeof('x'::name) AS nm;
SELECT pg_typeof(id) AS id, pg_typeof(s) AS s, pg_typeof(ARRAY[s]) AS sarr FROM sf_t ORDER BY id LIMIT 1;
SELECT pg_typeof(1/0);
PREPARE sf_typeof AS SELECT pg_typeof($1);
PREPARE sf_typeof AS SELECT pg_typeof($1::int);
EXECUTE sf_typeof(1);
SELECT pg_typeof(x) OVER () FROM generate_series(1, 1) x;
SELECT version() OVER ();
-- num_nulls / num_nonnulls, also over a VARIADIC array's elements.
SELECT num_nulls(1, NULL, 2) AS n1, num_nonnulls(1, NULL, 2) AS nn1, num_nulls(VARIADIC ARRAY[[1,NULL],[NULL,4]]) AS n2,
       num_nulls(VARIADIC NULL::int[]) IS NULL AS n3, num_nonnulls(VARIADIC '{}'::int[]) AS nn2, num_nonnulls('a', NULL::date, now()) AS nn3;
SELECT num_nulls();
DROP TABLE sf_t;
