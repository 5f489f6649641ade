--
-- scalar_from: a function that returns no set, in FROM: one row holding its
-- value (NULL too), named by the alias or the function, LATERAL and WITH
-- ORDINALITY included.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

SELECT * FROM lower('ABC');
SELECT * FROM abs(-3) AS t(x), upper(NULL) AS u;
SELECT u IS NULL AS is_null, count(*) FROM upper(NULL) AS u GROUP BY 1;
SELECT a[1], a[2], array_length(a, 1) FROM parse_ident('"Sch".Tab') AS a;
SELECT * FROM int4('5');
SELECT * FROM upper('a') WITH ORDINALITY;
CREATE TABLE sf_vals (n int);
INSERT INTO sf_vals VALUES (1), (2), (3), (NULL);
SELECT v.n, y FROM sf_vals v, LATERAL abs(v.n - 2) AS y ORDER BY v.n NULLS LAST;
SELECT * FROM count(*);
SELECT * FROM sf_nosuch(1);
SELECT * FROM parse_ident('a.');
DROP TABLE sf_vals;
