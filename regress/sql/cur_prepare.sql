SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- PREPARE / EXECUTE / DEALLOCATE, pg_prepared_statements
CREATE TABLE cur_p (id int, name text, d date);
INSERT INTO cur_p VALUES (1, 'a', '2024-01-01'), (2, 'b', '2024-02-01'), (3, 'c', NULL);
SELECT name, statement, parameter_types, from_sql FROM pg_prepared_statements;
PREPARE p1 AS SELECT * FROM cur_p ORDER BY id;
EXECUTE p1;
PREPARE p1 AS SELECT 1;
PREPARE p2(int) AS SELECT name FROM cur_p WHERE id = $1;
EXECUTE p2(2);
EXECUTE p2('3');
EXECUTE p2(1 + 0);
EXECUTE p2(NULL);
PREPARE p3(int, text) AS SELECT $1 * 2 AS twice, upper($2) AS up;
EXECUTE p3(21, 'x');
PREPARE p4 AS SELECT * FROM cur_p WHERE id = $1 AND name = $2;
PREPARE p5(unknown) AS SELECT $1 || '!' AS bang;
EXECUTE p5('hey');
PREPARE p6(date) AS SELECT id FROM cur_p WHERE d < $1 ORDER BY id;
EXECUTE p6('2024-01-15');
SELECT name, statement, parameter_types, from_sql FROM pg_prepared_statements ORDER BY name;
-- parameter count and type errors
EXECUTE p3(1);
EXECUTE p3(1, 'a', 'b');
EXECUTE p3(true, 'a');
EXECUTE p2('abc');
EXECUTE nosuch;
EXECUTE nosuch(1);
PREPARE p7(nosuchtype) AS SELECT $1;
PREPARE p8 AS SELECT $2::int;
PREPARE p9 AS SELECT $1 + $1;
-- statements other than SELECT
PREPARE ins(int, text) AS INSERT INTO cur_p VALUES ($1, $2);
EXECUTE ins(4, 'd');
EXECUTE ins(5, NULL);
SELECT * FROM cur_p ORDER BY id;
-- the statement is bound again at EXECUTE
PREPARE cnt AS SELECT count(*) FROM cur_p;
EXECUTE cnt;
INSERT INTO cur_p VALUES (6, 'f', NULL);
EXECUTE cnt;
-- ... but its result columns may not change
CREATE TABLE cur_p2 (a int, b text);
PREPARE star AS SELECT * FROM cur_p2;
EXECUTE star;
DROP TABLE cur_p2;
CREATE TABLE cur_p2 (a int, c text);
EXECUTE star;
DROP TABLE cur_p2;
CREATE TABLE cur_p2 (a bigint, b text);
EXECUTE star;
DROP TABLE cur_p2;
CREATE TABLE cur_p2 (a int, b text);
INSERT INTO cur_p2 VALUES (1, 'one');
EXECUTE star;
DROP TABLE cur_p2;
EXECUTE star;
-- LIMIT and OFFSET parameters
PREPARE lim(int, int) AS SELECT id FROM cur_p ORDER BY id LIMIT $1 OFFSET $2;
EXECUTE lim(2, 1);
-- in a transaction block
BEGIN;
PREPARE tx AS SELECT 'in block' AS w;
EXECUTE tx;
ROLLBACK;
EXECUTE tx;
BEGIN;
SELECT 1 / 0;
EXECUTE p1;
ROLLBACK;
-- DEALLOCATE
DEALLOCATE p1;
DEALLOCATE PREPARE p2;
DEALLOCATE p1;
SELECT name FROM pg_prepared_statements ORDER BY name;
DEALLOCATE ALL;
SELECT name FROM pg_prepared_statements ORDER BY name;
DROP TABLE cur_p;
