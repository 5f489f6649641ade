--
-- expressions: operators, three-valued logic, conditional expressions and
-- the scalar function library.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE ex_tv (a boolean, b boolean);
INSERT INTO ex_tv VALUES (true, true), (true, false), (true, NULL), (false, true), (false, false),
  (false, NULL), (NULL, true), (NULL, false), (NULL, NULL);

-- three-valued logic truth tables
SELECT a, b, a AND b AS "and", a OR b AS "or", NOT a AS "not_a" FROM ex_tv ORDER BY a NULLS LAST, b NULLS LAST;
SELECT a, a IS TRUE AS is_t, a IS NOT TRUE AS is_not_t, a IS FALSE AS is_f, a IS NOT FALSE AS is_not_f,
  a IS UNKNOWN AS is_u, a IS NOT UNKNOWN AS is_not_u FROM ex_tv WHERE b IS NULL ORDER BY a NULLS LAST;
SELECT a, b, a = b AS eq, a <> b AS ne, a IS DISTINCT FROM b AS dist, a IS NOT DISTINCT FROM b AS not_dist
  FROM ex_tv ORDER BY a NULLS LAST, b NULLS LAST;
SELECT count(*) AS rows_where_a_and_b FROM ex_tv WHERE a AND b;
SELECT count(*) AS rows_where_not_a_or_b FROM ex_tv WHERE NOT (a OR b);

-- arithmetic and comparison
CREATE TABLE ex_num (i integer, f double precision, n numeric(8,3), t text);
INSERT INTO ex_num VALUES (1, 1.5, 2.250, 'one'), (-7, -0.25, -3.500, 'minus seven'), (0, 0, 0, ''),
  (10, 1e10, 1234.567, 'Ten'), (NULL, NULL, NULL, NULL);
SELECT i, i + 1 AS plus, i - 3 AS minus, i * i AS sq, -i AS neg, +i AS pos, i / 2 AS half, i % 3 AS rem
  FROM ex_num ORDER BY i NULLS LAST;
SELECT i, f, n, i + f AS i_f, i + n AS i_n, f * n AS f_n, n / 4 AS n4 FROM ex_num ORDER BY i NULLS LAST;
SELECT i, i < 1 AS lt, i <= 1 AS le, i > 1 AS gt, i >= 1 AS ge, i = 1 AS eq, i != 1 AS ne
  FROM ex_num ORDER BY i NULLS LAST;
SELECT 2 + 3 * 4 AS prec, (2 + 3) * 4 AS paren, 2 ^ 10 AS pow, |/ 16.0 AS sqrt, @ -5 AS abs, 17 / 5 * 5 AS intdiv;
SELECT 1 < 2 AND 2 < 3 AS chain, 'abc' < 'abd' AS text_lt, 'B' < 'a' AS case_order, '2024-01-02'::date > '2024-01-01' AS date_gt;
SELECT i FROM ex_num WHERE i / (i - i) > 0;

-- NULL handling
SELECT i, i IS NULL AS isnull, i IS NOT NULL AS notnull, i + NULL AS plus_null FROM ex_num ORDER BY i NULLS FIRST;
SELECT NULL = NULL AS eq, NULL <> 1 AS ne, NULL IS NULL AS isnull, NULL::integer IS DISTINCT FROM 1 AS dist;

-- CASE
SELECT i, CASE WHEN i < 0 THEN 'negative' WHEN i = 0 THEN 'zero' WHEN i > 0 THEN 'positive' ELSE 'null' END AS sign,
  CASE i WHEN 1 THEN 'one' WHEN 10 THEN 'ten' END AS simple,
  CASE WHEN i > 5 THEN i * 100 ELSE i END AS scaled
  FROM ex_num ORDER BY i NULLS LAST;
SELECT CASE WHEN false THEN 1 / 0 ELSE 7 END AS lazy, CASE NULL WHEN NULL THEN 'matched' ELSE 'no match' END AS null_case;
SELECT CASE WHEN true THEN 1 ELSE 'x' END;

-- COALESCE, NULLIF, GREATEST, LEAST
SELECT i, COALESCE(i, -1) AS c1, COALESCE(NULL, NULL, i, 99) AS c2, NULLIF(i, 0) AS nullif0,
  GREATEST(i, 0, -100) AS g, LEAST(i, 0) AS l FROM ex_num ORDER BY i NULLS LAST;
SELECT COALESCE(NULL::text, 'fallback') AS c, NULLIF('a', 'a') AS same, NULLIF('a', 'b') AS diff,
  GREATEST('apple', 'banana', NULL) AS gs, LEAST(2.5, 1, 3) AS ln, GREATEST(NULL::integer, NULL) AS gnull;
SELECT 10 / NULLIF(0, 0) AS safe_div;

-- IN and NOT IN lists with NULLs
SELECT i, i IN (1, 10) AS in_list, i NOT IN (1, 10) AS not_in, i IN (1, NULL) AS in_null,
  i NOT IN (1, NULL) AS not_in_null FROM ex_num ORDER BY i NULLS LAST;
SELECT count(*) AS not_in_with_null FROM ex_num WHERE i NOT IN (1, NULL);
SELECT count(*) AS not_in_plain FROM ex_num WHERE i NOT IN (1, 0);
SELECT 1 IN (1, NULL) AS a, 2 IN (1, NULL) AS b, 2 NOT IN (1, NULL) AS c, NULL IN (1, 2) AS d;

-- BETWEEN
SELECT i, i BETWEEN 0 AND 5 AS btw, i NOT BETWEEN 0 AND 5 AS not_btw, i BETWEEN 5 AND 0 AS reversed,
  i BETWEEN SYMMETRIC 5 AND 0 AS sym FROM ex_num ORDER BY i NULLS LAST;
SELECT 'm' BETWEEN 'a' AND 'z' AS text_btw, '2024-06-15'::date BETWEEN '2024-01-01' AND '2024-12-31' AS date_btw;

-- LIKE, ILIKE, concatenation
SELECT t, t LIKE 'o%' AS starts_o, t LIKE '%e_' AS e_second_last, t ILIKE 't%' AS ilike_t, t NOT LIKE '%n%' AS no_n
  FROM ex_num ORDER BY t NULLS LAST;
SELECT 'a%b' LIKE 'a\%b' AS escaped_pct, 'axb' LIKE 'a\%b' AS not_pct, 'a_b' LIKE 'a#_b' ESCAPE '#' AS custom_escape;
SELECT 'abc' || 'def' AS cat, 'n=' || 42 AS cat_int, 1.5 || 'x' AS cat_num, 'x' || NULL AS cat_null, NULL || NULL::text AS null_null;

-- string functions
SELECT lower('MiXeD'), upper('MiXeD'), initcap('hello wORLD'), length('hello'), char_length('héllo'), octet_length('héllo');
SELECT substr('abcdef', 2), substr('abcdef', 2, 3), substring('abcdef' from 3 for 2), substr('abc', 0, 2), substr('abc', 5);
SELECT position('cd' in 'abcdef') AS pos, position('z' in 'abc') AS none, strpos('hello', 'l') AS strpos;
SELECT replace('a-b-c', '-', '+'), trim('  pad  ') || '|', ltrim('xxabc', 'x'), rtrim('abcyy', 'y'), btrim('--a--', '-');
SELECT trim(both 'x' from 'xxaxx'), trim(leading from '  a  ') || '|', trim(trailing from '  a  ') || '|';
SELECT lpad('7', 3, '0'), rpad('ab', 5, '*'), lpad('toolong', 3), repeat('ab', 3), reverse('abc');
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5) = '' AS past_end, left('abcdef', 2), right('abcdef', 2);
SELECT concat('a', NULL, 1, true), concat_ws('-', 'a', NULL, 'b'), concat(NULL) = '' AS all_null_concat;
SELECT starts_with('joind', 'jo'), md5('abc'), ascii('A'), chr(66);
SELECT upper(t), length(t) FROM ex_num ORDER BY length(t) NULLS FIRST, t;
SELECT substr('abc', 1, -1);

-- math functions
SELECT abs(-5), abs(-2.5), abs(-1.5::float8), sign(-3), sign(0.0);
SELECT round(2.5), round(-2.5), round(2.5::float8), round(3.14159, 2), round(1234.5, -2);
SELECT trunc(2.7), trunc(-2.7), trunc(3.14159, 3), ceil(2.1), ceil(-2.1), floor(2.9), floor(-2.1), ceiling(1.01);
SELECT mod(10, 3), mod(-10, 3), mod(10.5, 3), power(2, 10), power(2.0, 0.5), sqrt(2), sqrt(16::numeric), cbrt(27::float8);
SELECT exp(1::float8), ln(10), log(100), log(2, 8), pi();
SELECT sqrt(-1);
SELECT mod(5, 0);
SELECT ln(0);

-- date and time functions
SELECT extract(year from '2024-02-29'::date) AS y, extract(month from '2024-02-29'::date) AS m,
  extract(day from '2024-02-29'::date) AS d, extract(dow from '2024-02-29'::date) AS dow,
  extract(doy from '2024-02-29'::date) AS doy, extract(quarter from '2024-02-29'::date) AS q;
SELECT extract(hour from ts), extract(minute from ts), extract(second from ts), extract(epoch from ts)
  FROM (VALUES ('2024-03-10 14:25:36.5'::timestamp)) v(ts);
SELECT date_part('year', '2024-07-04'::date), date_part('month', '2024-07-04 10:00'::timestamp),
  date_part('epoch', '1970-01-02 00:00'::timestamp);
SELECT date_trunc('month', '2024-07-04 10:11:12'::timestamp), date_trunc('day', '2024-07-04 10:11:12'::timestamp),
  date_trunc('hour', '2024-07-04 10:11:12'::timestamp), date_trunc('year', '2024-07-04'::timestamp),
  date_trunc('week', '2024-07-04'::timestamp);
SELECT '2024-01-31'::date + interval '1 month' AS month_later, '2024-03-31'::date - interval '1 month' AS month_earlier,
  '2024-02-28'::date + 2 AS plus_days, '2024-12-31 23:00'::timestamp + interval '2 hours' AS new_year;
SELECT age('2024-03-01'::timestamp, '2023-01-15'::timestamp), '2024-03-01'::date - '2023-03-01'::date AS days;
SELECT extract(century from '2024-01-01'::date);
SELECT date_trunc('fortnight', '2024-01-01'::timestamp);
SELECT make_date(2024, 2, 29);
SELECT make_date(2023, 2, 29);

DROP TABLE ex_tv;
DROP TABLE ex_num;
