-- DataRow encoding corners: empty strings vs NULL, zero columns, wide rows.
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
\pset null NULL
SELECT '';
SELECT '', '';
SELECT '' AS a, NULL AS b, '' AS c;
SELECT NULL::text;
SELECT split_part('', '@', 1);
SELECT repeat('Pg', -4);
SELECT ''::varchar(3), ''::char(2) || 'x';
SELECT;
SELECT FROM generate_series(1, 3);
SELECT length(repeat('x', 100000)), md5(repeat('ab', 50000));
SELECT repeat('é', 3000) = repeat('é', 3000) AS same;
SELECT 1 AS c1, 2 AS c2, 3 AS c3, 4 AS c4, 5 AS c5, 6 AS c6, 7 AS c7, 8 AS c8, 9 AS c9, 10 AS c10,
       '' AS c11, NULL AS c12, '' AS c13, 14 AS c14, 15 AS c15, 16 AS c16, 17 AS c17, 18 AS c18;
CREATE TABLE dr_t (a text, b text);
INSERT INTO dr_t VALUES ('', NULL), (NULL, ''), ('', ''), (NULL, NULL);
SELECT a, b, a IS NULL AS an, b IS NULL AS bn FROM dr_t ORDER BY an, bn;
SELECT a FROM dr_t WHERE a IS NOT NULL;
SELECT count(*) FILTER (WHERE a = '') AS empties, count(a) AS nonnull FROM dr_t;
DROP TABLE dr_t;
