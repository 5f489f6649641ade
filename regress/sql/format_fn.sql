SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- format(), quote_ident, quote_literal, quote_nullable (types/format.go)
SELECT format('Hello'), format('Hello %s', 'World'), format('%s%%%s', 'a', 'b'), format('%%');
SELECT format('INSERT INTO %I VALUES(%L, %L)', 'My Table', 'O''Reilly', NULL);
SELECT format('%I.%I', 'public', 'select'), format('%I', 'lower_ok'), format('%I', 'Upper'), format('%I', 'has"quote');
SELECT format('%L %L %L %L', 42, 'back\slash', true, date '2024-01-02');
SELECT format('%s %s %s', 1, 2.50::numeric, interval '1 day'), format('%s', NULL::int) = '' AS null_s;
SELECT format('%1$s %2$s %1$s', 'a', 'b'), format('%2$s %s', 'a', 'b', 'c'), format('%3$s %1$s %s', 'a', 'b', 'c');
SELECT format('|%10s|%-10s|%-s|', 'right', 'left', 'x'), format('|%5s|', 'toolong'), format('|%3s|', 'ñandú');
SELECT format('|%*s|%-*s|', 6, 'a', 6, 'b'), format('|%*s|', -6, 'neg'), format('|%*2$s|', 'v', 5),
  format('|%1$*2$s|', 'v', 4), format('|%*s|', NULL::int, 'nullwidth'), format('|%*s|', '3'::text, 'w');
SELECT format('|%10L|%-10I|', 'x', 'y');
CREATE TABLE ff_items (id int, name text, price numeric);
INSERT INTO ff_items VALUES (1, 'apple', 1.25), (2, NULL, 2), (3, 'it''s', NULL);
SELECT id, format('%s costs %s', name, price), format('%L', name), quote_nullable(name), quote_literal(name),
  quote_ident(name) FROM ff_items ORDER BY id;
SELECT format(NULL), format(NULL, 'a') IS NULL AS null_fmt;
SELECT quote_ident('select'), quote_ident('Foo Bar'), quote_ident('_x1'), quote_ident('1x'), quote_ident('');
SELECT quote_literal(E'a\\b'), quote_literal(''), quote_nullable(NULL), quote_nullable('x'''), quote_literal(NULL);
SELECT format('%s %s', 'one');
SELECT format('%z', 1);
SELECT format('%', 1);
SELECT format('%1$', 1);
SELECT format('%0$s', 1);
SELECT format('%*0$s', 1, 2);
SELECT format('%*1s', 1, 2);
SELECT format('%I', NULL);
SELECT format('%*s', 'abc'::text, 'x');
SELECT format('%99999999999s', 'x');
-- quote_literal/quote_nullable of any type quote its text cast
SELECT quote_literal(42), quote_nullable(42.5), quote_literal(date '2024-01-02'), quote_nullable(NULL::int),
  quote_nullable(true), quote_literal('ab '::char(4)), quote_literal(NULL::int) IS NULL AS strict, quote_nullable(NULL);
SELECT format('%L|%s|%I', true, 'ab '::char(4), 42);
